package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Static membership (KIP-345) with the Java consumer: a member with a group.instance.id that restarts
 * within its session timeout takes its old place (same partitions, no new generation), and the group
 * shows its instance id.
 */
class StaticMembershipIT {

    private static final String TOPIC = "static-topic";
    private static final String GROUP = "static-group";

    @Test
    void aRestartedStaticMemberGetsItsPartitionsBackWithoutARebalance() throws Exception {
        try (SpoolProcess spool = SpoolProcess.start("group.initial.rebalance.delay.ms=0");
             Admin admin = GroupClients.admin(spool.bootstrap())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 4, (short) 1))).all().get();
            Set<TopicPartition> before;
            String memberBefore;
            try (KafkaConsumer<String, String> consumer = staticConsumer(spool.bootstrap())) {
                before = awaitAssignment(consumer);
                memberBefore = member(admin).consumerId();
                // A static member's close sends no LeaveGroup: the coordinator keeps its place.
            }
            ConsumerGroupDescription between = admin.describeConsumerGroups(List.of(GROUP)).all().get().get(GROUP);
            assertThat(between.members()).hasSize(1);

            try (KafkaConsumer<String, String> restarted = staticConsumer(spool.bootstrap())) {
                assertThat(awaitAssignment(restarted)).isEqualTo(before);
                MemberDescription member = member(admin);
                assertThat(member.groupInstanceId()).contains("instance-1");
                assertThat(member.consumerId()).isNotEqualTo(memberBefore);
            }
            assertThat(spool.output()).filteredOn(line -> line.contains("Stabilized group " + GROUP)).hasSize(1);
        }
    }

    private static KafkaConsumer<String, String> staticConsumer(String bootstrap) {
        KafkaConsumer<String, String> consumer = GroupClients.consumer(bootstrap, GROUP, "earliest",
                ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "instance-1");
        consumer.subscribe(List.of(TOPIC));
        return consumer;
    }

    private static Set<TopicPartition> awaitAssignment(KafkaConsumer<String, String> consumer) {
        long deadline = System.currentTimeMillis() + 30_000;
        while (consumer.assignment().isEmpty() && System.currentTimeMillis() < deadline) {
            consumer.poll(Duration.ofMillis(100));
        }
        return Set.copyOf(consumer.assignment());
    }

    private static MemberDescription member(Admin admin) throws Exception {
        ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(GROUP)).all().get().get(GROUP);
        assertThat(group.members()).hasSize(1);
        return group.members().iterator().next();
    }
}

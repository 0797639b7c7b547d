package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A group of three classic Java consumers upgraded member by member to {@code group.protocol=consumer} and back
 * (Kafka 4's online migration), reading and committing synchronously throughout: every record is read exactly once,
 * no partition is ever owned by two members, the committed offsets never go back, and the group is a consumer group
 * once a consumer-protocol member is in and a classic group again once the last one has left.
 */
class GroupProtocolMigrationIT {

    private static final int PARTITIONS = 6;
    private static final String GROUP = "migrating-online";

    @RegisterExtension
    static final SharedSpoolProcess SPOOL = new SharedSpoolProcess("group.coordinator.rebalance.protocols=classic,consumer",
            "group.consumer.heartbeat.interval.ms=500", "group.consumer.session.timeout.ms=6000",
            "group.initial.rebalance.delay.ms=0");

    private final Set<String> read = new HashSet<>();
    private final Map<TopicPartition, Long> lastCommitted = new HashMap<>();
    private int produced;

    @Test
    void classicMembersAreUpgradedOneByOneAndDowngradedBackWithoutLosingACommit() throws Exception {
        String topic = "migrating-online";
        try (Admin admin = GroupClients.admin(bootstrap())) {
            admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        List<KafkaConsumer<String, String>> members = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                members.add(subscribed(classic(), topic));
            }
            produceAndReadAll(members, topic);
            assertThat(groupType()).isEqualTo(GroupType.CLASSIC);

            // Each new member joins while the others own their partitions; then one of the old ones leaves.
            for (int i = 0; i < 3; i++) {
                members.add(subscribed(consumerProtocol(), topic));
                produceAndReadAll(members, topic);
                assertThat(groupType()).as("after %d upgraded", i + 1).isEqualTo(GroupType.CONSUMER);
                members.remove(0).close();
                produceAndReadAll(members, topic);
            }
            for (int i = 0; i < 3; i++) {
                members.add(subscribed(classic(), topic));
                produceAndReadAll(members, topic);
                members.remove(0).close();
                produceAndReadAll(members, topic);
                assertThat(groupType()).as("after %d downgraded", i + 1)
                        .isEqualTo(i < 2 ? GroupType.CONSUMER : GroupType.CLASSIC);
            }
        } finally {
            members.forEach(member -> member.close(Duration.ZERO));
        }
        assertThat(read).hasSize(produced);
        assertThat(SPOOL.process().output()).as("moved with its members in, not while empty")
                .anyMatch(line -> line.contains("Converted classic group " + GROUP + " with 3 members"))
                .anyMatch(line -> line.contains("Converted consumer group " + GROUP + " to a classic group of 3"));
    }

    /**
     * Produces 60 records, then polls the members in turn, each committing synchronously what it read, until all
     * are read and every member owns partitions: a record read twice fails, two members owning a partition at once
     * fail, and so does a committed offset going back.
     */
    private void produceAndReadAll(List<KafkaConsumer<String, String>> members, String topic) throws Exception {
        GroupClients.produce(bootstrap(), topic, "step-" + produced, 60);
        produced += 60;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (read.size() < produced || members.stream().anyMatch(member -> member.assignment().isEmpty())) {
            assertThat(System.nanoTime()).as("%d of %d read; assignments %s", read.size(), produced,
                    members.stream().map(KafkaConsumer::assignment).toList()).isLessThan(deadline);
            for (KafkaConsumer<String, String> member : members) {
                for (ConsumerRecord<String, String> record : member.poll(Duration.ofMillis(100))) {
                    assertThat(read.add(record.value())).as("read twice: %s", record.value()).isTrue();
                }
                member.commitSync();
                GroupClients.assertNoPartitionOwnedTwice(members);
            }
        }
        try (Admin admin = GroupClients.admin(bootstrap())) {
            Map<Integer, Long> committed = GroupClients.committed(admin, GROUP, topic);
            committed.forEach((partition, offset) -> {
                TopicPartition key = new TopicPartition(topic, partition);
                assertThat(offset).as("%s's commit", key).isGreaterThanOrEqualTo(lastCommitted.getOrDefault(key, 0L));
                lastCommitted.put(key, offset);
            });
            assertThat(committed.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(produced);
        }
    }

    private static GroupType groupType() throws Exception {
        try (Admin admin = GroupClients.admin(bootstrap())) {
            return admin.listGroups().all().get(30, TimeUnit.SECONDS).stream()
                    .filter(listed -> listed.groupId().equals(GROUP)).findFirst().orElseThrow().type().orElseThrow();
        }
    }

    private static KafkaConsumer<String, String> subscribed(KafkaConsumer<String, String> member, String topic) {
        member.subscribe(List.of(topic));
        return member;
    }

    private static KafkaConsumer<String, String> classic() {
        return GroupClients.consumer(bootstrap(), GROUP, "earliest");
    }

    private static KafkaConsumer<String, String> consumerProtocol() {
        return GroupClients.consumer(bootstrap(), GROUP, "earliest", ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer",
                ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, null, ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, null);
    }

    private static String bootstrap() {
        return SPOOL.process().bootstrap();
    }
}

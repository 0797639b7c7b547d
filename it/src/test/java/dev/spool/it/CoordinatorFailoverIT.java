package dev.spool.it;

import static dev.spool.it.MetadataQuorumTool.awaitTrue;
import static dev.spool.it.ReplicatedTopics.admin;
import static dev.spool.it.ReplicatedTopics.describe;
import static dev.spool.it.ReplicatedTopics.ids;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * A consumer group's coordinator on a cluster: {@code __consumer_offsets} is replicated (offsets.topic.replication.factor
 * 3 by default), so when the coordinator's broker is SIGKILLed another replica leads the group's partition, loads its
 * commits, and the group goes on from them with Kafka's consumer: nothing read twice, nothing skipped.
 */
class CoordinatorFailoverIT {

    private static final String TOPIC = "orders";
    private static final String GROUP = "billing";
    private static final int RECORDS = 600;

    @Test
    void aGroupKeepsItsCommittedOffsetsWhenItsCoordinatorIsKilled() throws Exception {
        try (SpoolCluster cluster = SpoolCluster.start(3, "broker.session.timeout.ms=3000",
                "broker.heartbeat.interval.ms=500", "group.initial.rebalance.delay.ms=0"); Admin admin = admin(cluster.bootstrap())) {
            ReplicatedTopics.create(admin, TOPIC, 6, 2);
            List<String> written = ReplicatedTopics.produce(cluster.bootstrap(), TOPIC, "order", RECORDS);

            List<String> read = new ArrayList<>(consume(cluster.bootstrap(), RECORDS / 2));
            for (TopicPartitionInfo partition : describe(admin, "__consumer_offsets").partitions()) {
                assertThat(ids(partition.replicas())).as("__consumer_offsets replicas").hasSize(3);
            }
            Map<TopicPartition, OffsetAndMetadata> committed = committed(admin);
            assertThat(committed.values().stream().mapToLong(OffsetAndMetadata::offset).sum())
                    .as("the commits of what was read").isEqualTo(read.size());

            int coordinator = group(admin).coordinator().id();
            cluster.kill(coordinator);
            awaitTrue(() -> {
                Node now = group(admin).coordinator();
                return now != null && now.id() != coordinator;
            }, "another broker coordinating the group");
            assertThat(committed(admin)).as("the commits, from the new coordinator").isEqualTo(committed);

            read.addAll(consume(cluster.bootstrap(), RECORDS - read.size()));
            assertThat(read).as("nothing read twice").doesNotHaveDuplicates();
            assertThat(read).as("nothing skipped").containsExactlyInAnyOrderElementsOf(written);
        }
    }

    /**
     * The same with the consumer group protocol (KIP-848): two members read and commit synchronously through the
     * coordinator's SIGKILL; the new coordinator rebuilds the group from its records (members, epochs, assignments)
     * and the members go on: nothing read twice, nothing skipped, no partition owned by both at once.
     */
    @Test
    void aConsumerProtocolGroupGoesOnThroughTheKillOfItsCoordinator() throws Exception {
        try (SpoolCluster cluster = SpoolCluster.start(3, "broker.session.timeout.ms=3000",
                "broker.heartbeat.interval.ms=500", "group.coordinator.rebalance.protocols=classic,consumer",
                "group.consumer.heartbeat.interval.ms=500"); Admin admin = admin(cluster.bootstrap())) {
            ReplicatedTopics.create(admin, TOPIC, 6, 2);
            List<String> written = ReplicatedTopics.produce(cluster.bootstrap(), TOPIC, "order", RECORDS);
            List<KafkaConsumer<String, String>> members = new ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    members.add(new KafkaConsumer<>(Map.of("bootstrap.servers", cluster.bootstrap(), "group.id",
                            GROUP, "group.protocol", "consumer", "auto.offset.reset", "earliest",
                            "enable.auto.commit", "false", "max.poll.records", "20"), new StringDeserializer(),
                            new StringDeserializer()));
                    members.get(i).subscribe(List.of(TOPIC));
                }
                List<String> read = new ArrayList<>();
                readTogether(members, read, RECORDS / 2);
                ConsumerGroupDescription before = group(admin);
                assertThat(before.members()).hasSize(2);

                int coordinator = before.coordinator().id();
                cluster.kill(coordinator);
                readTogether(members, read, RECORDS);

                ConsumerGroupDescription after = group(admin);
                assertThat(after.coordinator().id()).isNotEqualTo(coordinator);
                assertThat(after.members()).extracting(member -> member.consumerId())
                        .as("the same members, restored").containsExactlyInAnyOrderElementsOf(
                                before.members().stream().map(member -> member.consumerId()).toList());
                assertThat(read).as("nothing read twice").doesNotHaveDuplicates();
                assertThat(read).as("nothing skipped").containsExactlyInAnyOrderElementsOf(written);
            } finally {
                members.forEach(member -> member.close(Duration.ZERO));
            }
        }
    }

    /** Polls the members in turn, each committing what it read, until {@code read} holds {@code count} records. */
    private static void readTogether(List<KafkaConsumer<String, String>> members, List<String> read, int count) {
        long deadline = System.currentTimeMillis() + MetadataQuorumTool.AWAIT_MS;
        while (read.size() < count) {
            assertThat(System.currentTimeMillis()).as("%d of %d read", read.size(), count).isLessThan(deadline);
            for (KafkaConsumer<String, String> member : members) {
                for (ConsumerRecord<String, String> record : member.poll(Duration.ofMillis(200))) {
                    read.add(record.value());
                }
                member.commitSync(Duration.ofSeconds(60));
                List<TopicPartition> owned = new ArrayList<>();
                members.forEach(each -> owned.addAll(each.assignment()));
                assertThat(owned).as("owned by both at once").doesNotHaveDuplicates();
            }
        }
    }

    /** Reads {@code count} records in the group (more, if a poll brings them, is a failure), committing each poll. */
    private static List<String> consume(String bootstrap, int count) {
        List<String> read = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", bootstrap,
                "group.id", GROUP, "auto.offset.reset", "earliest", "enable.auto.commit", "false",
                "max.poll.records", "50"), new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(TOPIC));
            long deadline = System.currentTimeMillis() + MetadataQuorumTool.AWAIT_MS;
            while (read.size() < count && System.currentTimeMillis() < deadline) {
                Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    if (read.size() < count) {
                        read.add(record.value());
                        next.put(new TopicPartition(record.topic(), record.partition()),
                                new OffsetAndMetadata(record.offset() + 1));
                    }
                }
                if (!next.isEmpty()) {
                    consumer.commitSync(next, Duration.ofSeconds(60));
                }
            }
        }
        return read;
    }

    private static ConsumerGroupDescription group(Admin admin) throws Exception {
        return admin.describeConsumerGroups(List.of(GROUP)).all().get(30, TimeUnit.SECONDS).get(GROUP);
    }

    private static Map<TopicPartition, OffsetAndMetadata> committed(Admin admin) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>(admin.listConsumerGroupOffsets(GROUP)
                .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS));
        offsets.values().removeIf(offset -> offset == null);
        return offsets;
    }
}

package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.Test;

/**
 * Committed offsets survive a broker crash: a consumer commits synchronously after each poll, the
 * broker is SIGKILLed and restarted on the same data, and a new consumer of the group resumes exactly
 * at the committed offsets: across the restart no record is lost or read twice. Kafka's own dump tool
 * decodes the group's records in Spool's {@code __consumer_offsets} segment.
 */
class GroupOffsetsRestartIT {

    private static final String TOPIC = "resume";
    private static final String GROUP = "resume-group";

    /** Kafka's kafka-dump-log --offsets-decoder reads Spool's __consumer_offsets segment of the group. */
    private static void assertKafkaDecodesTheCommits(java.nio.file.Path dataDir) throws Exception {
        int partition = (GROUP.hashCode() & 0x7fffffff) % 50;
        java.nio.file.Path segment = dataDir.resolve("__consumer_offsets-" + partition)
                .resolve("00000000000000000000.log");
        ExternalCommand.Result dump = KafkaTool.run("org.apache.kafka.tools.DumpLogSegments", "--files",
                segment.toString(), "--offsets-decoder");
        assertThat(dump.exitCode()).as(dump.output()).isZero();
        assertThat(dump.output())
                .contains("key: {\"type\":\"2\",\"data\":{\"group\":\"" + GROUP + "\"}}")
                .contains("key: {\"type\":\"1\",\"data\":{\"group\":\"" + GROUP + "\",\"topic\":\"" + TOPIC)
                .contains("\"protocol\":\"range\"");
    }

    @Test
    void aConsumerResumesExactlyWhereItsGroupCommittedAfterABrokerCrash() throws Exception {
        SpoolProcess first = SpoolProcess.start("group.initial.rebalance.delay.ms=0");
        Set<String> seen = new HashSet<>();
        Map<Integer, Long> committedBefore;
        try (Admin admin = GroupClients.admin(first.bootstrap())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 1))).all().get();
            GroupClients.produce(first.bootstrap(), TOPIC, "before", 300);
            try (KafkaConsumer<String, String> consumer = GroupClients.consumer(first.bootstrap(), GROUP, "earliest")) {
                consumer.subscribe(List.of(TOPIC));
                while (seen.size() < 150) {
                    for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                        assertThat(seen.add(record.value())).as("read twice: " + record.value()).isTrue();
                    }
                    consumer.commitSync();
                }
            }
            committedBefore = GroupClients.committed(admin, GROUP, TOPIC);
        }
        first.kill();
        assertKafkaDecodesTheCommits(first.dataDir());

        try (SpoolProcess second = SpoolProcess.startIn(first.dataDir(), "group.initial.rebalance.delay.ms=0");
             Admin admin = GroupClients.admin(second.bootstrap())) {
            assertThat(GroupClients.committed(admin, GROUP, TOPIC)).isEqualTo(committedBefore);
            GroupClients.produce(second.bootstrap(), TOPIC, "after", 100);
            Map<Integer, Long> firstOffsetAfterRestart = new HashMap<>();
            try (KafkaConsumer<String, String> consumer = GroupClients.consumer(second.bootstrap(), GROUP, "earliest")) {
                consumer.subscribe(List.of(TOPIC));
                long deadline = System.currentTimeMillis() + 60_000;
                while (seen.size() < 400 && System.currentTimeMillis() < deadline) {
                    for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                        firstOffsetAfterRestart.putIfAbsent(record.partition(), record.offset());
                        assertThat(seen.add(record.value())).as("read twice: " + record.value()).isTrue();
                    }
                    consumer.commitSync();
                }
            }
            assertThat(seen).hasSize(400);
            for (Map.Entry<Integer, Long> resumed : firstOffsetAfterRestart.entrySet()) {
                assertThat(resumed.getValue()).as("partition " + resumed.getKey())
                        .isEqualTo(committedBefore.getOrDefault(resumed.getKey(), 0L));
            }
        }
    }
}

package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * The seeds' fan-out: one producer, four groups reading the same topic, each at its own pace and from
 * its own start: a fast reader, an hourly batch reader that starts late, an audit reader from offset
 * 0 and an alerting reader from the end. Each sees what it should, in per-partition order, and no
 * group's reading or commits move another's position.
 */
class FanOutIT {

    private static final String TOPIC = "events";
    private static final int PARTITIONS = 3;

    @Test
    void fourGroupsReadTheSameTopicIndependently() throws Exception {
        try (SpoolProcess spool = SpoolProcess.start("group.initial.rebalance.delay.ms=0");
             Admin admin = GroupClients.admin(spool.bootstrap())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1))).all().get();
            List<RecordMetadata> history = GroupClients.produce(spool.bootstrap(), TOPIC, "history", 60);

            try (KafkaConsumer<String, String> fast = GroupClients.consumer(spool.bootstrap(), "fast", "earliest");
                 KafkaConsumer<String, String> alerting = GroupClients.consumer(spool.bootstrap(), "alerting",
                         "latest")) {
                fast.subscribe(List.of(TOPIC));
                alerting.subscribe(List.of(TOPIC));
                awaitPositions(alerting);
                List<RecordMetadata> live = GroupClients.produce(spool.bootstrap(), TOPIC, "live", 90);

                List<ConsumerRecord<String, String>> fastRead = readCommitting(fast, 150);
                List<ConsumerRecord<String, String>> alerts = readCommitting(alerting, 90);
                assertInPartitionOrder(fastRead);
                assertInPartitionOrder(alerts);
                assertThat(alerts).extracting(ConsumerRecord::value).allMatch(value -> value.startsWith("live-"))
                        .hasSize(live.size());
                // The fast reader's commits are its own: groups that have not started have no position.
                assertThat(GroupClients.committed(admin, "hourly-batch", TOPIC)).isEmpty();
                assertThat(GroupClients.committed(admin, "audit", TOPIC)).isEmpty();
            }

            for (String lateGroup : List.of("hourly-batch", "audit")) {
                try (KafkaConsumer<String, String> late = GroupClients.consumer(spool.bootstrap(), lateGroup,
                        "earliest")) {
                    late.subscribe(List.of(TOPIC));
                    List<ConsumerRecord<String, String>> read = readCommitting(late, 150);
                    assertInPartitionOrder(read);
                    assertThat(read).extracting(ConsumerRecord::value).filteredOn(value -> value.startsWith("history-"))
                            .hasSize(history.size());
                    assertThat(read.stream().filter(record -> record.offset() == 0).count()).isEqualTo(PARTITIONS);
                }
            }

            Map<Integer, Long> fastCommitted = GroupClients.committed(admin, "fast", TOPIC);
            for (String group : List.of("fast", "alerting", "hourly-batch", "audit")) {
                assertThat(GroupClients.committed(admin, group, TOPIC)).as(group).isEqualTo(fastCommitted)
                        .hasSize(PARTITIONS);
            }
            assertThat(fastCommitted.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(150);
        }
    }

    /** Polls until the consumer has partitions and knows its position in each ("latest" resolved now). */
    private static void awaitPositions(KafkaConsumer<String, String> consumer) {
        long deadline = System.currentTimeMillis() + 30_000;
        while (consumer.assignment().size() < PARTITIONS && System.currentTimeMillis() < deadline) {
            consumer.poll(Duration.ofMillis(100));
        }
        for (TopicPartition partition : consumer.assignment()) {
            consumer.position(partition);
        }
        consumer.commitSync();
    }

    private static List<ConsumerRecord<String, String>> readCommitting(KafkaConsumer<String, String> consumer,
                                                                       int count) {
        List<ConsumerRecord<String, String>> read = new ArrayList<>();
        long deadline = System.currentTimeMillis() + 60_000;
        while (read.size() < count && System.currentTimeMillis() < deadline) {
            consumer.poll(Duration.ofMillis(200)).forEach(read::add);
            consumer.commitSync();
        }
        assertThat(read).hasSize(count);
        return read;
    }

    private static void assertInPartitionOrder(List<ConsumerRecord<String, String>> records) {
        Map<Integer, Long> last = new HashMap<>();
        for (ConsumerRecord<String, String> record : records) {
            Long previous = last.put(record.partition(), record.offset());
            assertThat(record.offset()).as("partition " + record.partition())
                    .isEqualTo(previous == null ? record.offset() : previous + 1);
        }
    }
}

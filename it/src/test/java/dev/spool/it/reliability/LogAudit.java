package dev.spool.it.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads a topic from its first to its last offset and checks it against what a
 * {@link NumberedProducer} was told was written: every acknowledged number present exactly once, no
 * number twice at all, and per key the numbers in increasing order. Returns what it found wrong
 * (empty when nothing). Not thread-safe.
 */
public final class LogAudit {

    /** The outcome: records read and problems found. */
    public record Result(long records, List<String> problems) {
    }

    private LogAudit() {
    }

    public static Result check(String bootstrap, String topic, int partitions, Map<String, NavigableSet<Long>> acked) {
        List<TopicPartition> all = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            all.add(new TopicPartition(topic, p));
        }
        Map<String, Long> lastNumber = new HashMap<>();
        Map<String, Integer> seen = new HashMap<>();
        List<String> problems = new ArrayList<>();
        long records = 0;
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.CHECK_CRCS_CONFIG, true,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000), new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(all);
            consumer.seekToBeginning(all);
            Map<TopicPartition, Long> end = consumer.endOffsets(all, Duration.ofSeconds(30));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (all.stream().anyMatch(tp -> consumer.position(tp, Duration.ofSeconds(30)) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    problems.add("could not read up to the end offsets " + end + " in 60 s");
                    break;
                }
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    records++;
                    String key = record.key();
                    long number = Long.parseLong(record.value().substring(record.value().indexOf(':') + 1));
                    String id = key + ":" + number;
                    if (seen.merge(id, 1, Integer::sum) > 1) {
                        problems.add(id + " is in the log twice (again at " + record.topic() + "-"
                                + record.partition() + "@" + record.offset() + ")");
                    }
                    Long previous = lastNumber.put(key, number);
                    if (previous != null && number <= previous) {
                        problems.add(id + " at offset " + record.offset() + " follows " + key + ":" + previous);
                    }
                }
            }
        }
        acked.forEach((key, numbers) -> {
            long missing = numbers.stream().filter(n -> !seen.containsKey(key + ":" + n)).count();
            if (missing > 0) {
                problems.add(missing + " acknowledged records of " + key + " are missing, first "
                        + numbers.stream().filter(n -> !seen.containsKey(key + ":" + n)).findFirst().orElseThrow());
            }
        });
        return new Result(records, problems.size() > 20 ? problems.subList(0, 20) : problems);
    }
}

package dev.spool.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A consume-transform-produce loop with the Java client (read_committed consumer, transactional producer,
 * sendOffsetsToTransaction): copies {@code records} values {@code v<i>} of an input topic as {@code V<i>} to an output
 * topic, aborting every fifth transaction on purpose and reading its input again. Whenever a client fails (a broker
 * died under it) the loop starts over with new clients from the group's committed offsets, until those cover the
 * input. Run on a thread of its own; the counters are for the test's report.
 */
final class ExactlyOnceLoop implements Runnable {

    /** Every so many transactions one is aborted on purpose, its input read again. */
    private static final int ABORT_EVERY = 5;

    /** Asked again at each restart: on a cluster, a restarted broker listens on a new port. */
    private final Supplier<String> bootstrap;
    private final String input;
    private final String output;
    private final int partitions;
    private final int records;
    private final String name;
    final AtomicBoolean running = new AtomicBoolean(true);
    final AtomicLong committedTransactions = new AtomicLong();
    final AtomicLong abortedTransactions = new AtomicLong();
    final AtomicLong restarts = new AtomicLong();
    private final AtomicLong transactions = new AtomicLong();

    /** {@code name}: the group and the transactional id. */
    ExactlyOnceLoop(Supplier<String> bootstrap, String input, String output, int partitions, int records, String name) {
        this.bootstrap = bootstrap;
        this.input = input;
        this.output = output;
        this.partitions = partitions;
        this.records = records;
        this.name = name;
    }

    /** Writes the input: {@code records} values {@code v<i>} keyed {@code k<i>}, idempotently. */
    static void writeInput(String bootstrap, String input, int records) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap,
                "enable.idempotence", "true"), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(input, "k" + i, "v" + i));
            }
            producer.flush();
        }
    }

    /** The results the output must hold, each once: {@code V<i>}. */
    static List<String> expectedOutput(int records) {
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            expected.add("V" + i);
        }
        return expected;
    }

    @Override
    public void run() {
        while (running.get()) {
            try {
                if (copyUntilDone()) {
                    return;
                }
            } catch (KafkaException | IllegalStateException e) {
                restarts.incrementAndGet(); // a broker went away: new clients, from the committed offsets
            }
        }
    }

    /** True once the group's committed offsets cover the input. */
    private boolean copyUntilDone() {
        String servers = bootstrap.get();
        Map<String, Object> consumerConfig = new HashMap<>(Map.of("bootstrap.servers", servers,
                "group.id", name, "enable.auto.commit", "false", "auto.offset.reset", "earliest",
                "isolation.level", "read_committed", "max.poll.records", "20",
                "default.api.timeout.ms", "15000", "session.timeout.ms", "10000"));
        Map<String, Object> producerConfig = new HashMap<>(Map.of("bootstrap.servers", servers,
                "transactional.id", name, "max.block.ms", "15000",
                "delivery.timeout.ms", "30000", "request.timeout.ms", "10000", "transaction.timeout.ms", "20000"));
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig, new StringDeserializer(),
                new StringDeserializer());
             KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig, new StringSerializer(),
                     new StringSerializer())) {
            producer.initTransactions();
            consumer.subscribe(List.of(input));
            while (running.get()) {
                ConsumerRecords<String, String> polled = consumer.poll(Duration.ofMillis(200));
                if (polled.isEmpty()) {
                    if (committedInput(consumer) >= records) {
                        return true;
                    }
                    continue;
                }
                producer.beginTransaction();
                Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                for (ConsumerRecord<String, String> record : polled) {
                    producer.send(new ProducerRecord<>(output, record.key(), record.value().toUpperCase()));
                    offsets.put(new TopicPartition(record.topic(), record.partition()),
                            new OffsetAndMetadata(record.offset() + 1));
                }
                producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
                if (transactions.incrementAndGet() % ABORT_EVERY == 0) {
                    // Its results must vanish and its input be read again: back to the committed offsets.
                    producer.abortTransaction();
                    abortedTransactions.incrementAndGet();
                    rewindToCommitted(consumer);
                    continue;
                }
                producer.commitTransaction();
                committedTransactions.incrementAndGet();
            }
            return false;
        }
    }

    /** After an abort: back to the offsets the group committed (its start where it has none). */
    static void rewindToCommitted(KafkaConsumer<String, String> consumer) {
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(consumer.assignment());
        for (TopicPartition partition : consumer.assignment()) {
            OffsetAndMetadata offset = committed.get(partition);
            if (offset == null) {
                consumer.seekToBeginning(List.of(partition));
            } else {
                consumer.seek(partition, offset.offset());
            }
        }
    }

    private long committedInput(KafkaConsumer<String, String> consumer) {
        return consumer.committed(new HashSet<>(topicPartitions(input, partitions))).values().stream()
                .mapToLong(offset -> offset == null ? 0 : offset.offset()).sum();
    }

    private static List<TopicPartition> topicPartitions(String topic, int partitions) {
        List<TopicPartition> all = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            all.add(new TopicPartition(topic, p));
        }
        return all;
    }

    /** Every value of {@code topic} a read_committed reader reads from the start: until {@code expected}, then 2 s. */
    static List<String> readCommitted(String bootstrap, String topic, int partitions, int expected) {
        List<String> read = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", bootstrap,
                "isolation.level", "read_committed", "enable.auto.commit", "false"), new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> assigned = topicPartitions(topic, partitions);
            consumer.assign(assigned);
            consumer.seekToBeginning(assigned);
            long deadline = System.currentTimeMillis() + 60_000;
            while (read.size() < expected && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    read.add(record.value());
                }
            }
            for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofSeconds(2))) {
                read.add(record.value());
            }
        }
        return read;
    }
}

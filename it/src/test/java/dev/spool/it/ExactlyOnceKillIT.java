package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
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
import org.junit.jupiter.api.Test;

/**
 * Exactly once under failure (issue 21): a consume-transform-produce loop (the Java client, sendOffsetsToTransaction)
 * copies an input topic to an output topic while the broker is SIGKILLed and restarted on the same data
 * ({@code -Dexactlyonce.kills=N}, 3 by default). Every fifth transaction is aborted on purpose and its input read
 * again. Whatever a kill interrupts (a send, a commit or abort, the markers), the client retries or the loop starts
 * over with a new producer and consumer from the committed offsets; at the end a read_committed reader finds each
 * input's result in the output exactly once. {@code -Dexactlyonce.seed=S} reproduces the kill moments.
 */
class ExactlyOnceKillIT {

    private static final String INPUT = "eos-kill-input";
    private static final String OUTPUT = "eos-kill-output";
    private static final String GROUP = "eos-kill";
    private static final int PARTITIONS = 2;
    private static final int RECORDS = 3_000;
    /** Every so many transactions one is aborted on purpose, its input read again. */
    private static final int ABORT_EVERY = 5;

    @Test
    void eachInputIsTransformedExactlyOnceThroughKills() throws Exception {
        int kills = Integer.getInteger("exactlyonce.kills", 3);
        long seed = Long.getLong("exactlyonce.seed", System.nanoTime());
        Random random = new Random(seed);
        String[] overrides = {"listeners=PLAINTEXT://127.0.0.1:" + KillLoopIT.freePort(),
                "group.initial.rebalance.delay.ms=0", "offsets.topic.num.partitions=3",
                "transaction.state.log.num.partitions=3"};
        SpoolProcess spool = SpoolProcess.start(overrides);
        String bootstrap = spool.bootstrap();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(INPUT, PARTITIONS, (short) 1),
                    new NewTopic(OUTPUT, PARTITIONS, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap,
                "enable.idempotence", "true"), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>(INPUT, "k" + i, "v" + i));
            }
            producer.flush();
        }
        Transformer transformer = new Transformer(bootstrap);
        Thread loop = new Thread(transformer, "eos-transformer");
        loop.start();
        try {
            for (int kill = 1; kill <= kills; kill++) {
                long before = transformer.committedTransactions.get();
                long deadline = System.currentTimeMillis() + 60_000;
                while (transformer.committedTransactions.get() == before && System.currentTimeMillis() < deadline) {
                    Thread.sleep(50);
                }
                assertThat(transformer.committedTransactions.get()).as("a transaction committed before kill %d (seed %d)",
                        kill, seed).isGreaterThan(before);
                Thread.sleep(100 + random.nextInt(700));
                spool.kill();
                spool = SpoolProcess.startIn(spool.dataDir(), overrides);
            }
            loop.join(TimeUnit.SECONDS.toMillis(120));
            assertThat(loop.isAlive()).as("the loop copied everything within 120 s of the last restart (seed %d)", seed)
                    .isFalse();
        } finally {
            transformer.running.set(false);
            loop.join(TimeUnit.SECONDS.toMillis(30));
        }
        try {
            List<String> output = readCommitted(bootstrap, RECORDS);
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < RECORDS; i++) {
                expected.add("V" + i);
            }
            assertThat(output).as("nothing written twice (seed %d)", seed).doesNotHaveDuplicates();
            assertThat(output).as("every input's result (seed %d)", seed).containsExactlyInAnyOrderElementsOf(expected);
            System.out.printf("ExactlyOnceKillIT: %d kills (seed %d): %d results exactly once in %d committed "
                    + "transactions (%d aborted on purpose), %d loop restarts%n", kills, seed, output.size(),
                    transformer.committedTransactions.get(), transformer.abortedTransactions.get(),
                    transformer.restarts.get());
        } finally {
            spool.close();
        }
    }

    /** The loop: restarts with new clients whenever one fails (the broker died), until the input is copied. */
    private static final class Transformer implements Runnable {

        private final String bootstrap;
        final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicLong committedTransactions = new AtomicLong();
        final AtomicLong restarts = new AtomicLong();
        final AtomicLong transactions = new AtomicLong();
        final AtomicLong abortedTransactions = new AtomicLong();

        Transformer(String bootstrap) {
            this.bootstrap = bootstrap;
        }

        @Override
        public void run() {
            while (running.get()) {
                try {
                    if (copyUntilDone()) {
                        return;
                    }
                } catch (KafkaException | IllegalStateException e) {
                    restarts.incrementAndGet(); // the broker went away: new clients, from the committed offsets
                }
            }
        }

        /** True once the group's committed offsets cover the input. */
        private boolean copyUntilDone() {
            Map<String, Object> consumerConfig = new HashMap<>(Map.of("bootstrap.servers", bootstrap,
                    "group.id", GROUP, "enable.auto.commit", "false", "auto.offset.reset", "earliest",
                    "isolation.level", "read_committed", "max.poll.records", "20",
                    "default.api.timeout.ms", "15000", "session.timeout.ms", "10000"));
            Map<String, Object> producerConfig = new HashMap<>(Map.of("bootstrap.servers", bootstrap,
                    "transactional.id", "eos-kill-transformer", "max.block.ms", "15000",
                    "delivery.timeout.ms", "30000", "request.timeout.ms", "10000", "transaction.timeout.ms", "20000"));
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig, new StringDeserializer(),
                    new StringDeserializer());
                 KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig, new StringSerializer(),
                         new StringSerializer())) {
                producer.initTransactions();
                consumer.subscribe(List.of(INPUT));
                while (running.get()) {
                    ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                    if (records.isEmpty()) {
                        if (committedInput(consumer) >= RECORDS) {
                            return true;
                        }
                        continue;
                    }
                    producer.beginTransaction();
                    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                    for (ConsumerRecord<String, String> record : records) {
                        producer.send(new ProducerRecord<>(OUTPUT, record.key(), record.value().toUpperCase()));
                        offsets.put(new TopicPartition(record.topic(), record.partition()),
                                new OffsetAndMetadata(record.offset() + 1));
                    }
                    producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
                    if (transactions.incrementAndGet() % ABORT_EVERY == 0) {
                        // Its results must vanish and its input be read again: back to the committed offsets.
                        producer.abortTransaction();
                        abortedTransactions.incrementAndGet();
                        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(consumer.assignment());
                        for (TopicPartition partition : consumer.assignment()) {
                            OffsetAndMetadata offset = committed.get(partition);
                            if (offset == null) {
                                consumer.seekToBeginning(List.of(partition));
                            } else {
                                consumer.seek(partition, offset.offset());
                            }
                        }
                        continue;
                    }
                    producer.commitTransaction();
                    committedTransactions.incrementAndGet();
                }
                return false;
            }
        }

        private static long committedInput(KafkaConsumer<String, String> consumer) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                partitions.add(new TopicPartition(INPUT, p));
            }
            return consumer.committed(new HashSet<>(partitions)).values().stream()
                    .mapToLong(offset -> offset == null ? 0 : offset.offset()).sum();
        }
    }

    private static List<String> readCommitted(String bootstrap, int expected) {
        List<String> read = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", bootstrap,
                "isolation.level", "read_committed", "enable.auto.commit", "false"), new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                partitions.add(new TopicPartition(OUTPUT, p));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
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

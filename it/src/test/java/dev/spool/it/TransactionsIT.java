package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Transactions with Apache Kafka's Java client, unchanged, against {@code bin/spool server}: a transactional producer
 * commits and aborts, read_committed consumers see only committed records in order and read_uncommitted ones see
 * all, a second producer with the same transactional id fences the first, and a transaction left open past its
 * timeout is aborted by the coordinator; kafkajs's and librdkafka's transactions commit and abort, and kcat
 * (librdkafka, which reads read_committed by default) skips what was aborted.
 */
class TransactionsIT {

    private static final long TIMEOUT_SECONDS = 60;
    private static final String TRANSACTIONS = "org.apache.kafka.tools.TransactionsCommand";

    /** Open transactions are checked for their timeout every half second, not every 10 s. */
    @RegisterExtension
    static final SharedSpoolProcess SPOOL = new SharedSpoolProcess(
            "transaction.abort.timed.out.transaction.cleanup.interval.ms=500", "group.initial.rebalance.delay.ms=0");

    private static String bootstrap() {
        return SPOOL.process().bootstrap();
    }

    private static KafkaProducer<String, String> transactional(String transactionalId, Map<String, Object> more) {
        Map<String, Object> config = new HashMap<>(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000));
        config.putAll(more);
        return ProduceIT.producer(bootstrap(), config);
    }

    private static Map<String, Object> consumerConfig(IsolationLevel isolation) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation.toString());
        return config;
    }

    /**
     * Every record of {@code topic} a consumer of {@code isolation} reads from the start, until {@code expected} (or,
     * when none is expected, for a few seconds).
     */
    private static List<String> readAll(String topic, int partitions, IsolationLevel isolation, int expected) {
        Map<String, Object> config = consumerConfig(isolation);
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
            List<TopicPartition> assigned = new ArrayList<>();
            for (int i = 0; i < partitions; i++) {
                assigned.add(new TopicPartition(topic, i));
            }
            consumer.assign(assigned);
            consumer.seekToBeginning(assigned);
            long deadline = System.currentTimeMillis() + (expected == 0 ? 5_000 : TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            while ((values.size() < expected || expected == 0) && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
            // Whatever a reader could still see (it must not see more than expected).
            for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                values.add(record.value());
            }
        }
        return values;
    }

    private static long endOffset(String topic, IsolationLevel isolation) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            TopicPartition partition = new TopicPartition(topic, 0);
            return admin.listOffsets(Map.of(partition, OffsetSpec.latest()),
                            new ListOffsetsOptions(isolation))
                    .partitionResult(partition).get(TIMEOUT_SECONDS, TimeUnit.SECONDS).offset();
        }
    }

    @Test
    void committedRecordsAreReadAndAbortedOnesSkippedByReadCommittedConsumers() throws Exception {
        String topic = "txn-commit-abort";
        ProduceIT.createTopic(bootstrap(), topic, 1, Map.of());
        try (KafkaProducer<String, String> producer = transactional("commit-abort", Map.of())) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "c1"));
            producer.send(new ProducerRecord<>(topic, "c2"));
            producer.commitTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "a1"));
            producer.send(new ProducerRecord<>(topic, "a2"));
            producer.flush();
            producer.abortTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "c3"));
            producer.commitTransaction();
        }

        assertThat(readAll(topic, 1, IsolationLevel.READ_COMMITTED, 3)).containsExactly("c1", "c2", "c3");
        assertThat(readAll(topic, 1, IsolationLevel.READ_UNCOMMITTED, 5)).containsExactly("c1", "c2", "a1", "a2", "c3");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            TransactionDescription described = admin.describeTransactions(List.of("commit-abort")).description(
                    "commit-abort").get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            // Kafka 4's producer speaks transactions v2 (transaction.version 2 is finalized): each end bumps the epoch.
            assertThat(described.producerEpoch()).as("epoch 0, bumped by three ends").isEqualTo(3);
            assertThat(described.state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
        }
        // 5 records and 3 markers; nothing open, so both isolation levels end at the log end.
        assertThat(endOffset(topic, IsolationLevel.READ_COMMITTED)).isEqualTo(8);
        assertThat(endOffset(topic, IsolationLevel.READ_UNCOMMITTED)).isEqualTo(8);
        // The last batch is a marker, which no record stands for: a reader still moves past it to the end.
        assertThat(positionAfterReading(topic, IsolationLevel.READ_COMMITTED, 8)).isEqualTo(8);
    }

    /** Where a consumer of partition 0 of {@code topic} stands after reading from the start towards {@code end}. */
    private static long positionAfterReading(String topic, IsolationLevel isolation, long end) {
        Map<String, Object> config = consumerConfig(isolation);
        TopicPartition partition = new TopicPartition(topic, 0);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long deadline = System.currentTimeMillis() + TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS);
            while (consumer.position(partition) < end && System.currentTimeMillis() < deadline) {
                consumer.poll(Duration.ofMillis(200));
            }
            return consumer.position(partition);
        }
    }

    @Test
    void anOpenTransactionHoldsReadCommittedConsumersBackUntilItCommits() throws Exception {
        String topic = "txn-open";
        ProduceIT.createTopic(bootstrap(), topic, 1, Map.of());
        try (KafkaProducer<String, String> plain = ProduceIT.producer(bootstrap(), Map.of());
             KafkaProducer<String, String> producer = transactional("open",
                     Map.of(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 300_000))) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "in-transaction"));
            producer.flush();
            plain.send(new ProducerRecord<>(topic, "after")).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

            assertThat(readAll(topic, 1, IsolationLevel.READ_COMMITTED, 0)).isEmpty();
            assertThat(endOffset(topic, IsolationLevel.READ_COMMITTED)).isZero();
            assertThat(endOffset(topic, IsolationLevel.READ_UNCOMMITTED)).isEqualTo(2);

            producer.commitTransaction();
        }
        assertThat(readAll(topic, 1, IsolationLevel.READ_COMMITTED, 2)).containsExactly("in-transaction", "after");
    }

    @Test
    void aSecondProducerWithTheSameTransactionalIdFencesTheFirstAndAbortsItsTransaction() throws Exception {
        String topic = "txn-fenced";
        ProduceIT.createTopic(bootstrap(), topic, 1, Map.of());
        try (KafkaProducer<String, String> zombie = transactional("fenced", Map.of());
             KafkaProducer<String, String> successor = transactional("fenced", Map.of())) {
            zombie.initTransactions();
            zombie.beginTransaction();
            zombie.send(new ProducerRecord<>(topic, "zombie"));
            zombie.flush();

            successor.initTransactions(); // aborts the zombie's transaction and bumps the epoch
            successor.beginTransaction();
            successor.send(new ProducerRecord<>(topic, "successor"));
            successor.commitTransaction();

            Throwable thrown = catchThrowable(zombie::commitTransaction);
            assertThat(thrown).isInstanceOfAny(ProducerFencedException.class, InvalidProducerEpochException.class);
        }
        assertThat(readAll(topic, 1, IsolationLevel.READ_COMMITTED, 1)).containsExactly("successor");
        assertThat(readAll(topic, 1, IsolationLevel.READ_UNCOMMITTED, 2)).containsExactly("zombie", "successor");
    }

    /**
     * Exactly once with the Java client's own loop: a group reads an input topic, writes each record transformed to
     * an output topic and commits its offsets in the same transaction (sendOffsetsToTransaction). One transaction is
     * aborted midway and its records read again; the loop is then stopped, and a new one in the same group goes on
     * from the committed offsets. The output holds each input's result exactly once.
     */
    @Test
    void aConsumeTransformProduceLoopWritesEachResultExactlyOnce() throws Exception {
        String input = "eos-input";
        String output = "eos-output";
        ProduceIT.createTopic(bootstrap(), input, 2, Map.of());
        ProduceIT.createTopic(bootstrap(), output, 2, Map.of());
        List<String> expected = new ArrayList<>();
        try (KafkaProducer<String, String> producer = ProduceIT.producer(bootstrap(), Map.of())) {
            for (int i = 0; i < 200; i++) {
                producer.send(new ProducerRecord<>(input, "k" + i, "v" + i));
                expected.add("V" + i);
            }
            producer.flush();
        }
        assertThat(transformLoop(input, output, 80, true)).as("the first loop's transformed records").isEqualTo(80);
        assertThat(transformLoop(input, output, 200, false)).as("the second loop's, from the committed offsets")
                .isEqualTo(120);

        assertThat(readAll(output, 2, IsolationLevel.READ_COMMITTED, expected.size()))
                .containsExactlyInAnyOrderElementsOf(expected);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            long committed = admin.listConsumerGroupOffsets("eos").partitionsToOffsetAndMetadata()
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS).values().stream().mapToLong(OffsetAndMetadata::offset).sum();
            assertThat(committed).as("the group's committed offsets cover the input").isEqualTo(200);
        }
    }

    /**
     * Transforms records of {@code input} (uppercase) into {@code output} in transactions of up to 20 records, with the
     * group's offsets, until {@code upTo} input records are committed in all; with {@code abortOnce} the second
     * transaction is aborted and its records read again. Returns how many transformed records it committed.
     */
    private static int transformLoop(String input, String output, int upTo, boolean abortOnce) throws Exception {
        Map<String, Object> consumerConfig = new HashMap<>();
        consumerConfig.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, "eos");
        consumerConfig.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        consumerConfig.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumerConfig.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 20);
        int committed = 0;
        int transactions = 0;
        long committedInput = committedInputOffsets();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig);
             KafkaProducer<String, String> producer = transactional("eos-transformer", Map.of())) {
            producer.initTransactions();
            consumer.subscribe(List.of(input));
            long deadline = System.currentTimeMillis() + TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS);
            while (committedInput < upTo && System.currentTimeMillis() < deadline) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                if (records.isEmpty()) {
                    continue;
                }
                producer.beginTransaction();
                Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                int sent = 0;
                for (ConsumerRecord<String, String> record : records) {
                    if (committedInput + sent >= upTo) {
                        break;
                    }
                    producer.send(new ProducerRecord<>(output, record.key(), record.value().toUpperCase()));
                    offsets.put(new TopicPartition(record.topic(), record.partition()),
                            new OffsetAndMetadata(record.offset() + 1));
                    sent++;
                }
                producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
                if (abortOnce && ++transactions == 2) {
                    producer.abortTransaction();
                    ExactlyOnceLoop.rewindToCommitted(consumer);
                    continue;
                }
                producer.commitTransaction();
                committed += sent;
                committedInput += sent;
            }
        }
        return committed;
    }

    private static long committedInputOffsets() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            return admin.listConsumerGroupOffsets("eos").partitionsToOffsetAndMetadata()
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS).values().stream().mapToLong(OffsetAndMetadata::offset).sum();
        }
    }

    @Test
    void kafkajsCommitsAndAbortsAndKcatReadsOnlyWhatWasCommitted() throws Exception {
        String topic = "txn-kafkajs";
        ProduceIT.createTopic(bootstrap(), topic, 1, Map.of());
        ExternalCommand.Result kafkajs = ExternalCommand.run(SpoolProcess.repositoryRoot().resolve("it/js"), 90,
                "node", "transactional-producer.js", bootstrap(), topic, "kafkajs-transactional");
        assertThat(kafkajs.exitCode()).as(kafkajs.output()).isZero();
        assertThat(kafkajs.output()).contains("{\"committed\":2,\"aborted\":1}");

        ExternalCommand.Result kcat = ExternalCommand.run(SpoolProcess.repositoryRoot(), TIMEOUT_SECONDS, "kcat", "-b",
                bootstrap(), "-C", "-t", topic, "-o", "beginning", "-e", "-q");
        assertThat(kcat.exitCode()).as(kcat.output()).isZero();
        assertThat(kcat.output().lines().filter(line -> !line.isBlank())).containsExactly("kafkajs-c1", "kafkajs-c2");
        assertThat(readAll(topic, 1, IsolationLevel.READ_UNCOMMITTED, 3))
                .containsExactly("kafkajs-c1", "kafkajs-c2", "kafkajs-a1");
    }

    /**
     * {@code kafka-transactions}: an open transaction is listed and described (state, producer, partitions), and
     * {@code abort} ends it from outside (DescribeProducers finds its producer, WriteTxnMarkers aborts it), which
     * frees read_committed readers.
     */
    /**
     * librdkafka's transactional API through confluent-kafka-python (Debian's python3-confluent-kafka, on librdkafka
     * 2.0: transactions v1, so the leader checks each partition with the coordinator before the first batch).
     */
    @Test
    void librdkafkasTransactionalProducerCommitsAndAborts() throws Exception {
        String topic = "txn-librdkafka";
        ProduceIT.createTopic(bootstrap(), topic, 1, Map.of());
        ExternalCommand.Result librdkafka = ExternalCommand.run(SpoolProcess.repositoryRoot().resolve("it/python"),
                90, "/usr/bin/python3", "transactional_producer.py", bootstrap(), topic, "librdkafka-transactional");
        assertThat(librdkafka.exitCode()).as(librdkafka.output()).isZero();
        assertThat(librdkafka.output()).contains("{\"committed\": 2, \"aborted\": 1}");

        assertThat(readAll(topic, 1, IsolationLevel.READ_COMMITTED, 3)).containsExactly("rd-c1", "rd-c2", "rd-c3");
        assertThat(readAll(topic, 1, IsolationLevel.READ_UNCOMMITTED, 4))
                .containsExactly("rd-c1", "rd-c2", "rd-a1", "rd-c3");
    }

    @Test
    void kafkaTransactionsListsDescribesAndAbortsAnOpenTransaction() throws Exception {
        String topic = "txn-tools";
        ProduceIT.createTopic(bootstrap(), topic, 1, Map.of());
        try (KafkaProducer<String, String> producer = transactional("tool-open",
                Map.of(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 300_000))) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "stuck"));
            producer.flush();

            ExternalCommand.Result list = KafkaTool.run(TRANSACTIONS, "--bootstrap-server", bootstrap(), "list");
            assertThat(list.exitCode()).as(list.output()).isZero();
            assertThat(list.output()).containsPattern("tool-open\\s+1\\s+\\d+\\s+Ongoing");

            ExternalCommand.Result describe = KafkaTool.run(TRANSACTIONS, "--bootstrap-server", bootstrap(),
                    "describe", "--transactional-id", "tool-open");
            assertThat(describe.exitCode()).as(describe.output()).isZero();
            assertThat(describe.output()).contains("Ongoing").contains(topic + "-0");

            // Open, but younger than the longest timeout a transaction may have: not hanging (its coordinator knows it).
            ExternalCommand.Result findHanging = KafkaTool.run(TRANSACTIONS, "--bootstrap-server", bootstrap(),
                    "find-hanging", "--broker-id", "1", "--max-transaction-timeout", "1");
            assertThat(findHanging.exitCode()).as(findHanging.output()).isZero();
            assertThat(findHanging.output().lines().filter(line -> line.contains(topic))).as(findHanging.output())
                    .isEmpty();
            assertThat(findHanging.output()).contains("Topic");

            ExternalCommand.Result abort = KafkaTool.run(TRANSACTIONS, "--bootstrap-server", bootstrap(), "abort",
                    "--topic", topic, "--partition", "0", "--start-offset", "0");
            assertThat(abort.exitCode()).as(abort.output()).isZero();
            assertThat(endOffset(topic, IsolationLevel.READ_COMMITTED)).as("the abort marker is stable").isEqualTo(2);
        }
        assertThat(readAll(topic, 1, IsolationLevel.READ_COMMITTED, 0)).isEmpty();
    }

    @Test
    void aTransactionOpenPastItsTimeoutIsAbortedByTheCoordinator() throws Exception {
        String topic = "txn-timeout";
        ProduceIT.createTopic(bootstrap(), topic, 1, Map.of());
        try (KafkaProducer<String, String> producer = transactional("timeout",
                Map.of(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 1_000))) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "forgotten"));
            producer.flush();
            long deadline = System.currentTimeMillis() + TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS);
            while (endOffset(topic, IsolationLevel.READ_COMMITTED) < 2 && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            assertThat(endOffset(topic, IsolationLevel.READ_COMMITTED)).as("the abort marker is stable").isEqualTo(2);
            Throwable thrown = catchThrowable(producer::commitTransaction);
            assertThat(thrown).as("the producer was fenced by the abort").isNotNull();
        }
        assertThat(readAll(topic, 1, IsolationLevel.READ_COMMITTED, 0)).isEmpty();
    }
}

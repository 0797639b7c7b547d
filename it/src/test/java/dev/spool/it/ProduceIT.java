package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Header;
import dev.spool.log.record.Record;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Produce with real clients against a broker started with bin/spool: the Java producer (idempotent
 * by default, acks=all; acks=0 and 1), per-partition errors, DescribeProducers, kafkajs. What was
 * written is checked by reading the partition files back with the log module after the broker stopped.
 */
class ProduceIT {

    private static final long TIMEOUT_SECONDS = 60;

    static Admin admin(String bootstrap) {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 20_000,
                // Generous: the CI machine may be busy with other builds.
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000));
    }

    static KafkaProducer<String, String> producer(String bootstrap, Map<String, Object> overrides) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        config.putAll(overrides);
        return new KafkaProducer<>(config);
    }

    static void createTopic(String bootstrap, String topic, int partitions, Map<String, String> configs)
            throws Exception {
        try (Admin admin = admin(bootstrap)) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1).configs(configs)))
                    .all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    static List<String> values(List<Record> records) {
        List<String> values = new ArrayList<>();
        for (Record record : records) {
            values.add(new String(record.valueBytes(), StandardCharsets.UTF_8));
        }
        return values;
    }

    @Test
    void idempotentProducerWithAcksAllWritesEveryRecordOnceInOrder() throws Exception {
        try (SpoolProcess spool = SpoolProcess.start()) {
            createTopic(spool.bootstrap(), "orders", 3, Map.of());
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            try (KafkaProducer<String, String> producer = producer(spool.bootstrap(), Map.of())) {
                for (int i = 0; i < 300; i++) {
                    sent.add(producer.send(new ProducerRecord<>("orders", "key-" + (i % 10), "value-" + i)));
                }
                producer.flush();
            }
            Map<Integer, List<Long>> offsets = new HashMap<>();
            for (Future<RecordMetadata> future : sent) {
                RecordMetadata metadata = future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                offsets.computeIfAbsent(metadata.partition(), p -> new ArrayList<>()).add(metadata.offset());
            }
            int total = 0;
            for (List<Long> partitionOffsets : offsets.values()) {
                for (int i = 0; i < partitionOffsets.size(); i++) {
                    assertThat(partitionOffsets.get(i)).isEqualTo(i);
                }
                total += partitionOffsets.size();
            }
            assertThat(total).isEqualTo(300);
            spool.stop();
            int stored = 0;
            for (int partition = 0; partition < 3; partition++) {
                List<Record> records = PartitionFiles.records(spool.dataDir(), "orders", partition);
                assertThat(records).hasSize(offsets.getOrDefault(partition, List.of()).size());
                stored += records.size();
            }
            assertThat(stored).isEqualTo(300);
        }
    }

    @Test
    void acksZeroAndAcksOneAreWritten() throws Exception {
        try (SpoolProcess spool = SpoolProcess.start()) {
            createTopic(spool.bootstrap(), "fire-and-forget", 1, Map.of());
            try (KafkaProducer<String, String> producer = producer(spool.bootstrap(),
                    Map.of(ProducerConfig.ACKS_CONFIG, "0", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false))) {
                for (int i = 0; i < 10; i++) {
                    RecordMetadata metadata = producer.send(new ProducerRecord<>("fire-and-forget", "zero-" + i))
                            .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                    assertThat(metadata.offset()).isEqualTo(-1);
                }
            }
            try (KafkaProducer<String, String> producer = producer(spool.bootstrap(),
                    Map.of(ProducerConfig.ACKS_CONFIG, "1", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false))) {
                for (int i = 0; i < 10; i++) {
                    producer.send(new ProducerRecord<>("fire-and-forget", "one-" + i)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                }
            }
            spool.stop();
            List<String> values = values(PartitionFiles.records(spool.dataDir(), "fire-and-forget", 0));
            assertThat(values).hasSize(20).contains("zero-0", "zero-9", "one-0", "one-9");
            assertThat(values.subList(10, 20)).containsExactly("one-0", "one-1", "one-2", "one-3", "one-4", "one-5",
                    "one-6", "one-7", "one-8", "one-9");
        }
    }

    @Test
    void aTooLargeBatchFailsItsPartitionOnlyAndABadTimestampIsRefused() throws Exception {
        try (SpoolProcess spool = SpoolProcess.start()) {
            createTopic(spool.bootstrap(), "small", 1, Map.of("max.message.bytes", "1000"));
            createTopic(spool.bootstrap(), "roomy", 1, Map.of());
            try (KafkaProducer<String, String> producer = producer(spool.bootstrap(),
                    Map.of(ProducerConfig.LINGER_MS_CONFIG, 200))) {
                String big = "x".repeat(4000);
                // Sent within one linger window, so both partitions travel in the same Produce request.
                Future<RecordMetadata> tooLarge = producer.send(new ProducerRecord<>("small", big));
                Future<RecordMetadata> fine = producer.send(new ProducerRecord<>("roomy", big));
                assertThat(fine.get(TIMEOUT_SECONDS, TimeUnit.SECONDS).offset()).isZero();
                assertThatThrownBy(() -> tooLarge.get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(RecordTooLargeException.class);
                assertThat(producer.send(new ProducerRecord<>("small", "short")).get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                        .offset()).isZero();
                long twoHoursAhead = System.currentTimeMillis() + TimeUnit.HOURS.toMillis(2);
                Future<RecordMetadata> future = producer.send(
                        new ProducerRecord<>("roomy", null, twoHoursAhead, null, "from the future"));
                assertThatThrownBy(() -> future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(InvalidTimestampException.class);
            }
        }
    }

    @Test
    void aTopicsCompressionTypeIsTheCodecOnDiskWhateverTheProducerSends() throws Exception {
        try (SpoolProcess spool = SpoolProcess.start()) {
            createTopic(spool.bootstrap(), "zipped", 1, Map.of("compression.type", "gzip"));
            createTopic(spool.bootstrap(), "squeezed", 1, Map.of("compression.type", "lz4",
                    "compression.lz4.level", "17"));
            produceTwentyAndReadThemBack(spool.bootstrap(), "zipped", "lz4");
            produceTwentyAndReadThemBack(spool.bootstrap(), "squeezed", "zstd");
            assertThatThrownBy(() -> createTopic(spool.bootstrap(), "refused", 1, Map.of("compression.type", "none")))
                    .hasCauseInstanceOf(InvalidConfigurationException.class)
                    .hasMessageContaining("String must be one of: uncompressed, zstd, lz4, snappy, gzip, producer");
            spool.stop();
            assertThat(PartitionFiles.compressionTypes(spool.dataDir(), "zipped", 0)).isNotEmpty()
                    .containsOnly(CompressionType.GZIP);
            assertThat(PartitionFiles.compressionTypes(spool.dataDir(), "squeezed", 0)).isNotEmpty()
                    .containsOnly(CompressionType.LZ4);
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                expected.add("value-" + i);
            }
            assertThat(values(PartitionFiles.records(spool.dataDir(), "zipped", 0))).isEqualTo(expected);
            assertThat(values(PartitionFiles.records(spool.dataDir(), "squeezed", 0))).isEqualTo(expected);
        }
    }

    /** Twenty records sent compressed with {@code producerCodec}, read back by the Java consumer. */
    private static void produceTwentyAndReadThemBack(String bootstrap, String topic, String producerCodec)
            throws Exception {
        try (KafkaProducer<String, String> producer = producer(bootstrap,
                Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, producerCodec))) {
            for (int i = 0; i < 20; i++) {
                producer.send(new ProducerRecord<>(topic, "key-" + i, "value-" + i));
            }
            producer.flush();
        }
        try (KafkaConsumer<byte[], byte[]> consumer = ConsumeIT.consumer(bootstrap, Map.of())) {
            consumer.assign(List.of(new TopicPartition(topic, 0)));
            consumer.seekToBeginning(List.of(new TopicPartition(topic, 0)));
            List<ConsumerRecord<byte[], byte[]>> read = ConsumeIT.poll(consumer, 20);
            assertThat(read).extracting(ConsumerRecord::offset).containsExactlyElementsOf(
                    LongStream.range(0, 20).boxed().toList());
            assertThat(new String(read.get(19).value(), StandardCharsets.UTF_8)).isEqualTo("value-19");
        }
    }

    @Test
    void describeProducersListsTheIdempotentProducer() throws Exception {
        try (SpoolProcess spool = SpoolProcess.start()) {
            createTopic(spool.bootstrap(), "described", 1, Map.of());
            try (KafkaProducer<String, String> producer = producer(spool.bootstrap(), Map.of())) {
                for (int i = 0; i < 3; i++) {
                    producer.send(new ProducerRecord<>("described", "v" + i)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                }
                try (Admin admin = admin(spool.bootstrap())) {
                    TopicPartition partition = new TopicPartition("described", 0);
                    List<ProducerState> producers = admin.describeProducers(List.of(partition)).partitionResult(partition)
                            .get(TIMEOUT_SECONDS, TimeUnit.SECONDS).activeProducers();
                    assertThat(producers).singleElement().satisfies(state -> {
                        assertThat(state.producerId()).isNotNegative();
                        assertThat(state.producerEpoch()).isZero();
                        assertThat(state.lastSequence()).isEqualTo(2);
                        assertThat(state.currentTransactionStartOffset()).isEmpty();
                    });
                }
            }
        }
    }

    @Test
    void kcatProducesKeysAndHeadersWithAndWithoutIdempotence() throws Exception {
        try (SpoolProcess spool = SpoolProcess.start()) {
            createTopic(spool.bootstrap(), "kcat-topic", 1, Map.of());
            java.nio.file.Path input = java.nio.file.Files.createTempFile(spool.dataDir(), "kcat", ".txt");
            // Values long and repetitive enough that gzip pays: librdkafka sends a batch uncompressed otherwise.
            String padding = "-" + "x".repeat(300);
            java.nio.file.Files.writeString(input, "k1:v1" + padding + "\nk2:v2" + padding + "\n");
            ExternalCommand.Result plain = ExternalCommand.run(SpoolProcess.repositoryRoot(), 60, "kcat", "-P", "-l",
                    "-b", spool.bootstrap(), "-t", "kcat-topic", "-K:", "-H", "h=x", "-H", "h=y", "-z", "gzip",
                    input.toString());
            assertThat(plain.exitCode()).as(plain.output()).isZero();
            java.nio.file.Files.writeString(input, "k3:v3\n");
            ExternalCommand.Result idempotent = ExternalCommand.run(SpoolProcess.repositoryRoot(), 60, "kcat", "-P", "-l",
                    "-b", spool.bootstrap(), "-t", "kcat-topic", "-K:", "-X", "enable.idempotence=true",
                    input.toString());
            assertThat(idempotent.exitCode()).as(idempotent.output()).isZero();
            spool.stop();
            List<Record> records = PartitionFiles.records(spool.dataDir(), "kcat-topic", 0);
            assertThat(values(records)).containsExactly("v1-" + "x".repeat(300), "v2-" + "x".repeat(300), "v3");
            // librdkafka compresses only because Produce v0 is advertised (KAFKA-18659).
            assertThat(PartitionFiles.compressionTypes(spool.dataDir(), "kcat-topic", 0)).first()
                    .isEqualTo(dev.spool.log.record.CompressionType.GZIP);
            assertThat(new String(records.get(1).keyBytes(), StandardCharsets.UTF_8)).isEqualTo("k2");
            assertThat(records.get(1).headers()).extracting(header -> header.key() + "="
                    + StandardCharsets.UTF_8.decode(header.value())).containsExactly("h=x", "h=y");
        }
    }

    /** A non-flexible request frame: header v1 (api key, version, correlation id, client id), then the body. */
    private static byte[] frame(short version, byte[] body) {
        byte[] clientId = "raw-produce".getBytes(StandardCharsets.UTF_8);
        java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(4 + 2 + 2 + 4 + 2 + clientId.length + body.length);
        buffer.putInt(buffer.capacity() - 4).putShort((short) 0).putShort(version).putInt(1)
                .putShort((short) clientId.length).put(clientId).put(body);
        return buffer.array();
    }

    private static void assertClosedByBroker(java.net.Socket socket) throws java.io.IOException {
        socket.setSoTimeout(10_000);
        try {
            assertThat(socket.getInputStream().read()).as("the broker closes the connection").isEqualTo(-1);
        } catch (java.net.SocketException e) {
            assertThat(e.getMessage()).as("reset by the broker").containsIgnoringCase("reset");
        }
    }

    @Test
    void produceVersionsBelowThreeAreAdvertisedButCloseTheConnection() throws Exception {
        try (SpoolProcess spool = SpoolProcess.start(); Admin admin = admin(spool.bootstrap())) {
            // acks 1, timeout 1000, no topics: a well-formed Produce v2.
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", spool.port())) {
                socket.getOutputStream().write(frame((short) 2, new byte[] {0, 1, 0, 0, 3, -24, 0, 0, 0, 0}));
                assertClosedByBroker(socket);
            }
            // Produce v3, acks 0, to a topic that does not exist: no response, so Kafka closes the connection.
            java.nio.ByteBuffer body = java.nio.ByteBuffer.allocate(2 + 2 + 4 + 4 + 2 + 7 + 4 + 4 + 4);
            body.putShort((short) -1).putShort((short) 0).putInt(1000).putInt(1).putShort((short) 7)
                    .put("missing".getBytes(StandardCharsets.UTF_8)).putInt(1).putInt(0).putInt(-1);
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", spool.port())) {
                socket.getOutputStream().write(frame((short) 3, body.array()));
                assertClosedByBroker(socket);
            }
            assertThat(spool.awaitOutput(line -> line.contains("acks=0 failed"), 10_000)).isTrue();
            assertThat(admin.describeCluster().nodes().get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).hasSize(1);
        }
    }

    @Test
    void kafkaReadsTheProducerSnapshotOfACleanShutdownAndSpoolReadsKafkas() throws Exception {
        try (SpoolProcess spool = SpoolProcess.start()) {
            // Five one-record batches (~70 bytes each) fill the first segment; a second producer's batches roll
            // the next at offset 5. The shutdown snapshot lies at the oldest batch cached within the active
            // segment (offset 5, the roll snapshot), holding the first producer's last batch.
            createTopic(spool.bootstrap(), "snapshotted", 1, Map.of("segment.bytes", "400"));
            for (int producerIndex = 0; producerIndex < 2; producerIndex++) {
                try (KafkaProducer<String, String> producer = producer(spool.bootstrap(), Map.of())) {
                    for (int i = 0; i < 5 - 3 * producerIndex; i++) {
                        producer.send(new ProducerRecord<>("snapshotted", "v" + i)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                    }
                }
            }
            spool.stop();
            assertThat(dev.spool.log.producer.ProducerSnapshotFile.list(spool.dataDir().resolve("snapshotted-0")))
                    .containsOnlyKeys(5L);
            java.nio.file.Path dir = spool.dataDir().resolve("snapshotted-0");
            java.io.File snapshot = dir.resolve("00000000000000000005.snapshot").toFile();
            List<org.apache.kafka.storage.internals.log.ProducerStateEntry> entries =
                    org.apache.kafka.storage.internals.log.ProducerStateManager.readSnapshot(snapshot);
            assertThat(entries).singleElement().satisfies(entry -> {
                assertThat(entry.producerEpoch()).isZero();
                assertThat(entry.lastDataOffset()).isEqualTo(4);
                assertThat(entry.currentTxnFirstOffset()).isEmpty();
                assertThat(entry.batchMetadata()).singleElement().satisfies(batch -> {
                    assertThat(batch.lastSeq()).isEqualTo(4);
                    assertThat(batch.lastOffset()).isEqualTo(4);
                });
            });

            java.io.File kafkaWritten = dir.resolve("00000000000000000099.snapshot").toFile();
            org.apache.kafka.storage.internals.log.ProducerStateManager.writeSnapshot(kafkaWritten, Map.of(77L,
                    new org.apache.kafka.storage.internals.log.ProducerStateEntry(77L, (short) 3, 5, 1234L,
                            java.util.OptionalLong.empty())), false);
            assertThat(dev.spool.log.producer.ProducerSnapshotFile.read(kafkaWritten.toPath())).singleElement()
                    .satisfies(entry -> {
                        assertThat(entry.producerId()).isEqualTo(77L);
                        assertThat(entry.epoch()).isEqualTo((short) 3);
                        assertThat(entry.coordinatorEpoch()).isEqualTo(5);
                        assertThat(entry.timestampMs()).isEqualTo(1234L);
                        assertThat(entry.currentTxnFirstOffset()).isEqualTo(-1L);
                    });
        }
    }

    @Test
    void kafkajsProducesKeysAndHeaders() throws Exception {
        try (SpoolProcess spool = SpoolProcess.start()) {
            createTopic(spool.bootstrap(), "js-topic", 1, Map.of());
            ExternalCommand.Result result = ExternalCommand.run(SpoolProcess.repositoryRoot().resolve("it/js"), 60,
                    "node", "produce.js", spool.bootstrap(), "js-topic");
            assertThat(result.exitCode()).as(result.output()).isZero();
            assertThat(result.output()).contains("\"baseOffset\":\"0\"").contains("\"baseOffset\":\"5\"")
                    .contains("\"baseOffset\":\"6\"");
            spool.stop();
            List<Record> records = PartitionFiles.records(spool.dataDir(), "js-topic", 0);
            assertThat(records).hasSize(8);
            Record third = records.get(2);
            assertThat(new String(third.keyBytes(), StandardCharsets.UTF_8)).isEqualTo("key-2");
            assertThat(new String(third.valueBytes(), StandardCharsets.UTF_8)).isEqualTo("value-2");
            assertThat(third.headers()).extracting(Header::key).containsExactly("h", "h", "single");
            assertThat(third.headers()).extracting(header -> StandardCharsets.UTF_8.decode(header.value()).toString())
                    .containsExactly("a2", "b2", "x");
            assertThat(values(records).subList(5, 8)).containsExactly("value-gz", "value-i0", "value-i1");
        }
    }
}

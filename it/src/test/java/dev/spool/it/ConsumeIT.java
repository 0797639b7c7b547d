package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.LogTruncationException;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fetch, ListOffsets and OffsetForLeaderEpoch with the real Java consumer (assign and seek, no group)
 * against a broker started with bin/spool; records written by the idempotent Java producer.
 */
class ConsumeIT {

    private static final long TIMEOUT_SECONDS = 30;

    @RegisterExtension
    static final SharedSpoolProcess SPOOL = new SharedSpoolProcess();

    static KafkaProducer<byte[], byte[]> producer() {
        return new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SPOOL.process().bootstrap(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                ProducerConfig.LINGER_MS_CONFIG, 5));
    }

    static KafkaConsumer<byte[], byte[]> consumer(Map<String, Object> overrides) {
        return consumer(SPOOL.process().bootstrap(), overrides);
    }

    static KafkaConsumer<byte[], byte[]> consumer(String bootstrap, Map<String, Object> overrides) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.putAll(overrides);
        return new KafkaConsumer<>(config);
    }

    /** Writes {@code count} records "value-i" with key "key-i" and timestamp {@code firstTimestampMs + i}. */
    static void produce(String topic, int partition, int count, long firstTimestampMs) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, partition, firstTimestampMs + i, bytes("key-" + i),
                        bytes("value-" + i)));
            }
            producer.flush();
        }
    }

    /** Polls until {@code count} records came (or the time is up). */
    static List<ConsumerRecord<byte[], byte[]>> poll(KafkaConsumer<byte[], byte[]> consumer, int count) {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (records.size() < count && System.nanoTime() < deadline) {
            consumer.poll(Duration.ofMillis(200)).forEach(records::add);
        }
        return records;
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static List<String> values(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().map(record -> new String(record.value(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void keysValuesTimestampsAndHeadersComeBackByteExact() throws Exception {
        ProduceIT.createTopic(SPOOL.process().bootstrap(), "exact", 1, Map.of());
        byte[] binary = new byte[256];
        for (int i = 0; i < binary.length; i++) {
            binary[i] = (byte) i;
        }
        List<ProducerRecord<byte[], byte[]>> sent = List.of(
                new ProducerRecord<>("exact", 0, 1_600_000_000_000L, bytes("k1"), bytes("v1"),
                        List.<Header>of(new RecordHeader("h", bytes("a")), new RecordHeader("h", bytes("b")),
                                new RecordHeader("nullable", (byte[]) null))),
                new ProducerRecord<>("exact", 0, 1_600_000_000_001L, (byte[]) null, binary),
                new ProducerRecord<>("exact", 0, 1_600_000_000_002L, binary, (byte[]) null),
                new ProducerRecord<>("exact", 0, 1_600_000_000_003L, new byte[0], new byte[0],
                        List.<Header>of(new RecordHeader("", new byte[0]), new RecordHeader("ü", binary))));
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            for (ProducerRecord<byte[], byte[]> record : sent) {
                producer.send(record);
            }
            producer.flush();
        }
        TopicPartition tp = new TopicPartition("exact", 0);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(Map.of())) {
            consumer.assign(List.of(tp));
            consumer.seek(tp, 0);
            List<ConsumerRecord<byte[], byte[]>> received = poll(consumer, sent.size());

            assertThat(received).hasSize(sent.size());
            for (int i = 0; i < sent.size(); i++) {
                ProducerRecord<byte[], byte[]> expected = sent.get(i);
                ConsumerRecord<byte[], byte[]> actual = received.get(i);
                assertThat(actual.offset()).isEqualTo(i);
                assertThat(actual.key()).isEqualTo(expected.key());
                assertThat(actual.value()).isEqualTo(expected.value());
                assertThat(actual.timestamp()).isEqualTo(expected.timestamp());
                Header[] expectedHeaders = expected.headers().toArray();
                Header[] actualHeaders = actual.headers().toArray();
                assertThat(actualHeaders).hasSameSizeAs(expectedHeaders);
                for (int h = 0; h < expectedHeaders.length; h++) {
                    assertThat(actualHeaders[h].key()).isEqualTo(expectedHeaders[h].key());
                    assertThat(actualHeaders[h].value()).isEqualTo(expectedHeaders[h].value());
                }
            }
        }
    }

    @Test
    void keyedRecordsLandInTheirHashPartitionInOrderAndUnkeyedOnesSpread() throws Exception {
        int partitions = 3;
        ProduceIT.createTopic(SPOOL.process().bootstrap(), "keyed", partitions, Map.of());
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            for (int i = 0; i < 300; i++) {
                producer.send(new ProducerRecord<>("keyed", bytes("key-" + (i % 10)), bytes("keyed-" + i)));
            }
            producer.flush();
        }
        // Without a key the producer sticks to a partition for batch.size bytes (KIP-794), then moves on.
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SPOOL.process().bootstrap(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                ProducerConfig.BATCH_SIZE_CONFIG, 1024))) {
            for (int i = 0; i < 300; i++) {
                producer.send(new ProducerRecord<>("keyed", null, bytes("unkeyed-" + i + "-" + "x".repeat(100))));
            }
            producer.flush();
        }
        Map<String, Integer> partitionOfKey = new HashMap<>();
        Map<String, List<Integer>> sequenceOfKey = new HashMap<>();
        Map<Integer, Integer> unkeyedPerPartition = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(Map.of())) {
            for (int partition = 0; partition < partitions; partition++) {
                TopicPartition tp = new TopicPartition("keyed", partition);
                consumer.assign(List.of(tp));
                consumer.seek(tp, 0);
                long end = consumer.endOffsets(List.of(tp)).get(tp);
                for (ConsumerRecord<byte[], byte[]> record : poll(consumer, (int) end)) {
                    String value = new String(record.value(), StandardCharsets.UTF_8);
                    if (record.key() == null) {
                        unkeyedPerPartition.merge(partition, 1, Integer::sum);
                        continue;
                    }
                    String key = new String(record.key(), StandardCharsets.UTF_8);
                    assertThat(partitionOfKey.putIfAbsent(key, partition)).as(key).isIn(null, partition);
                    sequenceOfKey.computeIfAbsent(key, k -> new ArrayList<>())
                            .add(Integer.parseInt(value.substring("keyed-".length())));
                }
            }
        }
        assertThat(partitionOfKey).hasSize(10);
        partitionOfKey.forEach((key, partition) -> assertThat(partition).as(key)
                .isEqualTo(Utils.toPositive(Utils.murmur2(bytes(key))) % partitions));
        sequenceOfKey.forEach((key, sequence) -> assertThat(sequence).as(key).hasSize(30).isSorted());
        assertThat(unkeyedPerPartition.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(300);
        assertThat(unkeyedPerPartition).as("records without a key spread over partitions").hasSizeGreaterThan(1);
    }

    @Test
    void threeReadersAtThreePositionsAndARewind() throws Exception {
        ProduceIT.createTopic(SPOOL.process().bootstrap(), "readers", 1, Map.of());
        produce("readers", 0, 300, 1_000);
        TopicPartition tp = new TopicPartition("readers", 0);
        try (KafkaConsumer<byte[], byte[]> a = consumer(Map.of(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 7));
             KafkaConsumer<byte[], byte[]> b = consumer(Map.of());
             KafkaConsumer<byte[], byte[]> c = consumer(Map.of())) {
            a.assign(List.of(tp));
            b.assign(List.of(tp));
            c.assign(List.of(tp));
            a.seek(tp, 0);
            b.seek(tp, 100);
            c.seek(tp, 299);

            List<ConsumerRecord<byte[], byte[]>> fromC = poll(c, 1);
            List<ConsumerRecord<byte[], byte[]>> fromB = poll(b, 200);
            List<ConsumerRecord<byte[], byte[]>> fromA = poll(a, 300);

            assertThat(fromC).extracting(ConsumerRecord::offset).containsExactly(299L);
            assertThat(fromB).extracting(ConsumerRecord::offset).first().isEqualTo(100L);
            assertThat(fromB).hasSize(200);
            assertThat(values(fromA)).hasSize(300).startsWith("value-0", "value-1").endsWith("value-299");

            a.seek(tp, 0);
            List<ConsumerRecord<byte[], byte[]>> again = poll(a, 300);
            assertThat(values(again)).isEqualTo(values(fromA));
        }
        try (KafkaConsumer<byte[], byte[]> check = consumer(Map.of())) {
            assertThat(check.endOffsets(List.of(tp)).get(tp)).as("reading never changes the log").isEqualTo(300);
            assertThat(check.beginningOffsets(List.of(tp)).get(tp)).isZero();
        }
    }

    @Test
    void offsetsForTimesFindsTheFirstRecordAtOrAfterATime() throws Exception {
        ProduceIT.createTopic(SPOOL.process().bootstrap(), "times", 1, Map.of());
        produce("times", 0, 10, 10_000);
        produce("times", 0, 10, 20_000);
        TopicPartition tp = new TopicPartition("times", 0);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(Map.of())) {
            Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(Map.of(tp, 10_005L));
            assertThat(found.get(tp).offset()).isEqualTo(5);
            assertThat(found.get(tp).timestamp()).isEqualTo(10_005L);
            assertThat(found.get(tp).leaderEpoch()).isPresent();

            assertThat(consumer.offsetsForTimes(Map.of(tp, 10_010L)).get(tp).offset()).isEqualTo(10);
            assertThat(consumer.offsetsForTimes(Map.of(tp, 30_000L)).get(tp)).as("after every record").isNull();
            assertThat(consumer.beginningOffsets(List.of(tp)).get(tp)).isZero();
            assertThat(consumer.endOffsets(List.of(tp)).get(tp)).isEqualTo(20);
        }
    }

    @Test
    void aLongPollReturnsAsSoonAsARecordIsProduced() throws Exception {
        ProduceIT.createTopic(SPOOL.process().bootstrap(), "long-poll", 1, Map.of());
        TopicPartition tp = new TopicPartition("long-poll", 0);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(Map.of(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG,
                20_000));
             KafkaProducer<byte[], byte[]> producer = producer()) {
            consumer.assign(List.of(tp));
            consumer.seek(tp, 0);
            assertThat(consumer.poll(Duration.ofMillis(1500))).as("nothing yet").isEmpty();

            long sentNanos = System.nanoTime();
            producer.send(new ProducerRecord<>("long-poll", 0, bytes("k"), bytes("now"))).get();
            List<ConsumerRecord<byte[], byte[]>> received = poll(consumer, 1);
            long latencyMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sentNanos);

            assertThat(values(received)).containsExactly("now");
            assertThat(latencyMs).as("answered by the append, not by fetch.max.wait.ms").isLessThan(5_000);
            consumer.close(Duration.ZERO); // not behind the next long poll, already in flight
        }
    }

    @Test
    void aFetchWithNothingToReadWaitsForMaxWait() throws Exception {
        ProduceIT.createTopic(SPOOL.process().bootstrap(), "idle", 1, Map.of());
        TopicPartition tp = new TopicPartition("idle", 0);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(Map.of(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG,
                800))) {
            consumer.assign(List.of(tp));
            consumer.seek(tp, 0);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (System.nanoTime() < deadline) {
                assertThat(consumer.poll(Duration.ofMillis(500))).isEmpty();
            }
            double fetches = metric(consumer, "fetch-total");
            double averageLatencyMs = metric(consumer, "fetch-latency-avg");

            assertThat(fetches).as("one fetch per max wait, not a busy loop").isBetween(3.0, 8.0);
            assertThat(averageLatencyMs).isGreaterThanOrEqualTo(780.0);
        }
    }

    @Test
    void anOffsetOutOfRangeIsResetByAutoOffsetReset() throws Exception {
        ProduceIT.createTopic(SPOOL.process().bootstrap(), "range", 1, Map.of());
        produce("range", 0, 20, 1_000);
        TopicPartition tp = new TopicPartition("range", 0);
        try (Admin admin = ProduceIT.admin(SPOOL.process().bootstrap())) {
            admin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(10))).all()
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        try (KafkaConsumer<byte[], byte[]> earliest = consumer(Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest"));
             KafkaConsumer<byte[], byte[]> latest = consumer(Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                     "latest"));
             KafkaConsumer<byte[], byte[]> none = consumer(Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                     "none"))) {
            earliest.assign(List.of(tp));
            earliest.seek(tp, 3);
            assertThat(poll(earliest, 10)).extracting(ConsumerRecord::offset).first().isEqualTo(10L);

            latest.assign(List.of(tp));
            latest.seek(tp, 500);
            assertThat(latest.poll(Duration.ofSeconds(2))).isEmpty();
            assertThat(latest.position(tp)).isEqualTo(20);

            none.assign(List.of(tp));
            none.seek(tp, 5);
            assertThatThrownBy(() -> {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
                while (System.nanoTime() < deadline) {
                    none.poll(Duration.ofMillis(200));
                }
            }).isInstanceOf(OffsetOutOfRangeException.class);
        }
    }

    @Test
    void aPositionWithALeaderEpochIsValidatedWithOffsetForLeaderEpoch() throws Exception {
        ProduceIT.createTopic(SPOOL.process().bootstrap(), "epochs", 1, Map.of());
        produce("epochs", 0, 10, 1_000);
        TopicPartition tp = new TopicPartition("epochs", 0);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "none"))) {
            consumer.assign(List.of(tp));
            List<ConsumerRecord<byte[], byte[]>> first = poll(consumerAt(consumer, tp, 0, Optional.empty()), 10);
            Optional<Integer> epoch = first.get(9).leaderEpoch();
            assertThat(epoch).as("records carry the leader epoch").isPresent();

            consumerAt(consumer, tp, 5, epoch);
            assertThat(poll(consumer, 5)).extracting(ConsumerRecord::offset).containsExactly(5L, 6L, 7L, 8L, 9L);

            consumerAt(consumer, tp, 15, epoch);
            assertThatThrownBy(() -> {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
                while (System.nanoTime() < deadline) {
                    consumer.poll(Duration.ofMillis(200));
                }
            }).as("epoch %s ends at 10, before the position", epoch).isInstanceOf(LogTruncationException.class);
        }
    }

    private static KafkaConsumer<byte[], byte[]> consumerAt(KafkaConsumer<byte[], byte[]> consumer, TopicPartition tp,
                                                           long offset, Optional<Integer> leaderEpoch) {
        consumer.seek(tp, new OffsetAndMetadata(offset, leaderEpoch, ""));
        return consumer;
    }

    private static double metric(KafkaConsumer<?, ?> consumer, String name) {
        for (Map.Entry<MetricName, ? extends Metric> entry : consumer.metrics().entrySet()) {
            if (entry.getKey().name().equals(name) && entry.getKey().group().equals("consumer-fetch-manager-metrics")
                    && !entry.getKey().tags().containsKey("topic")) {
                return ((Number) entry.getValue().metricValue()).doubleValue();
            }
        }
        throw new AssertionError("no metric " + name);
    }
}

package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.DeleteTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.ThrottlingQuotaExceededException;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.quota.ClientQuotaFilterComponent;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Client quotas (issue 22): set with {@code kafka-configs} and the Admin client, described back, kept over a
 * restart; a producer and a consumer above their byte rates are held to them within 10 % while a client without a
 * quota on the same broker is not; a client over its request_percentage is told to wait and its connection is not
 * read for that long (KIP-219); connections from an address over its creation rate are closed; topic creations
 * and deletions over controller_mutation_rate are refused with THROTTLING_QUOTA_EXCEEDED until the quota is
 * repaid (KIP-599).
 */
class QuotasIT {

    private static final String CONFIGS = "org.apache.kafka.tools.ConfigCommand";
    private static final int RECORD_BYTES = 1000;
    /**
     * A client starts with the credit of a whole quota window (10 s of its quota by default), which it spends in a
     * burst; its rate is measured from when that is surely spent, for {@link #MEASURED}.
     */
    private static final Duration BURST = Duration.ofSeconds(2);
    private static final Duration MEASURED = Duration.ofSeconds(10);

    @TempDir
    static Path dir;
    private static SpoolProcess broker;

    @BeforeAll
    static void start() throws Exception {
        broker = startBroker();
    }

    private static SpoolProcess startBroker() throws Exception {
        return SpoolProcess.startIn(dir.resolve("data"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    private static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap()));
    }

    private static void setQuota(ClientQuotaEntity entity, String key, Double value) throws Exception {
        try (Admin admin = admin()) {
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(entity,
                    List.of(new ClientQuotaAlteration.Op(key, value))))).all().get(30, TimeUnit.SECONDS);
        }
    }

    private static ClientQuotaEntity client(String clientId) {
        return new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, clientId));
    }

    private static ExternalCommand.Result configs(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("--bootstrap-server", broker.bootstrap()));
        command.addAll(List.of(args));
        return KafkaTool.run(CONFIGS, command.toArray(String[]::new));
    }

    @Test
    void kafkaConfigsSetsAndDescribesQuotasWhichOutliveARestart() throws Exception {
        assertThat(configs("--alter", "--entity-type", "users", "--entity-name", "alice", "--add-config",
                "producer_byte_rate=1024,consumer_byte_rate=2048").exitCode()).isZero();
        setQuota(new ClientQuotaEntity(Map.of(ClientQuotaEntity.USER, "alice", ClientQuotaEntity.CLIENT_ID, "app")),
                "request_percentage", 12.5);
        setQuota(new ClientQuotaEntity(Collections.singletonMap(ClientQuotaEntity.CLIENT_ID, null)),
                "controller_mutation_rate", 10.0);
        setQuota(new ClientQuotaEntity(Map.of(ClientQuotaEntity.IP, "10.1.2.3")), "connection_creation_rate", 5.0);
        ExternalCommand.Result refused = configs("--alter", "--entity-type", "users", "--entity-name", "bob",
                "--add-config", "producer_byte_rate=1.5");
        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.output()).contains("InvalidRequestException").contains("whole number");

        broker.stop();
        broker = startBroker();

        assertThat(configs("--describe", "--entity-type", "users", "--entity-name", "alice").output())
                .contains("Quota configs for user-principal 'alice' are consumer_byte_rate=2048.0, "
                        + "producer_byte_rate=1024.0");
        assertThat(configs("--describe", "--entity-type", "users", "--entity-name", "alice", "--entity-type",
                "clients", "--entity-name", "app").output())
                .contains("Quota configs for user-principal 'alice', client-id 'app' are request_percentage=12.5");
        assertThat(configs("--describe", "--entity-type", "clients", "--entity-default").output())
                .contains("Quota configs for the default client-id are controller_mutation_rate=10.0");
        assertThat(configs("--describe", "--entity-type", "ips", "--entity-name", "10.1.2.3").output())
                .contains("Quota configs for ip '10.1.2.3' are connection_creation_rate=5.0");
        try (Admin admin = admin()) {
            Map<ClientQuotaEntity, Map<String, Double>> users = admin.describeClientQuotas(ClientQuotaFilter
                    .containsOnly(List.of(ClientQuotaFilterComponent.ofEntityType(ClientQuotaEntity.USER))))
                    .entities().get(30, TimeUnit.SECONDS);
            assertThat(users).containsEntry(new ClientQuotaEntity(Map.of(ClientQuotaEntity.USER, "alice")),
                    Map.of("producer_byte_rate", 1024.0, "consumer_byte_rate", 2048.0));
            Throwable badFilter = catchThrowable(() -> admin.describeClientQuotas(ClientQuotaFilter.contains(List.of(
                    ClientQuotaFilterComponent.ofEntityType(ClientQuotaEntity.IP),
                    ClientQuotaFilterComponent.ofEntityType(ClientQuotaEntity.USER)))).entities()
                    .get(30, TimeUnit.SECONDS));
            assertThat(badFilter).hasCauseInstanceOf(InvalidRequestException.class);
        }
        assertThat(configs("--alter", "--entity-type", "users", "--entity-name", "alice", "--delete-config",
                "producer_byte_rate").exitCode()).isZero();
        assertThat(configs("--describe", "--entity-type", "users", "--entity-name", "alice").output())
                .contains("are consumer_byte_rate=2048.0").doesNotContain("producer_byte_rate");
    }

    @Test
    void aClientOverItsRequestPercentageIsMutedForItsThrottleTime() throws Exception {
        setQuota(client(RawConnection.CLIENT_ID), "request_percentage", 0.005);
        try (RawConnection connection = new RawConnection(broker.port())) {
            connection.readTimeout(Duration.ofSeconds(30)); // a throttle may be the whole window, 11 s
            int throttleMs = 0;
            // Long enough a throttle that reading again too early would show.
            for (int i = 0; i < 100_000 && throttleMs < 100; i++) {
                throttleMs = metadata(connection).throttleTimeMs();
            }
            assertThat(throttleMs).as("throttle time once over request_percentage").isGreaterThanOrEqualTo(100);
            long throttledAt = connection.lastAnswerNanos();
            AbstractResponse next = metadata(connection);
            long waitedMs = (connection.lastAnswerNanos() - throttledAt) / 1_000_000;
            System.out.printf("request_percentage 0.005: throttled %d ms, next answer after %d ms%n", throttleMs,
                    waitedMs);
            assertThat(waitedMs).as("the connection is not read while throttled")
                    .isGreaterThanOrEqualTo(throttleMs * 9L / 10);
            assertThat(next.throttleTimeMs()).isPositive();
        }
        setQuota(client(RawConnection.CLIENT_ID), "request_percentage", null);
    }

    @Test
    void partitionMutationsOverTheirRateAreRefusedUntilRepaid() throws Exception {
        setQuota(client("creator"), "controller_mutation_rate", 2.0);
        Map<String, Object> creator = Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap(),
                AdminClientConfig.CLIENT_ID_CONFIG, "creator");
        try (Admin admin = Admin.create(creator); Admin second = Admin.create(creator)) {
            // A first burst of a whole window (10 s at 2 partitions a second) passes.
            admin.createTopics(List.of(new NewTopic("mutations-20", 20, (short) 1))).all().get(30, TimeUnit.SECONDS);
            // The next topic goes into debt; the one after it in the same request is refused.
            CreateTopicsResult both = admin.createTopics(List.of(new NewTopic("mutations-10", 10, (short) 1),
                    new NewTopic("mutations-1", 1, (short) 1)), new CreateTopicsOptions().retryOnQuotaViolation(false));
            both.values().get("mutations-10").get(30, TimeUnit.SECONDS);
            Throwable refused = catchThrowable(() -> both.values().get("mutations-1").get(30, TimeUnit.SECONDS));
            assertThat(refused).hasCauseInstanceOf(ThrottlingQuotaExceededException.class);
            int throttleMs = ((ThrottlingQuotaExceededException) refused.getCause()).throttleTimeMs();
            assertThat(throttleMs).isBetween(3000, 5000);
            // Another connection of the same client id shares the debt.
            Throwable deleteRefused = catchThrowable(() -> second.deleteTopics(List.of("mutations-10"),
                    new DeleteTopicsOptions().retryOnQuotaViolation(false)).all().get(30, TimeUnit.SECONDS));
            assertThat(deleteRefused).hasCauseInstanceOf(ThrottlingQuotaExceededException.class);
            assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).contains("mutations-10")
                    .doesNotContain("mutations-1");
            // The Admin client retries a throttled request by default: it goes through once the debt is repaid.
            admin.createTopics(List.of(new NewTopic("mutations-1", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS))
                    .contains("mutations-20", "mutations-10", "mutations-1");
        }
    }

    @Test
    void connectionsFromAnAddressOverItsCreationRateAreClosed() throws Exception {
        // A whole window's burst (10 s at 1 a second) of connections is served, the next one closed.
        ClientQuotaEntity loopback = new ClientQuotaEntity(Map.of(ClientQuotaEntity.IP, "127.0.0.1"));
        setQuota(loopback, "connection_creation_rate", 1.0);
        List<RawConnection> opened = new ArrayList<>();
        try {
            int served = 0;
            boolean refused = false;
            for (int i = 0; i < 15 && !refused; i++) {
                RawConnection connection = new RawConnection(broker.port());
                opened.add(connection);
                try {
                    metadata(connection);
                    served++;
                } catch (EOFException | SocketException closed) { // closed, or reset: the request was never read
                    refused = true;
                }
            }
            assertThat(refused).as("a connection beyond the rate is closed").isTrue();
            assertThat(served).isBetween(8, 10);
        } finally {
            for (RawConnection connection : opened) {
                connection.close();
            }
            setQuota(loopback, "connection_creation_rate", null);
        }
    }

    private static AbstractResponse metadata(RawConnection connection) throws IOException {
        return connection.send(ApiKeys.METADATA, (short) 12, new MetadataRequestData().setTopics(List.of()));
    }

    @Test
    void producerIsHeldToItsByteRate() throws Exception {
        int quota = 400_000;
        setQuota(client("slow-producer"), "producer_byte_rate", (double) quota);
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic("quota-produce", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        Rate slow = produceFor("slow-producer", BURST, MEASURED);
        Rate free = produceFor("free-producer", Duration.ZERO, Duration.ofSeconds(2));
        System.out.printf("producer_byte_rate %d: slow-producer %.0f B/s (throttled up to %.0f ms), free-producer"
                + " %.0f B/s%n", quota, slow.bytesPerSecond(), slow.maxThrottleMs(), free.bytesPerSecond());
        assertThat(slow.bytesPerSecond()).isBetween(quota * 0.9, quota * 1.1);
        assertThat(slow.maxThrottleMs()).isPositive();
        assertThat(free.bytesPerSecond()).isGreaterThan(quota * 3.0);
        assertThat(free.maxThrottleMs()).isZero();
    }

    @Test
    void anAcksZeroProducerIsHeldToItsByteRateToo() throws Exception {
        int quota = 400_000;
        setQuota(client("blind-producer"), "producer_byte_rate", (double) quota);
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic("quota-acks0", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "blind-producer");
        config.put(ProducerConfig.ACKS_CONFIG, "0");
        config.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 256 * 1024);
        Duration measured = Duration.ofSeconds(6);
        long records;
        try (Admin admin = admin(); KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config,
                new ByteArraySerializer(), new ByteArraySerializer())) {
            byte[] value = new byte[RECORD_BYTES];
            producer.send(new ProducerRecord<>("quota-acks0", value)).get(30, TimeUnit.SECONDS); // metadata
            // Measured once the first credit (a window's quota, 10 s of it) is surely in the log: on a busy machine
            // the burst may not have spent it yet, and the rest would count as measured.
            long creditRecords = quota * 10L / RECORD_BYTES;
            long start = System.nanoTime() + BURST.toNanos();
            long end = start + measured.toNanos();
            long startOffset = -1;
            while (System.nanoTime() < end) {
                if (startOffset < 0 && System.nanoTime() >= start) {
                    long offset = endOffset(admin, "quota-acks0");
                    if (offset >= creditRecords) {
                        startOffset = offset;
                    } else {
                        start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
                    }
                    end = Math.max(start, System.nanoTime()) + measured.toNanos();
                }
                producer.send(new ProducerRecord<>("quota-acks0", value));
            }
            records = endOffset(admin, "quota-acks0") - startOffset;
        }
        double bytesPerSecond = records * (double) RECORD_BYTES / (measured.toNanos() / 1e9);
        System.out.printf("producer_byte_rate %d, acks=0: %.0f B/s%n", quota, bytesPerSecond);
        assertThat(bytesPerSecond).isBetween(quota * 0.9, quota * 1.1);
    }

    private static long endOffset(Admin admin, String topic) throws Exception {
        TopicPartition partition = new TopicPartition(topic, 0);
        return admin.listOffsets(Map.of(partition, OffsetSpec.latest())).all().get(30, TimeUnit.SECONDS)
                .get(partition).offset();
    }

    private record Rate(double bytesPerSecond, double maxThrottleMs) {
    }

    /**
     * Sends records as fast as the producer takes them for {@code skipped}, then for {@code measured}: the rate of
     * the bytes acknowledged in the second span.
     */
    private static Rate produceFor(String clientId, Duration skipped, Duration measured) throws Exception {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        config.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        config.put(ProducerConfig.ACKS_CONFIG, "1");
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        // A small buffer: send() blocks while it is full, so what is sent follows what is acknowledged.
        config.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 256 * 1024);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000);
        AtomicLong acked = new AtomicLong();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            byte[] value = new byte[RECORD_BYTES];
            producer.send(new ProducerRecord<>("quota-produce", value)).get(30, TimeUnit.SECONDS); // metadata
            long start = System.nanoTime() + skipped.toNanos();
            long end = start + measured.toNanos();
            while (System.nanoTime() < end) {
                producer.send(new ProducerRecord<>("quota-produce", value), (metadata, failure) -> {
                    long now = System.nanoTime();
                    if (failure == null && now >= start && now < end) {
                        acked.addAndGet(RECORD_BYTES);
                    }
                });
            }
            producer.flush();
            return new Rate(acked.get() / (measured.toNanos() / 1e9),
                    metric(producer.metrics(), "produce-throttle-time-max"));
        }
    }

    private static double metric(Map<MetricName, ? extends Metric> metrics, String name) {
        for (Map.Entry<MetricName, ? extends Metric> metric : metrics.entrySet()) {
            if (metric.getKey().name().equals(name) && metric.getKey().group().endsWith("-metrics")
                    && !metric.getKey().group().contains("node")) {
                Object value = metric.getValue().metricValue();
                return value instanceof Double number && !number.isNaN() ? number : 0;
            }
        }
        throw new AssertionError("no metric " + name);
    }

    @Test
    void consumerIsHeldToItsByteRate() throws Exception {
        int quota = 300_000;
        setQuota(client("slow-consumer"), "consumer_byte_rate", (double) quota);
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic("quota-fetch", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            byte[] value = new byte[RECORD_BYTES];
            for (int i = 0; i < 10_000; i++) { // more than the slow consumer may read in 12 s
                producer.send(new ProducerRecord<>("quota-fetch", value));
            }
            producer.flush();
        }
        Rate slow = consumeFor("slow-consumer", BURST, MEASURED);
        Rate free = consumeFor("free-consumer", Duration.ZERO, MEASURED);
        System.out.printf("consumer_byte_rate %d: slow-consumer %.0f B/s (throttled up to %.0f ms), free-consumer"
                + " %.0f B/s%n", quota, slow.bytesPerSecond(), slow.maxThrottleMs(), free.bytesPerSecond());
        assertThat(slow.bytesPerSecond()).isBetween(quota * 0.9, quota * 1.1);
        assertThat(slow.maxThrottleMs()).isPositive();
        assertThat(free.bytesPerSecond()).isGreaterThan(quota * 3.0);
    }

    /**
     * Reads the topic from its start for {@code skipped}, then for {@code measured} or to its end: the rate of the
     * bytes received in the second span.
     */
    private static Rate consumeFor(String clientId, Duration skipped, Duration measured) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        config.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 64 * 1024);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            TopicPartition partition = new TopicPartition("quota-fetch", 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            long bytes = 0;
            long start = System.nanoTime() + skipped.toNanos();
            long deadline = start + measured.toNanos();
            while (System.nanoTime() < deadline && consumer.position(partition) < end) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    long now = System.nanoTime();
                    bytes += now >= start && now < deadline ? record.value().length : 0;
                }
            }
            double seconds = (Math.min(System.nanoTime(), deadline) - start) / 1e9;
            return new Rate(bytes / seconds, metric(consumer.metrics(), "fetch-throttle-time-max"));
        }
    }
}

package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.fixtures.FixedPorts;
import dev.spool.it.reliability.CommittingConsumer;
import dev.spool.it.reliability.LogAudit;
import dev.spool.it.reliability.NumberedProducer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * The kill loop: a broker process under an idempotent producer (acks=all, numbered records per key)
 * and a consumer group member that commits after each poll is killed with SIGKILL at random moments,
 * {@code -Dkillloop.kills=N} times (3 by default, for CI), and restarted on the same data and port.
 * After every restart: every acknowledged record is in the log exactly once and in per-key order
 * ({@link LogAudit}), committed offsets are never past the log end; at the end the member has
 * processed everything without skipping a record ({@link CommittingConsumer}). Once with default
 * flushing (the page cache survives a process crash) and once with {@code flush.messages=1}.
 * {@code -Dkillloop.seed=S} reproduces the kill moments.
 */
class KillLoopIT {

    private static final String TOPIC = "ledger";
    private static final int PARTITIONS = 3;
    private static final String GROUP = "ledger-readers";

    @Test
    void noAcknowledgedRecordIsLostOrDuplicatedWithDefaultFlushing() throws Exception {
        killLoop();
    }

    @Test
    void noAcknowledgedRecordIsLostOrDuplicatedWithAFlushPerMessage() throws Exception {
        killLoop("log.flush.interval.messages=1");
    }

    private static void killLoop(String... extra) throws Exception {
        int kills = Integer.getInteger("killloop.kills", 3);
        long seed = Long.getLong("killloop.seed", System.nanoTime());
        Random random = new Random(seed);
        int port = freePort();
        List<String> settings = new ArrayList<>(List.of("listeners=PLAINTEXT://127.0.0.1:" + port,
                "group.initial.rebalance.delay.ms=0", "offsets.topic.num.partitions=3"));
        settings.addAll(List.of(extra));
        String[] overrides = settings.toArray(String[]::new);
        SpoolProcess spool = SpoolProcess.start(overrides);
        String bootstrap = spool.bootstrap();
        long started = System.nanoTime();
        try (Admin admin = admin(bootstrap)) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        NumberedProducer producer = new NumberedProducer(bootstrap, TOPIC, 6);
        CommittingConsumer consumer = new CommittingConsumer(bootstrap, TOPIC, GROUP);
        long audited = 0;
        try {
            assertThat(producer.awaitProgress(200, Duration.ofSeconds(60))).as("the producer gets going").isTrue();
            for (int kill = 1; kill <= kills; kill++) {
                Thread.sleep(200 + random.nextInt(1300));
                spool.kill();
                spool = SpoolProcess.startIn(spool.dataDir(), overrides);
                if (!producer.awaitProgress(100, Duration.ofSeconds(90))) {
                    List<String> output = spool.output();
                    throw new AssertionError("the producer did not write again after restart " + kill + " (seed " + seed
                            + "): " + producer.status() + "; broker alive " + spool.isAlive() + ", its output ends with\n"
                            + String.join("\n", output.subList(Math.max(0, output.size() - 30), output.size())));
                }
                LogAudit.Result audit = LogAudit.check(bootstrap, TOPIC, PARTITIONS, producer.acked());
                assertThat(audit.problems()).as("log after restart %d (seed %d)", kill, seed).isEmpty();
                assertCommittedOffsetsWithinTheLog(bootstrap, kill);
                audited = audit.records();
            }
            producer.close();
            awaitConsumerAtEnd(bootstrap, consumer);
            LogAudit.Result last = LogAudit.check(bootstrap, TOPIC, PARTITIONS, producer.acked());
            assertThat(last.problems()).as("log at the end (seed %d)", seed).isEmpty();
            assertThat(consumer.problems()).as("the group member never skips a record").isEmpty();
            assertCommittedOffsetsWithinTheLog(bootstrap, kills + 1);
            long acked = producer.acked().values().stream().mapToLong(java.util.Set::size).sum();
            System.out.printf("KillLoopIT%s: %d kills in %d s (seed %d): %d records acknowledged, %d sends failed, "
                    + "%d records in the log, %d processed by the group member (%d client errors while down), "
                    + "0 lost, 0 duplicated%n", List.of(extra), kills,
                    TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started), seed, acked, producer.failedCount(),
                    last.records(), consumer.processedCount(), consumer.errorCount());
            assertThat(audited).isPositive();
        } finally {
            producer.close();
            consumer.close();
            spool.close();
        }
    }

    private static void awaitConsumerAtEnd(String bootstrap, CommittingConsumer consumer) throws Exception {
        Map<TopicPartition, Long> end = endOffsets(bootstrap);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            Map<Integer, Long> done = consumer.processedUpTo();
            if (end.entrySet().stream().allMatch(e -> done.getOrDefault(e.getKey().partition(), -1L) >= e.getValue() - 1)) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the group member did not reach the log end " + end + ": " + consumer.processedUpTo());
    }

    private static void assertCommittedOffsetsWithinTheLog(String bootstrap, int round) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(GROUP)
                    .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
            Map<TopicPartition, Long> end = endOffsets(bootstrap);
            committed.forEach((tp, offset) -> assertThat(offset.offset())
                    .as("committed offset of %s after restart %d, log end %d", tp, round, end.get(tp))
                    .isLessThanOrEqualTo(end.get(tp)));
        }
    }

    private static Map<TopicPartition, Long> endOffsets(String bootstrap) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            Map<TopicPartition, OffsetSpec> latest = new java.util.HashMap<>();
            for (int p = 0; p < PARTITIONS; p++) {
                latest.put(new TopicPartition(TOPIC, p), OffsetSpec.latest());
            }
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> result =
                    admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS);
            return result.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        }
    }

    private static Admin admin(String bootstrap) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000));
    }

    /** A port a restarted broker binds again: below the ephemeral range (see {@link FixedPorts}). */
    static int freePort() throws java.io.IOException {
        return FixedPorts.one();
    }
}

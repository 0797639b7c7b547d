package dev.spool.log.cleaner;

import dev.spool.log.LogClock;
import dev.spool.log.LogConfig;
import dev.spool.log.LogManager;
import dev.spool.log.PartitionLog;
import dev.spool.log.TestLogs;
import dev.spool.log.TopicPartition;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatchBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cleaner thread compacts a log while one thread appends and another reads it from the start
 * again and again: appends are never held up for long, every read sees valid batches in which each
 * key's version only goes up, and once appends stop the log holds the latest version of every key.
 */
class CleaningWhileAppendingTest {
    private static final int KEYS = 10;
    private static final int BATCHES = 600;

    @TempDir
    Path dataDir;

    @Test
    void appendsAndReadsGoOnWhileTheCleanerSwapsSegments() throws Exception {
        ScheduledExecutorService scheduler = TestLogs.scheduler();
        LogConfig config = LogConfig.fromProperties(Map.of("cleanup.policy", "compact", "segment.bytes", "1500",
                "min.cleanable.dirty.ratio", "0.01"));
        try (LogManager manager = LogManager.open(List.of(dataDir), topic -> config, LogClock.SYSTEM, scheduler,
                LogManager.Intervals.DEFAULTS, new CleanerConfig(true, 1, 1 << 20, 1))) {
            PartitionLog log = manager.getOrCreate(new TopicPartition("busy", 0));
            AtomicBoolean appending = new AtomicBoolean(true);
            AtomicLong maxAppendNanos = new AtomicLong();
            CompletableFuture<Integer> reads = CompletableFuture.supplyAsync(() -> readUntilDone(log, appending));
            for (int b = 0; b < BATCHES; b++) {
                RecordBatchBuilder builder = new RecordBatchBuilder(b % 2 == 0 ? CompressionType.NONE : CompressionType.GZIP);
                for (int r = 0; r < 3; r++) {
                    int version = b * 3 + r;
                    builder.append(System.currentTimeMillis(), ("key-" + version % KEYS).getBytes(StandardCharsets.UTF_8),
                            Integer.toString(version).getBytes(StandardCharsets.UTF_8));
                }
                long start = System.nanoTime();
                log.appendAsLeader(builder.build(), 0);
                log.updateHighWatermark(log.logEndOffset());
                maxAppendNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
            }
            appending.set(false);
            assertThat(reads.get(60, TimeUnit.SECONDS)).as("full reads while appending").isPositive();
            log.roll();
            manager.cleaner().wakeUp();
            long deadline = System.currentTimeMillis() + 20_000;
            while (TestLogs.readAll(log, 0).size() > KEYS && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            Map<String, Integer> latest = latestVersions(log);
            for (int k = 0; k < KEYS; k++) {
                int last = BATCHES * 3 - 1;
                int expected = last - ((last - k) % KEYS + KEYS) % KEYS;
                assertThat(latest).containsEntry("key-" + k, expected);
            }
            assertThat(TestLogs.readAll(log, 0)).hasSize(KEYS);
            CleanerStats stats = manager.cleaner().stats();
            assertThat(stats.cleanings()).isGreaterThan(1);
            assertThat(stats.failedCleanings()).isZero();
            assertThat(TimeUnit.NANOSECONDS.toMillis(maxAppendNanos.get())).as("longest append, ms").isLessThan(1_000);
        } finally {
            scheduler.shutdownNow();
        }
    }

    private static int readUntilDone(PartitionLog log, AtomicBoolean appending) {
        int fullReads = 0;
        try {
            while (appending.get()) {
                latestVersions(log);
                fullReads++;
            }
        } catch (Exception e) {
            throw new IllegalStateException("A read failed during cleaning", e);
        }
        return fullReads;
    }

    /** Reads the whole log once, checking that each key's version only goes up; the last version of each. */
    private static Map<String, Integer> latestVersions(PartitionLog log) throws java.io.IOException {
        Map<String, Integer> versions = new HashMap<>();
        for (Record record : TestLogs.readAll(log, log.logStartOffset())) {
            String key = StandardCharsets.UTF_8.decode(record.key()).toString();
            int version = Integer.parseInt(StandardCharsets.UTF_8.decode(record.value()).toString());
            Integer previous = versions.put(key, version);
            assertThat(previous == null || previous < version).as(key + " went from " + previous + " to " + version).isTrue();
        }
        return versions;
    }
}

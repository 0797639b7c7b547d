package dev.spool.log.cleaner;

import dev.spool.log.CheckpointFile;
import dev.spool.log.LogConfig;
import dev.spool.log.LogFileNames;
import dev.spool.log.LogManager;
import dev.spool.log.ManualLogClock;
import dev.spool.log.PartitionLog;
import dev.spool.log.TestLogs;
import dev.spool.log.TopicPartition;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatchBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/** The cleaner as LogManager runs it: its thread, picking, checkpoints, policy changes, compact,delete, delete. */
class LogCleanerTest {
    private static final LogConfig COMPACT = LogConfig.fromProperties(Map.of("cleanup.policy", "compact",
            "segment.bytes", "2000", "min.cleanable.dirty.ratio", "0.1", "file.delete.delay.ms", "0"));
    /** Timestamps of the records: the manual clock's start. */
    private static final long RECORD_TIME_MS = 1_700_000_000_000L;
    private static final LogConfig DELETE = COMPACT.with(Map.of("cleanup.policy", "delete"));

    @TempDir
    Path dataDir;
    private final ScheduledExecutorService scheduler = TestLogs.scheduler();
    private final ManualLogClock clock = new ManualLogClock();
    private LogManager manager;

    @AfterEach
    void close() throws IOException {
        if (manager != null) {
            manager.close();
        }
        scheduler.shutdownNow();
    }

    private LogManager open() throws IOException {
        manager = LogManager.open(List.of(dataDir), topic -> topic.startsWith("c") ? COMPACT : DELETE, clock, scheduler,
                LogManager.Intervals.DEFAULTS, new CleanerConfig(true, 1, 1 << 20, 20));
        return manager;
    }

    private static void writeKeys(PartitionLog log, int rounds, int keys) throws IOException {
        for (int round = 0; round < rounds; round++) {
            RecordBatchBuilder builder = new RecordBatchBuilder(round % 2 == 0 ? CompressionType.NONE : CompressionType.LZ4);
            for (int k = 0; k < keys; k++) {
                builder.append(RECORD_TIME_MS, ("key-" + k).getBytes(StandardCharsets.UTF_8),
                        ("value-" + k + "-" + round).getBytes(StandardCharsets.UTF_8));
            }
            log.appendAsLeader(builder.build(), 0);
        }
        log.roll();
        log.updateHighWatermark(log.logEndOffset());
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 20_000;
        while (!condition.getAsBoolean()) {
            assertThat(System.currentTimeMillis()).as(what).isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    private static Map<String, String> latest(PartitionLog log) throws IOException {
        Map<String, String> out = new HashMap<>();
        for (Record record : TestLogs.readAll(log, log.logStartOffset())) {
            out.put(StandardCharsets.UTF_8.decode(record.key()).toString(),
                    record.value() == null ? null : StandardCharsets.UTF_8.decode(record.value()).toString());
        }
        return out;
    }

    @Test
    void aCleaningThatFailsOnTheDiskTakesTheLogDirOffline() throws Exception {
        open();
        PartitionLog compacted = manager.getOrCreate(new TopicPartition("c-topic", 0));
        // The cleaned segment's file name is held by a non-empty directory: removing it fails (ENOTEMPTY).
        // Made before the log has anything to clean: the cleaner thread may start the moment it has.
        Path cleaned = compacted.dir().resolve(LogFileNames.name(0, LogFileNames.LOG_SUFFIX) + LogFileNames.CLEANED_SUFFIX);
        Files.createDirectories(cleaned.resolve("occupied"));
        writeKeys(compacted, 40, 10);
        manager.cleaner().wakeUp();
        await(() -> manager.cleaner().stats().failedCleanings() >= 1, "a failed cleaning");
        await(compacted::isOffline, "the log dir offline");
        assertThat(manager.isOffline(dataDir)).isTrue();
        assertThat(manager.logs()).isEmpty();
    }

    @Test
    void theCleanerThreadCompactsCompactedTopicsOnlyAndCheckpoints() throws Exception {
        open();
        PartitionLog compacted = manager.getOrCreate(new TopicPartition("c-topic", 0));
        PartitionLog deleted = manager.getOrCreate(new TopicPartition("d-topic", 0));
        writeKeys(compacted, 40, 10);
        writeKeys(deleted, 40, 10);
        long deletedSize = deleted.sizeInBytes();
        manager.cleaner().wakeUp();
        await(() -> manager.cleaner().stats().cleanings() >= 1, "a cleaning");
        assertThat(TestLogs.readAll(compacted, 0)).hasSize(10);
        Map<String, String> values = latest(compacted);
        for (int k = 0; k < 10; k++) {
            assertThat(values).containsEntry("key-" + k, "value-" + k + "-39");
        }
        assertThat(deleted.sizeInBytes()).isEqualTo(deletedSize);
        CleanerStats stats = manager.cleaner().stats();
        assertThat(stats.bytesRead()).isGreaterThan(stats.bytesWritten());
        assertThat(stats.recopyRatio()).isLessThan(0.5);
        assertThat(stats.recordsRead()).isEqualTo(400);
        assertThat(stats.recordsRetained()).isEqualTo(10);
        List<String[]> checkpoint = new CheckpointFile(dataDir.resolve(CleanerCheckpoints.FILE_NAME)).read(3);
        assertThat(checkpoint).hasSize(1);
        assertThat(checkpoint.get(0)).containsExactly("c-topic", "0", Long.toString(compacted.logEndOffset()));

        // survives a restart: the checkpoint says everything is clean, nothing is cleaned again
        manager.close();
        open();
        assertThat(manager.cleaner().firstDirtyOffset(manager.get(new TopicPartition("c-topic", 0)),
                new TopicPartition("c-topic", 0))).isEqualTo(400);
        assertThat(latest(manager.get(new TopicPartition("c-topic", 0)))).isEqualTo(values);
    }

    @Test
    void aPolicyChangeToCompactTakesEffectWithoutRestart() throws Exception {
        open();
        PartitionLog log = manager.getOrCreate(new TopicPartition("d-later", 0));
        writeKeys(log, 30, 5);
        Thread.sleep(100);
        assertThat(manager.cleaner().stats().cleanings()).isZero();
        manager.updateTopicConfig("d-later", COMPACT);
        await(() -> manager.cleaner().stats().cleanings() >= 1, "a cleaning after the policy change");
        assertThat(TestLogs.readAll(log, 0)).hasSize(5);
    }

    @Test
    void compactDeleteAlsoAppliesRetention() throws Exception {
        open();
        PartitionLog log = manager.getOrCreate(new TopicPartition("c-both", 0));
        log.updateConfig(COMPACT.with(Map.of("cleanup.policy", "compact,delete", "retention.ms", "60000")));
        writeKeys(log, 20, 5);
        await(() -> manager.cleaner().stats().cleanings() >= 1, "a cleaning");
        assertThat(TestLogs.readAll(log, 0)).hasSize(5);
        // past the records' timestamps and the files' modification times (what an emptied segment is aged by)
        clock.advance(20L * 365 * 24 * 3_600_000);
        writeKeys(log, 1, 5);
        assertThat(manager.runRetention()).isPositive();
        assertThat(log.logStartOffset()).isEqualTo(log.logEndOffset());
    }

    @Test
    void aTombstoneGoesOnceItsDeleteHorizonPassesEvenWithoutNewWrites() throws Exception {
        open();
        PartitionLog log = manager.getOrCreate(new TopicPartition("c-tombstone", 0));
        log.updateConfig(COMPACT.with(Map.of("delete.retention.ms", "1000")));
        writeKeys(log, 10, 5);
        log.appendAsLeader(new RecordBatchBuilder(CompressionType.SNAPPY)
                .append(RECORD_TIME_MS, "key-0".getBytes(StandardCharsets.UTF_8), null).build(), 0);
        log.roll();
        log.updateHighWatermark(log.logEndOffset());
        manager.cleaner().wakeUp();
        await(() -> manager.cleaner().stats().cleanings() >= 1, "a first cleaning");
        Map<String, String> afterFirst = latest(log);
        assertThat(afterFirst).containsKey("key-0").containsEntry("key-0", null);
        clock.advance(1_000);
        manager.cleaner().wakeUp();
        await(() -> {
            try {
                return !latest(log).containsKey("key-0");
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }, "the tombstone removed");
        assertThat(latest(log)).hasSize(4).containsEntry("key-1", "value-1-9");
    }

    @Test
    void aTruncationBelowTheCleanedPointMakesTheNewRecordsDirtyAgain() throws Exception {
        open();
        TopicPartition partition = new TopicPartition("c-truncated", 0);
        PartitionLog log = manager.getOrCreate(partition);
        writeKeys(log, 4, 10);
        await(() -> manager.cleaner().firstDirtyOffset(log, partition) == 40, "a first cleaning");
        // a follower's log diverged: cut it inside the cleaned part and write other values there
        log.truncateTo(25);
        writeKeys(log, 3, 5);   // offsets 25..39: below the checkpoint, yet never cleaned
        writeKeys(log, 1, 1);   // offset 40: the log end passes the checkpoint again
        manager.cleaner().wakeUp();
        await(() -> manager.cleaner().firstDirtyOffset(log, partition) == log.logEndOffset(), "a cleaning after it");
        assertThat(TestLogs.readAll(log, 0)).hasSize(5);
        assertThat(latest(log)).containsEntry("key-0", "value-0-0").containsEntry("key-3", "value-3-2");
    }

    @Test
    void deletingAPartitionStopsItsCleaningAndForgetsItsCheckpoint() throws Exception {
        open();
        TopicPartition partition = new TopicPartition("c-gone", 0);
        writeKeys(manager.getOrCreate(partition), 200, 20);
        manager.cleaner().wakeUp();
        manager.delete(partition);
        assertThat(manager.get(partition)).isNull();
        List<String[]> checkpoint = new CheckpointFile(dataDir.resolve(CleanerCheckpoints.FILE_NAME)).read(3);
        assertThat(checkpoint).noneMatch(fields -> fields[0].equals("c-gone"));
    }
}

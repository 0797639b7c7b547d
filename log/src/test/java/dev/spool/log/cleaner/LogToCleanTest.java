package dev.spool.log.cleaner;

import dev.spool.log.LogConfig;
import dev.spool.log.LogLoadOptions;
import dev.spool.log.ManualLogClock;
import dev.spool.log.PartitionLog;
import dev.spool.log.TestLogs;
import dev.spool.log.TopicPartition;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.RecordBatchBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;

import static org.assertj.core.api.Assertions.assertThat;

/** Which part of a log a cleaning may touch, and when a log is worth cleaning. */
class LogToCleanTest {
    private static final TopicPartition PARTITION = new TopicPartition("t", 0);
    private static final long HOUR_MS = 3_600_000L;

    @TempDir
    Path dir;
    private final ScheduledExecutorService scheduler = TestLogs.scheduler();
    private final ManualLogClock clock = new ManualLogClock();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    /** Three inactive segments of 10 records, written at now - 3h, now - 2h and now - 1h, and an empty active one. */
    private PartitionLog log(Map<String, String> overrides) throws IOException {
        LogConfig config = LogConfig.fromProperties(Map.of("cleanup.policy", "compact")).with(overrides);
        PartitionLog log = PartitionLog.open(dir.resolve("t-0"), config, clock, scheduler, LogLoadOptions.UNKNOWN);
        for (int segment = 0; segment < 3; segment++) {
            RecordBatchBuilder builder = new RecordBatchBuilder(CompressionType.NONE);
            for (int r = 0; r < 10; r++) {
                builder.append(clock.nowMs() - (3 - segment) * HOUR_MS, ("k" + r).getBytes(StandardCharsets.UTF_8),
                        ("v" + segment).getBytes(StandardCharsets.UTF_8));
            }
            log.appendAsLeader(builder.build(), 0);
            log.roll();
        }
        log.updateHighWatermark(log.logEndOffset());
        return log;
    }

    @Test
    void everythingBelowTheActiveSegmentIsDirtyAtFirst() throws IOException {
        try (PartitionLog log = log(Map.of())) {
            LogToClean target = LogToClean.of(PARTITION, log, -1, clock.nowMs());
            assertThat(target.firstDirtyOffset()).isZero();
            assertThat(target.firstUncleanableOffset()).isEqualTo(30);
            assertThat(target.dirtyRatio()).isEqualTo(1.0);
            assertThat(target.isCleanable()).isTrue();
        }
    }

    @Test
    void theCheckpointSplitsCleanFromDirtyAndTheRatioDecides() throws IOException {
        try (PartitionLog log = log(Map.of("min.cleanable.dirty.ratio", "0.5"))) {
            LogToClean target = LogToClean.of(PARTITION, log, 20, clock.nowMs());
            assertThat(target.cleanBytes()).isEqualTo(2L * target.dirtyBytes());
            assertThat(target.isCleanable()).as("a third dirty is below 0.5").isFalse();
            assertThat(LogToClean.of(PARTITION, log, 10, clock.nowMs()).isCleanable()).as("two thirds").isTrue();
            assertThat(LogToClean.of(PARTITION, log, 999, clock.nowMs()).firstDirtyOffset())
                    .as("a checkpoint past the log end starts over").isZero();
        }
    }

    @Test
    void minCompactionLagKeepsYoungSegmentsOut() throws IOException {
        try (PartitionLog log = log(Map.of("min.compaction.lag.ms", Long.toString(90 * 60_000L)))) {
            LogToClean target = LogToClean.of(PARTITION, log, -1, clock.nowMs());
            assertThat(target.firstUncleanableOffset()).as("the segment written 1 h ago is too young").isEqualTo(20);
        }
    }

    @Test
    void theHighWatermarkBoundsTheCleanablePart() throws IOException {
        try (PartitionLog log = log(Map.of())) {
            log.updateHighWatermark(15);
            assertThat(LogToClean.of(PARTITION, log, -1, clock.nowMs()).firstUncleanableOffset()).isEqualTo(10);
        }
    }

    @Test
    void maxCompactionLagMakesALogOverdueWhateverItsRatio() throws IOException {
        try (PartitionLog log = log(Map.of("min.cleanable.dirty.ratio", "0.9",
                "max.compaction.lag.ms", Long.toString(HOUR_MS)))) {
            // the first dirty segment was written 2 h ago
            LogToClean target = LogToClean.of(PARTITION, log, 10, clock.nowMs());
            assertThat(target.overdue()).isTrue();
            assertThat(target.isCleanable()).isTrue();
            log.updateConfig(log.config().with(Map.of("max.compaction.lag.ms", Long.toString(4 * HOUR_MS))));
            assertThat(LogToClean.of(PARTITION, log, 10, clock.nowMs()).isCleanable()).isFalse();
        }
    }

    @Test
    void expiredTombstonesMakeACleanLogCleanable() throws IOException {
        try (PartitionLog log = log(Map.of())) {
            LogToClean clean = LogToClean.of(PARTITION, log, 30, clock.nowMs() + 1, clock.nowMs());
            assertThat(clean.isCleanable()).isFalse();
            LogToClean expired = LogToClean.of(PARTITION, log, 30, clock.nowMs(), clock.nowMs());
            assertThat(expired.tombstonesExpired()).isTrue();
            assertThat(expired.isCleanable()).isTrue();
        }
    }
}

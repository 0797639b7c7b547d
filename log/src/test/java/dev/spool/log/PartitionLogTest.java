package dev.spool.log;

import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.segment.LogSegment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Stream;

import static dev.spool.log.TestLogs.batch;
import static dev.spool.log.TestLogs.readAll;
import static dev.spool.log.TestLogs.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PartitionLogTest {
    @TempDir
    Path dir;
    private final ScheduledExecutorService scheduler = TestLogs.scheduler();
    private final ManualLogClock clock = new ManualLogClock();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private PartitionLog open(LogConfig config) throws IOException {
        return PartitionLog.open(dir.resolve("t-0"), config, clock, scheduler);
    }

    @Test
    void tryAppendAsLeaderAppendsAsAppendAsLeaderDoesAndCommitsIfAsked() throws IOException {
        try (PartitionLog log = open(TestLogs.config("message.timestamp.type", "LogAppendTime"))) {
            log.appendAsLeader(batch("a", 3, 1000, CompressionType.NONE), 5);
            assertThat(log.highWatermark()).as("appendAsLeader without commit").isZero();
            ByteBuffer two = ByteBuffer.allocate(1024);
            two.put(batch("b", 2, 2000, CompressionType.NONE)).put(batch("c", 1, 3000, CompressionType.NONE)).flip();
            AppendInfo tried = log.tryAppendAsLeader(two, 5, true);
            assertThat(tried).isNotNull();
            assertThat(tried.firstOffset()).isEqualTo(3);
            assertThat(tried.lastOffset()).isEqualTo(5);
            assertThat(tried.batchCount()).isEqualTo(2);
            assertThat(tried.maxTimestampMs()).isEqualTo(clock.nowMs());
            assertThat(log.highWatermark()).isEqualTo(6);
            assertThat(readAll(log, 0)).extracting(Record::offset).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
            ByteBuffer raw = log.read(3, 1 << 20).readFully();
            RecordBatch first = new RecordBatch().wrap(raw, 0);
            assertThat(first.partitionLeaderEpoch()).isEqualTo(5);
            assertThat(first.isLogAppendTime()).isTrue();
            assertThat(new RecordBatch().wrap(raw, first.sizeInBytes()).baseOffset()).isEqualTo(5);
        }
    }

    @Test
    void tryAppendAsLeaderRefusesAnAppendThatWouldWriteANewLeaderEpochRollOrFsync() throws IOException {
        try (PartitionLog log = open(TestLogs.config("segment.bytes", 1024))) {
            log.appendAsLeader(batch("a", 3, 1000, CompressionType.NONE), 5);
            ByteBuffer newEpoch = batch("b", 2, 2000, CompressionType.NONE);
            assertRefusedUnchanged(log, newEpoch, 6);
            assertThat(log.leaderEpochs().entries()).doesNotContainKey(6);
            ByteBuffer big = batch("c".repeat(600), 1, 2000, CompressionType.NONE);
            assertRefusedUnchanged(log, big, 5);
            assertThat(log.segments()).hasSize(1);
            assertThat(log.appendAsLeader(big, 5).firstOffset()).isEqualTo(3);
            assertThat(log.segments()).hasSize(2);
        }
    }

    @Test
    void tryAppendAsLeaderRefusesAnAppendThatFlushMessagesWouldFsync() throws IOException {
        try (PartitionLog log = open(TestLogs.config("flush.messages", 2))) {
            log.appendAsLeader(batch("a", 1, 1000, CompressionType.NONE), 5); // epoch 5 known, recovery point 0
            assertRefusedUnchanged(log, batch("b", 1, 2000, CompressionType.NONE), 5);
            assertThat(log.recoveryPoint()).isZero();
        }
    }

    private static void assertRefusedUnchanged(PartitionLog log, ByteBuffer batch, int leaderEpoch) throws IOException {
        ByteBuffer before = ByteBuffer.allocate(batch.remaining()).put(batch.duplicate()).flip();
        long logEndOffset = log.logEndOffset();
        assertThat(log.tryAppendAsLeader(batch, leaderEpoch, true)).isNull();
        assertThat(batch).isEqualTo(before);
        assertThat(log.logEndOffset()).isEqualTo(logEndOffset);
        assertThat(log.highWatermark()).isLessThanOrEqualTo(logEndOffset);
    }

    @Test
    void appendAssignsOffsetsAndReadsBack() throws IOException {
        try (PartitionLog log = open(LogConfig.defaults())) {
            AppendInfo first = log.appendAsLeader(batch("a", 3, 1000, CompressionType.NONE), 5);
            AppendInfo second = log.appendAsLeader(batch("b", 2, 2000, CompressionType.ZSTD), 5);
            assertThat(first.firstOffset()).isEqualTo(0);
            assertThat(first.lastOffset()).isEqualTo(2);
            assertThat(second.firstOffset()).isEqualTo(3);
            assertThat(second.lastOffset()).isEqualTo(4);
            assertThat(log.logEndOffset()).isEqualTo(5);
            List<Record> records = readAll(log, 0);
            assertThat(records).extracting(Record::offset).containsExactly(0L, 1L, 2L, 3L, 4L);
            assertThat(text(records.get(3).value())).isEqualTo("vb-0");
            assertThat(readAll(log, 4)).extracting(Record::offset).containsExactly(4L);
            assertThat(log.leaderEpochs().entries()).containsEntry(5, 0L);
            ByteBuffer raw = log.read(0, 1 << 20).readFully();
            assertThat(new RecordBatch().wrap(raw, 0).partitionLeaderEpoch()).isEqualTo(5);
            assertThat(log.read(5, 100).isEmpty()).isTrue();
            assertThatThrownBy(() -> log.read(6, 100)).isInstanceOf(OffsetOutOfRangeException.class);
        }
    }

    @Test
    void rollsAtSegmentBytesAndReadsAcrossSegments() throws IOException {
        try (PartitionLog log = open(TestLogs.config("segment.bytes", 1024, "index.interval.bytes", 100))) {
            for (int i = 0; i < 50; i++) {
                log.appendAsLeader(batch("x" + i, 4, 1000 + i, CompressionType.NONE), 0);
            }
            assertThat(log.segments()).hasSizeGreaterThan(5);
            for (LogSegment segment : log.segments()) {
                assertThat(segment.sizeInBytes()).isLessThanOrEqualTo(1024);
            }
            assertThat(readAll(log, 0)).hasSize(200);
            assertThat(readAll(log, 137)).first().extracting(Record::offset).isEqualTo(137L);
            assertThat(log.offsetForTimestamp(1020).offset()).isEqualTo(80);
            assertThat(log.offsetForTimestamp(TimestampOffset.MAX_TIMESTAMP).offset()).isEqualTo(196);
            assertThat(log.offsetForTimestamp(5000).found()).isFalse();
        }
    }

    @Test
    void reopensCleanAndUncleanWithSameContent() throws IOException {
        LogConfig config = TestLogs.config("segment.bytes", 2048, "index.interval.bytes", 200);
        PartitionLog log = open(config);
        for (int i = 0; i < 40; i++) {
            log.appendAsLeader(batch("r" + i, 3, 1000 + i, i % 2 == 0 ? CompressionType.LZ4 : CompressionType.NONE), 1);
        }
        long end = log.logEndOffset();
        log.close();
        try (PartitionLog reopened = PartitionLog.open(dir.resolve("t-0"), config, clock, scheduler,
                new LogLoadOptions(end, 0, true))) {
            assertThat(reopened.logEndOffset()).isEqualTo(end);
            assertThat(readAll(reopened, 0)).hasSize(120);
            reopened.appendAsLeader(batch("after", 1, 5000, CompressionType.NONE), 2);
        }
        try (PartitionLog reopened = open(config)) {
            assertThat(reopened.logEndOffset()).isEqualTo(end + 1);
            assertThat(readAll(reopened, 0)).hasSize(121);
            assertThat(reopened.leaderEpochs().entries()).containsEntry(1, 0L).containsEntry(2, end);
        }
    }

    @Test
    void truncateToRemovesLaterBatchesAndSegments() throws IOException {
        try (PartitionLog log = open(TestLogs.config("segment.bytes", 1024))) {
            for (int i = 0; i < 30; i++) {
                log.appendAsLeader(batch("t" + i, 2, 1000 + i, CompressionType.NONE), i / 10);
            }
            log.truncateTo(25);
            assertThat(log.logEndOffset()).isEqualTo(24);
            assertThat(readAll(log, 0)).extracting(Record::offset).last().isEqualTo(23L);
            assertThat(log.leaderEpochs().latestEpoch()).isEqualTo(1);
            log.appendAsLeader(batch("again", 1, 1, CompressionType.NONE), 7);
            assertThat(readAll(log, 23)).extracting(Record::offset).containsExactly(23L, 24L);
            log.truncateTo(0);
            assertThat(log.logEndOffset()).isZero();
            assertThat(readAll(log, 0)).isEmpty();
        }
    }

    @Test
    void retentionByTimeDeletesOldSegmentsButNotUnexpiredActiveData() throws IOException {
        LogConfig config = TestLogs.config("segment.bytes", 1024, "retention.ms", 1000, "file.delete.delay.ms", 0);
        try (PartitionLog log = open(config)) {
            for (int i = 0; i < 20; i++) {
                log.appendAsLeader(batch("o" + i, 2, clock.nowMs(), CompressionType.NONE), 0);
            }
            clock.advance(5000);
            log.appendAsLeader(batch("new", 2, clock.nowMs(), CompressionType.NONE), 0);
            log.updateHighWatermark(log.logEndOffset());
            int deleted = log.deleteOldSegments();
            assertThat(deleted).isGreaterThan(0);
            assertThat(log.logStartOffset()).isEqualTo(log.segments().get(0).baseOffset());
            assertThat(readAll(log, log.logStartOffset())).extracting(r -> text(r.key())).contains("knew-0", "knew-1");
            assertThat(log.read(log.logStartOffset(), 1 << 20).isEmpty()).isFalse();
            clock.advance(5000);
            log.deleteOldSegments();
            assertThat(log.logStartOffset()).isEqualTo(log.logEndOffset());
            assertThat(log.segments()).hasSize(1);
        }
    }

    @Test
    void retentionBySizeKeepsAtMostRetentionBytes() throws IOException {
        LogConfig config = TestLogs.config("segment.bytes", 1024, "retention.bytes", 1500, "retention.ms", -1);
        try (PartitionLog log = open(config)) {
            for (int i = 0; i < 40; i++) {
                log.appendAsLeader(batch("s" + i, 2, 1000, CompressionType.NONE), 0);
            }
            log.updateHighWatermark(log.logEndOffset());
            assertThat(log.deleteOldSegments()).isEqualTo(2);
            // As Kafka: whole segments go while the rest still holds at least retention.bytes.
            assertThat(log.sizeInBytes()).isGreaterThanOrEqualTo(1500);
            assertThat(log.sizeInBytes() - 1500).isLessThan(log.segments().get(0).sizeInBytes());
            try (Stream<Path> files = Files.list(dir.resolve("t-0"))) {
                assertThat(files.filter(p -> p.toString().endsWith(".deleted"))).isNotEmpty();
            }
        }
    }

    @Test
    void deleteRecordsMovesLogStartOffset() throws IOException {
        try (PartitionLog log = open(TestLogs.config("segment.bytes", 1024))) {
            for (int i = 0; i < 30; i++) {
                log.appendAsLeader(batch("d" + i, 2, 1000, CompressionType.NONE), 0);
            }
            log.updateHighWatermark(log.logEndOffset());
            assertThat(log.deleteRecordsBefore(31)).isEqualTo(31);
            assertThat(log.segments().get(0).baseOffset()).isLessThanOrEqualTo(31);
            assertThat(readAll(log, 31)).first().extracting(Record::offset).isEqualTo(31L);
            assertThatThrownBy(() -> log.read(30, 100)).isInstanceOf(OffsetOutOfRangeException.class);
            assertThat(log.offsetForTimestamp(TimestampOffset.EARLIEST_TIMESTAMP).offset()).isEqualTo(31);
            assertThat(log.offsetForTimestamp(0).offset()).isEqualTo(31);
        }
    }

    @Test
    void segmentMsRollsByRecordTimestamps() throws IOException {
        try (PartitionLog log = open(TestLogs.config("segment.ms", 1000))) {
            log.appendAsLeader(batch("a", 1, 10_000, CompressionType.NONE), 0);
            log.appendAsLeader(batch("b", 1, 10_500, CompressionType.NONE), 0);
            assertThat(log.segments()).hasSize(1);
            log.appendAsLeader(batch("c", 1, 11_001, CompressionType.NONE), 0);
            assertThat(log.segments()).extracting(LogSegment::baseOffset).containsExactly(0L, 2L);
        }
    }

    @Test
    void logAppendTimeStampsBatches() throws IOException {
        try (PartitionLog log = open(TestLogs.config("message.timestamp.type", "LogAppendTime"))) {
            AppendInfo info = log.appendAsLeader(batch("a", 2, 5, CompressionType.GZIP), 0);
            assertThat(info.logAppendTimeMs()).isEqualTo(clock.nowMs());
            assertThat(readAll(log, 0)).extracting(Record::timestamp).containsOnly(clock.nowMs());
        }
    }

    @Test
    void flushMessagesMovesRecoveryPoint() throws IOException {
        try (PartitionLog log = open(TestLogs.config("flush.messages", 1))) {
            log.appendAsLeader(batch("a", 2, 5, CompressionType.NONE), 0);
            assertThat(log.recoveryPoint()).isEqualTo(2);
        }
        try (PartitionLog log = PartitionLog.open(dir.resolve("t-1"), LogConfig.defaults(), clock, scheduler)) {
            log.appendAsLeader(batch("a", 2, 5, CompressionType.NONE), 0);
            assertThat(log.recoveryPoint()).isZero();
            clock.advance(10);
            log.updateConfig(TestLogs.config("flush.ms", 5));
            log.maybeFlushByTime();
            assertThat(log.recoveryPoint()).isEqualTo(2);
        }
    }

    @Test
    void followerAppendKeepsOffsets() throws IOException {
        try (PartitionLog log = open(LogConfig.defaults())) {
            ByteBuffer batch = batch("f", 3, 5, CompressionType.NONE);
            new RecordBatch().wrap(batch, 0).setBaseOffset(100);
            new RecordBatch().wrap(batch, 0).setPartitionLeaderEpoch(3);
            log.truncateFullyAndStartAt(100);
            log.appendAsFollower(batch);
            assertThat(log.logEndOffset()).isEqualTo(103);
            assertThat(readAll(log, 100)).extracting(Record::offset).containsExactly(100L, 101L, 102L);
            assertThat(log.leaderEpochs().entries()).containsEntry(3, 100L);
        }
    }

    @Test
    void cleanOpenRebuildsMissingOrCorruptIndexes() throws IOException {
        LogConfig config = TestLogs.config("segment.bytes", 2000, "index.interval.bytes", 100);
        PartitionLog log = open(config);
        for (int i = 0; i < 80; i++) {
            log.appendAsLeader(batch("i" + i, 3, 1000 + i, CompressionType.NONE), 0);
        }
        long end = log.logEndOffset();
        List<LogSegment> segments = log.segments();
        assertThat(segments).hasSizeGreaterThanOrEqualTo(3);
        log.close();
        Path partition = dir.resolve("t-0");
        Files.delete(LogFileNames.timeIndexFile(partition, segments.get(0).baseOffset()));
        Files.write(LogFileNames.offsetIndexFile(partition, segments.get(1).baseOffset()), new byte[]{1, 2, 3, 4, 5, 6, 7, 8, 9});
        Files.write(LogFileNames.offsetIndexFile(partition, segments.get(2).baseOffset()), new byte[64]);
        try (PartitionLog reopened = PartitionLog.open(partition, config, clock, scheduler, new LogLoadOptions(end, 0, true))) {
            assertThat(reopened.logEndOffset()).isEqualTo(end);
            for (long offset = 0; offset < end; offset += 7) {
                assertThat(readAll(reopened, offset)).first().extracting(Record::offset).isEqualTo(offset);
            }
            assertThat(reopened.segments().get(0).timeIndex().entries()).isGreaterThan(0);
            assertThat(reopened.segments().get(1).offsetIndex().entries()).isGreaterThan(0);
            assertThat(reopened.offsetForTimestamp(1010).offset()).isEqualTo(30);
        }
    }

    @Test
    void followerAppendBeyondThe32BitRelativeRangeRollsANewSegment() throws IOException {
        try (PartitionLog log = open(LogConfig.defaults())) {
            ByteBuffer first = batch("a", 2, 5, CompressionType.NONE);
            log.appendAsFollower(first);
            ByteBuffer far = batch("b", 2, 6, CompressionType.NONE);
            long farOffset = (1L << 31) + 100;
            new RecordBatch().wrap(far, 0).setBaseOffset(farOffset);
            log.appendAsFollower(far);
            assertThat(log.segments()).extracting(LogSegment::baseOffset).containsExactly(0L, farOffset);
            assertThat(log.logEndOffset()).isEqualTo(farOffset + 2);
            assertThat(readAll(log, 2)).extracting(Record::offset).containsExactly(farOffset, farOffset + 1);
        }
    }

    @Test
    void readStopsBeforeMaxOffsetAndHonoursMaxBytes() throws IOException {
        try (PartitionLog log = open(LogConfig.defaults())) {
            for (int i = 0; i < 10; i++) {
                log.appendAsLeader(batch("m" + i, 2, 1000, CompressionType.NONE), 0);
            }
            int batchBytes = log.read(0, 1).lengthBytes();
            assertThat(log.read(0, 1, log.logEndMetadata(), false).lengthBytes()).isEqualTo(1);
            assertThat(log.read(0, 1, log.logEndMetadata(), true).lengthBytes()).isEqualTo(batchBytes);
            log.updateHighWatermark(8);
            FetchSlice upToHighWatermark = log.read(4, 1 << 20, log.highWatermarkMetadata(), true);
            assertThat(TestLogs.recordsOfWholeBatches(upToHighWatermark.readFully(), 4)).extracting(Record::offset)
                    .containsExactly(4L, 5L, 6L, 7L);
            assertThat(log.read(8, 1 << 20, log.highWatermarkMetadata(), true).isEmpty()).isTrue();
        }
    }
}

package dev.spool.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.log.producer.ActiveProducer;
import dev.spool.log.producer.ProducerSnapshotFile;
import dev.spool.log.producer.SequenceCheck;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchBuilder;
import dev.spool.log.segment.LogSegment;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The producer state a partition log keeps in the same locked step as its appends, truncations and
 * recovery: follower appends record it, a truncation forgets what it cut, a crash recovery rebuilds it.
 */
class PartitionLogProducerStateTest {

    private static final long PRODUCER = 7;
    private static final short EPOCH = 0;

    @TempDir
    Path dataDir;
    private final ScheduledExecutorService scheduler = TestLogs.scheduler();
    private final ManualLogClock clock = new ManualLogClock();
    private final List<PartitionLog> opened = new ArrayList<>();

    @AfterEach
    void stop() throws IOException {
        for (PartitionLog log : opened) {
            log.close();
        }
        scheduler.shutdownNow();
    }

    private Path dir() {
        return dataDir.resolve("t-0");
    }

    private PartitionLog open(LogConfig config, LogLoadOptions options) throws IOException {
        PartitionLog log = PartitionLog.open(dir(), config, clock, scheduler, options);
        opened.add(log);
        return log;
    }

    private PartitionLog open(LogConfig config) throws IOException {
        return open(config, LogLoadOptions.UNKNOWN);
    }

    /** A crash: the files close without a flush or a producer snapshot; the page cache keeps what was written. */
    private void crash(PartitionLog log) {
        log.closeAfterFailure();
        opened.remove(log);
    }

    /** A batch of {@code records} records of producer {@link #PRODUCER} starting at {@code firstSequence}. */
    private ByteBuffer idempotent(int firstSequence, int records) {
        RecordBatchBuilder builder = new RecordBatchBuilder(CompressionType.NONE).producer(PRODUCER, EPOCH, firstSequence);
        for (int i = 0; i < records; i++) {
            // Of one size whatever the sequence, so that segments of 2 x that many bytes hold two batches.
            builder.append(clock.nowMs(), null, TestLogs.bytes(String.format("value-%06d-%03d", firstSequence, i)));
        }
        return builder.build();
    }

    /** As a follower receives it from the leader: offsets and leader epoch assigned. */
    private ByteBuffer replicated(int firstSequence, int records, long baseOffset) {
        ByteBuffer batch = idempotent(firstSequence, records);
        RecordBatch header = new RecordBatch().wrap(batch, 0);
        header.setBaseOffset(baseOffset);
        header.setPartitionLeaderEpoch(1);
        return batch;
    }

    /** Segments of two batches of {@link #appendBatchesOfTwo}: rolls (and snapshots) at offsets 4, 8, ... */
    private LogConfig segmentsOfTwoBatches() {
        return TestLogs.config("segment.bytes", 2 * idempotent(0, 2).remaining());
    }

    /** {@code count} batches of two records, sequences 0, 2, 4, ..., at offsets 0, 2, 4, ... of an empty log. */
    private void appendBatchesOfTwo(PartitionLog log, int count) throws IOException {
        for (int sequence = 0; sequence < 2 * count; sequence += 2) {
            assertThat(log.appendAsLeader(idempotent(sequence, 2), 0).firstOffset()).isEqualTo(sequence);
        }
    }

    private static List<Long> snapshotOffsets(Path dir) throws IOException {
        return new ArrayList<>(ProducerSnapshotFile.list(dir).keySet());
    }

    @Test
    void aLeaderAppendChecksTheSequenceInTheSameStepAndWritesNothingItRefuses() throws IOException {
        PartitionLog log = open(LogConfig.defaults());
        assertThat(log.appendAsLeader(idempotent(0, 2), 0).outcome()).isEqualTo(SequenceCheck.APPEND);
        assertThat(log.appendAsLeader(idempotent(2, 2), 0).firstOffset()).isEqualTo(2);

        AppendInfo duplicate = log.appendAsLeader(idempotent(0, 2), 0);
        assertThat(duplicate.outcome()).isEqualTo(SequenceCheck.DUPLICATE);
        assertThat(duplicate.firstOffset()).isZero();
        assertThat(duplicate.lastOffset()).isEqualTo(1);
        AppendInfo gap = log.appendAsLeader(idempotent(9, 1), 0);
        assertThat(gap.outcome()).isEqualTo(SequenceCheck.OUT_OF_ORDER_SEQUENCE);
        assertThat(gap.refusal()).isEqualTo("Out of order sequence for producer 7 epoch 0 on t-0: batch of sequences "
                + "9..9 after last sequence 3 of epoch 0");
        assertThat(log.logEndOffset()).isEqualTo(4);
    }

    @Test
    void aLeaderAppendWaitsForNothingOnlyOnceTheProducerStateIsLoaded() throws IOException {
        PartitionLog log = open(LogConfig.defaults());
        assertThat(log.tryAppendAsLeader(idempotent(0, 1), 0, true)).as("loading reads the log").isNull();
        assertThat(log.logEndOffset()).isZero();
        log.appendAsLeader(idempotent(0, 1), 0);
        assertThat(log.tryAppendAsLeader(idempotent(1, 1), 0, true).firstOffset()).isEqualTo(1);
        assertThat(log.tryAppendAsLeader(idempotent(1, 1), 0, true).outcome()).isEqualTo(SequenceCheck.DUPLICATE);
    }

    @Test
    void followerAppendsUpdateTheProducerState() throws IOException {
        PartitionLog log = open(LogConfig.defaults());
        assertThat(log.activeProducers()).as("loaded before the follower appends").isEmpty();
        log.appendAsFollower(replicated(0, 2, 0));
        log.appendAsFollower(replicated(2, 3, 2));

        assertThat(log.activeProducers()).singleElement().satisfies(producer -> {
            assertThat(producer.producerId()).isEqualTo(PRODUCER);
            assertThat(producer.lastSequence()).isEqualTo(4);
        });
        // As a new leader: a client's retry of a replicated batch is the duplicate it is.
        AppendInfo retry = log.appendAsLeader(idempotent(2, 3), 1);
        assertThat(retry.outcome()).isEqualTo(SequenceCheck.DUPLICATE);
        assertThat(retry.firstOffset()).isEqualTo(2);
        assertThat(log.appendAsLeader(idempotent(5, 1), 1).firstOffset()).isEqualTo(5);
        assertThat(log.appendAsLeader(idempotent(3, 1), 1).outcome()).isEqualTo(SequenceCheck.OUT_OF_ORDER_SEQUENCE);
    }

    @Test
    void afterATruncationARetryOfACutBatchIsAppendedAgainWhileOneBelowTheCutIsStillADuplicate() throws IOException {
        PartitionLog log = open(segmentsOfTwoBatches());
        appendBatchesOfTwo(log, 5);
        assertThat(snapshotOffsets(dir())).containsExactly(4L, 8L);

        log.truncateTo(4);
        assertThat(snapshotOffsets(dir())).as("the snapshot of a cut segment goes").containsExactly(4L);
        AppendInfo cut = log.appendAsLeader(idempotent(4, 2), 0);
        assertThat(cut.outcome()).as("a retry of a truncated batch is new").isEqualTo(SequenceCheck.APPEND);
        assertThat(cut.firstOffset()).isEqualTo(4);
        AppendInfo kept = log.appendAsLeader(idempotent(2, 2), 0);
        assertThat(kept.outcome()).as("a retry of a batch below the cut").isEqualTo(SequenceCheck.DUPLICATE);
        assertThat(kept.firstOffset()).isEqualTo(2);
        assertThat(log.appendAsLeader(idempotent(8, 2), 0).outcome()).isEqualTo(SequenceCheck.OUT_OF_ORDER_SEQUENCE);

        log.truncateFullyAndStartAt(20);
        assertThat(snapshotOffsets(dir())).isEmpty();
        assertThat(log.activeProducers()).isEmpty();
    }

    @Test
    void recoveryAfterACrashRebuildsTheStateSoThatARetryIsADuplicate() throws IOException {
        LogConfig config = segmentsOfTwoBatches();
        PartitionLog log = open(config);
        appendBatchesOfTwo(log, 6);
        List<LogSegment> segments = log.segments();
        assertThat(segments).extracting(LogSegment::baseOffset).containsExactly(0L, 4L, 8L);
        assertThat(snapshotOffsets(dir())).containsExactly(4L, 8L);
        crash(log);
        // The crash tore the last batch of the segment before the active one: recovery cuts the log to
        // offset 6, so the snapshot at 8 describes batches that are gone.
        corruptLastByte(segments.get(1).logPath());

        PartitionLog recovered = open(config, new LogLoadOptions(0, 0, false));
        assertThat(recovered.logEndOffset()).isEqualTo(6);
        // Every snapshot above the segment recovery started in (0, the recovery point's) is deleted on open, before
        // any load: the replay then rebuilds the state, and any aborted-transaction index entries a crash lost.
        assertThat(snapshotOffsets(dir())).as("deleted on open, before any load").isEmpty();
        AppendInfo retry = recovered.appendAsLeader(idempotent(4, 2), 0);
        assertThat(retry.outcome()).isEqualTo(SequenceCheck.DUPLICATE);
        assertThat(retry.firstOffset()).isEqualTo(4);
        AppendInfo lost = recovered.appendAsLeader(idempotent(6, 2), 0);
        assertThat(lost.outcome()).as("the torn batch was never kept").isEqualTo(SequenceCheck.APPEND);
        assertThat(lost.firstOffset()).isEqualTo(6);
    }

    @Test
    void aCrashBeforeAnyRollIsRecoveredByReplayingTheLog() throws IOException {
        PartitionLog log = open(LogConfig.defaults());
        log.appendAsLeader(idempotent(0, 2), 0);
        log.appendAsLeader(TestLogs.batch("plain", 1, clock.nowMs(), CompressionType.NONE), 0);
        log.appendAsLeader(idempotent(2, 3), 0);
        crash(log);
        assertThat(snapshotOffsets(dir())).isEmpty();

        PartitionLog recovered = open(LogConfig.defaults(), new LogLoadOptions(0, 0, false));
        assertThat(recovered.activeProducers()).extracting(ActiveProducer::lastSequence).containsExactly(4);
        AppendInfo retry = recovered.appendAsLeader(idempotent(0, 2), 0);
        assertThat(retry.outcome()).isEqualTo(SequenceCheck.DUPLICATE);
        assertThat(retry.firstOffset()).isZero();
        assertThat(recovered.appendAsLeader(idempotent(5, 1), 0).firstOffset()).isEqualTo(6);
    }

    @Test
    void aCleanCloseSnapshotsTheStateAndDeletingRecordsDropsTheSnapshotsBelowTheLogStart() throws IOException {
        LogConfig config = segmentsOfTwoBatches();
        PartitionLog log = open(config);
        appendBatchesOfTwo(log, 6);
        log.updateHighWatermark(log.logEndOffset());
        log.deleteRecordsBefore(9);
        assertThat(snapshotOffsets(dir())).as("the newest stays though below the log start").containsExactly(8L);
        log.close();
        opened.remove(log);
        assertThat(snapshotOffsets(dir())).as("at the oldest cached batch within the active segment")
                .containsExactly(8L);

        PartitionLog reopened = open(config, new LogLoadOptions(12, 9, true));
        AppendInfo retry = reopened.appendAsLeader(idempotent(10, 2), 0);
        assertThat(retry.outcome()).isEqualTo(SequenceCheck.DUPLICATE);
        assertThat(retry.firstOffset()).isEqualTo(10);
    }

    private static void corruptLastByte(Path logFile) throws IOException {
        try (FileChannel channel = FileChannel.open(logFile, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer last = ByteBuffer.allocate(1);
            channel.read(last, channel.size() - 1);
            last.put(0, (byte) (last.get(0) ^ 0xFF)).rewind();
            channel.write(last, channel.size() - 1);
        }
    }
}

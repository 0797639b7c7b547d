package dev.spool.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.log.index.AbortedTxn;
import dev.spool.log.index.TransactionIndex;
import dev.spool.log.producer.SequenceCheck;
import dev.spool.log.producer.VerificationGuard;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchBuilder;
import dev.spool.log.record.TxnMarker;
import dev.spool.log.segment.BatchFileReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The partition side of transactions: the last stable offset, the markers a coordinator writes, the
 * aborted-transaction index, and all of it across a restart, a crash and a truncation.
 */
class PartitionLogTransactionsTest {

    private static final long P1 = 11;
    private static final long P2 = 12;
    private static final int COORDINATOR_EPOCH = 3;

    @TempDir
    Path dataDir;
    private final ScheduledExecutorService scheduler = TestLogs.scheduler();
    private final ManualLogClock clock = new ManualLogClock();
    private final List<PartitionLog> opened = new ArrayList<>();
    private final int[] nextSequence = new int[2];

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

    private PartitionLog open() throws IOException {
        return open(LogConfig.defaults(), LogLoadOptions.UNKNOWN);
    }

    /** {@code records} records of producer {@code producerId} (epoch 0), transactional or not, committed at once. */
    private AppendInfo write(PartitionLog log, long producerId, boolean transactional, int records) throws IOException {
        return write(log, producerId, transactional, records, VerificationGuard.NOT_CHECKED);
    }

    /** As {@link #write(PartitionLog, long, boolean, int)}, a leader's append under transaction verification. */
    private AppendInfo write(PartitionLog log, long producerId, boolean transactional, int records,
                             VerificationGuard guard) throws IOException {
        int slot = producerId == P1 ? 0 : 1;
        RecordBatchBuilder builder = new RecordBatchBuilder(CompressionType.NONE)
                .producer(producerId, (short) 0, nextSequence[slot]).transactional(transactional);
        for (int i = 0; i < records; i++) {
            builder.append(clock.nowMs(), null, TestLogs.bytes("p" + producerId + "-" + (nextSequence[slot] + i)));
        }
        AppendInfo info = log.appendAsLeader(builder.build(), 0, true, guard);
        if (info.appended()) {
            nextSequence[slot] += records;
        }
        return info;
    }

    private AppendInfo end(PartitionLog log, long producerId, boolean commit) throws IOException {
        return log.appendTxnMarker(producerId, (short) 0, COORDINATOR_EPOCH, commit, 0, true);
    }

    @Test
    void theLastStableOffsetStopsAtTheOldestOpenTransaction() throws IOException {
        PartitionLog log = open();
        write(log, P1, false, 2);                          // 0-1
        assertThat(log.lastStableOffset()).isEqualTo(2);
        write(log, P1, true, 2);                           // 2-3, P1's transaction opens at 2
        write(log, P2, true, 1);                           // 4, P2's at 4
        assertThat(log.highWatermark()).isEqualTo(5);
        assertThat(log.lastStableOffset()).isEqualTo(2);

        AppendInfo commit = end(log, P1, true);            // 5
        assertThat(commit.firstOffset()).isEqualTo(5);
        assertThat(log.lastStableOffset()).as("P2's transaction is still open").isEqualTo(4);
        end(log, P2, false);                               // 6
        assertThat(log.lastStableOffset()).isEqualTo(7).isEqualTo(log.highWatermark());
        assertThat(log.activeProducers()).allSatisfy(p -> assertThat(p.currentTxnStartOffset()).isEqualTo(-1));
    }

    @Test
    void anEndedTransactionBoundsTheLastStableOffsetUntilItsMarkerIsReplicated() throws IOException {
        PartitionLog log = open();
        write(log, P1, true, 3);                           // 0-2
        log.appendTxnMarker(P1, (short) 0, COORDINATOR_EPOCH, true, 0, false); // 3, high watermark still 3
        assertThat(log.highWatermark()).isEqualTo(3);
        assertThat(log.lastStableOffset()).isZero();
        log.updateHighWatermark(4);
        assertThat(log.lastStableOffset()).isEqualTo(4);
        assertThat(log.lastStableOffsetMetadata().offset()).isEqualTo(4);
    }

    @Test
    void anAbortIsIndexedInKafkasFormatAndFoundByReadersOfTheRangesItOverlaps() throws IOException {
        PartitionLog log = open();
        write(log, P1, true, 2);                           // 0-1
        write(log, P2, true, 2);                           // 2-3
        end(log, P1, false);                               // 4: P2 still open, so the stable offset is 2
        write(log, P1, false, 1);                          // 5
        end(log, P2, true);                                // 6

        AbortedTxn aborted = new AbortedTxn(P1, 0, 4, 2);
        assertThat(log.abortedTransactions(0, 7)).containsExactly(aborted);
        assertThat(log.abortedTransactions(4, 7)).containsExactly(aborted);
        assertThat(log.abortedTransactions(5, 7)).as("marker before the range").isEmpty();
        assertThat(log.abortedTransactions(0, 0)).as("first record not below the bound").isEmpty();

        ByteBuffer file = ByteBuffer.wrap(Files.readAllBytes(dir().resolve("00000000000000000000.txnindex")));
        assertThat(file.remaining()).isEqualTo(TransactionIndex.ENTRY_SIZE_BYTES);
        assertThat(file.getShort()).isZero();
        assertThat(new long[] {file.getLong(), file.getLong(), file.getLong(), file.getLong()})
                .containsExactly(P1, 0, 4, 2);
    }

    @Test
    void theMarkerIsAControlBatchOfTheProducerThatKafkasReadersRecognise() throws IOException {
        PartitionLog log = open();
        write(log, P1, true, 1);
        end(log, P1, false);
        FetchSlice slice = log.read(1, 1 << 20);
        BatchFileReader reader = new BatchFileReader(slice.channel(), slice.position(),
                slice.position() + slice.lengthBytes());
        reader.next();
        RecordBatch marker = reader.batch();
        assertThat(marker.isControl()).isTrue();
        assertThat(marker.isTransactional()).isTrue();
        assertThat(marker.producerId()).isEqualTo(P1);
        assertThat(marker.baseSequence()).isEqualTo(-1);
        assertThat(TxnMarker.of(marker)).isEqualTo(new TxnMarker(false, COORDINATOR_EPOCH));
        Record record = marker.records().get(0);
        assertThat(record.keyBytes()).containsExactly(0, 0, 0, 0);
        assertThat(record.valueBytes()).containsExactly(0, 0, 0, 0, 0, COORDINATOR_EPOCH);
    }

    @Test
    void aProducerInATransactionCannotWriteOutsideIt() throws IOException {
        PartitionLog log = open();
        write(log, P1, true, 1);
        AppendInfo outside = write(log, P1, false, 1);
        assertThat(outside.outcome()).isEqualTo(SequenceCheck.INVALID_TXN_STATE);
        assertThat(outside.refusal()).contains("transaction open on t-0 since offset 0");
        assertThat(log.logEndOffset()).isEqualTo(1);
        end(log, P1, true);
        assertThat(write(log, P1, false, 1).appended()).isTrue();
    }

    @Test
    void aBatchOpensATransactionOnlyWithTheGuardOfAVerificationNoMarkerEnded() throws IOException {
        PartitionLog log = open();
        assertThat(write(log, P1, true, 1, VerificationGuard.NONE).outcome())
                .as("never verified").isEqualTo(SequenceCheck.INVALID_TXN_STATE);
        VerificationGuard first = log.startVerification(P1);
        assertThat(log.startVerification(P1)).as("requests in flight together share it").isSameAs(first);
        assertThat(write(log, P1, true, 1, first).appended()).isTrue();              // 0: opens the transaction
        assertThat(write(log, P1, true, 1, VerificationGuard.NONE).appended())
                .as("joins the open transaction").isTrue();                           // 1
        end(log, P1, true);                                                           // 2

        // The coordinator was asked about the next transaction, and a marker (of the one before) came meanwhile.
        VerificationGuard asked = log.startVerification(P1);
        end(log, P1, false);                                                          // 3
        AppendInfo late = write(log, P1, true, 1, asked);
        assertThat(late.outcome()).isEqualTo(SequenceCheck.INVALID_TXN_STATE);
        assertThat(late.refusal()).contains("a marker ended a transaction meanwhile");
        assertThat(log.logEndOffset()).as("nothing written").isEqualTo(4);
        assertThat(log.lastStableOffset()).as("no transaction opened").isEqualTo(4);

        assertThat(write(log, P1, true, 1, log.startVerification(P1)).appended()).isTrue(); // 4: asked again
        assertThat(write(log, P2, true, 1, VerificationGuard.NOT_CHECKED).appended())
                .as("verification off").isTrue();                                     // 5
        assertThat(log.lastStableOffset()).isEqualTo(4);
    }

    /** One transactional record of {@code producerId} at {@code epoch} and {@code sequence}, committed at once. */
    private AppendInfo writeAtEpoch(PartitionLog log, long producerId, short epoch, int sequence) throws IOException {
        return log.appendAsLeader(new RecordBatchBuilder(CompressionType.NONE).producer(producerId, epoch, sequence)
                .transactional(true).append(clock.nowMs(), null, TestLogs.bytes("e" + epoch)).build(), 0, true);
    }

    @Test
    void aTransactionsV2MarkerMustCarryAnEpochAboveItsTransactionsBatches() throws IOException {
        PartitionLog log = open();
        writeAtEpoch(log, P1, (short) 0, 0);                                                      // 0
        assertThat(log.appendTxnMarker(P1, (short) 1, COORDINATOR_EPOCH, true, true, 0, true).appended())
                .as("the coordinator bumped the epoch at the end").isTrue();                      // 1
        AppendInfo repeated = log.appendTxnMarker(P1, (short) 1, COORDINATOR_EPOCH, true, true, 0, true);
        assertThat(repeated.outcome()).as("a retry of it").isEqualTo(SequenceCheck.DUPLICATE);
        assertThat(repeated.lastOffset()).as("answered once the log up to here is committed").isEqualTo(1);
        assertThat(log.logEndOffset()).isEqualTo(2);

        writeAtEpoch(log, P1, (short) 1, 0);                                                      // 2: the next one
        AppendInfo late = log.appendTxnMarker(P1, (short) 1, COORDINATOR_EPOCH, false, true, 0, true);
        assertThat(late.outcome()).as("a late copy of the last marker must not end it")
                .isEqualTo(SequenceCheck.INVALID_PRODUCER_EPOCH);
        assertThat(late.refusal()).contains("must carry a later one");
        assertThat(log.lastStableOffset()).as("still open").isEqualTo(2);
        assertThat(log.appendTxnMarker(P1, (short) 2, COORDINATOR_EPOCH, false, true, 0, true).appended()).isTrue();
        assertThat(log.lastStableOffset()).isEqualTo(4);

        writeAtEpoch(log, P2, (short) 0, 0);                                                      // 4
        assertThat(end(log, P2, true).appended()).as("transactions v1: the marker keeps the epoch").isTrue();
    }

    @Test
    void markersOfAnOlderEpochOrAnOlderCoordinatorAreRefused() throws IOException {
        PartitionLog log = open();
        write(log, P1, true, 1);
        assertThat(log.appendTxnMarker(P1, (short) 1, COORDINATOR_EPOCH, true, 0, true).appended()).isTrue();
        AppendInfo zombie = log.appendTxnMarker(P1, (short) 0, COORDINATOR_EPOCH, false, 0, true);
        assertThat(zombie.outcome()).isEqualTo(SequenceCheck.INVALID_PRODUCER_EPOCH);
        AppendInfo oldCoordinator = log.appendTxnMarker(P1, (short) 1, COORDINATOR_EPOCH - 1, false, 0, true);
        assertThat(oldCoordinator.outcome()).isEqualTo(SequenceCheck.TRANSACTION_COORDINATOR_FENCED);
        assertThat(log.logEndOffset()).isEqualTo(2);
        // The bumped epoch starts its sequences again (transactions v2 bump it at each end).
        RecordBatchBuilder next = new RecordBatchBuilder(CompressionType.NONE).producer(P1, (short) 1, 0)
                .transactional(true).append(clock.nowMs(), null, TestLogs.bytes("v"));
        assertThat(log.appendAsLeader(next.build(), 0, true).appended()).isTrue();
    }

    @Test
    void aCoordinatorsBatchForAFencedProducerIsRefused() throws IOException {
        PartitionLog log = open();
        ByteBuffer commits = new RecordBatchBuilder(CompressionType.NONE).producer(P1, (short) 0, -1)
                .transactional(true).append(clock.nowMs(), null, TestLogs.bytes("offsets")).build();
        assertThat(log.appendAsCoordinator(commits, 0, true).appended()).as("no sequence needed").isTrue();
        log.appendTxnMarker(P1, (short) 1, COORDINATOR_EPOCH, false, 0, true); // the producer fenced at epoch 1
        ByteBuffer zombie = new RecordBatchBuilder(CompressionType.NONE).producer(P1, (short) 0, -1)
                .transactional(true).append(clock.nowMs(), null, TestLogs.bytes("zombie")).build();
        AppendInfo refused = log.appendAsCoordinator(zombie, 0, true);
        assertThat(refused.outcome()).isEqualTo(SequenceCheck.INVALID_PRODUCER_EPOCH);
        assertThat(log.logEndOffset()).isEqualTo(2);
        assertThat(log.lastStableOffset()).as("no transaction left open by the zombie").isEqualTo(2);
    }

    @Test
    void anOpenTransactionAndTheAbortIndexSurviveACleanRestart() throws IOException {
        PartitionLog log = open();
        write(log, P1, true, 2);                           // 0-1
        end(log, P1, false);                               // 2
        write(log, P2, true, 2);                           // 3-4, open
        log.close();
        opened.remove(log);

        PartitionLog reopened = open(LogConfig.defaults(), LogLoadOptions.UNKNOWN);
        assertThat(reopened.lastStableOffset()).as("unknown until the producer state is loaded").isEqualTo(-1);
        assertThat(reopened.lastStableOffsetMetadata()).isNull();
        reopened.loadProducerState();
        assertThat(reopened.lastStableOffset()).isEqualTo(3);
        assertThat(reopened.abortedTransactions(0, 5)).containsExactly(new AbortedTxn(P1, 0, 2, 3));
    }

    @Test
    void aCrashThatLostTheAbortIndexRebuildsItFromTheMarkers() throws IOException {
        PartitionLog log = open(TestLogs.config("segment.bytes", 400), LogLoadOptions.UNKNOWN);
        for (int i = 0; i < 6; i++) {                      // several segments, each rolled with a snapshot
            write(log, P1, true, 3);
            end(log, P1, i % 2 == 0);
        }
        List<AbortedTxn> before = log.abortedTransactions(0, log.logEndOffset());
        assertThat(before).hasSize(3);
        assertThat(log.segments()).hasSizeGreaterThan(2);
        log.closeAfterFailure();
        opened.remove(log);
        try (var files = Files.list(dir())) {
            for (Path file : files.filter(f -> f.toString().endsWith(".txnindex")).toList()) {
                Files.delete(file);                         // as if the page cache never wrote them back
            }
        }

        PartitionLog recovered = open(TestLogs.config("segment.bytes", 400), LogLoadOptions.UNKNOWN);
        recovered.loadProducerState();
        assertThat(recovered.abortedTransactions(0, recovered.logEndOffset())).isEqualTo(before);
    }

    @Test
    void aTruncationForgetsTheAbortsAndTheTransactionsItCutAway() throws IOException {
        PartitionLog log = open();
        write(log, P1, true, 2);                           // 0-1
        end(log, P1, false);                               // 2
        write(log, P1, true, 2);                           // 3-4
        end(log, P1, false);                               // 5
        log.truncateTo(4);                                 // the second transaction is open again, from 3
        log.updateHighWatermark(4);
        log.loadProducerState();
        assertThat(log.abortedTransactions(0, 4)).containsExactly(new AbortedTxn(P1, 0, 2, 3));
        assertThat(log.lastStableOffset()).isEqualTo(3);
        ByteBuffer file = ByteBuffer.wrap(Files.readAllBytes(dir().resolve("00000000000000000000.txnindex")));
        assertThat(file.remaining()).isEqualTo(TransactionIndex.ENTRY_SIZE_BYTES);
    }
}

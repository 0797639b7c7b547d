package dev.spool.log;

import dev.spool.log.producer.ActiveProducer;
import dev.spool.log.producer.CompletedTxn;
import dev.spool.log.producer.ProducerSnapshots;
import dev.spool.log.producer.ProducerStateEntry;
import dev.spool.log.producer.ProducerStateManager;
import dev.spool.log.producer.SequenceCheck;
import dev.spool.log.producer.Sequences;
import dev.spool.log.producer.TransactionVerifications;
import dev.spool.log.producer.UnstableOffsets;
import dev.spool.log.producer.VerificationGuard;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchLayout;
import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not thread-safe: guarded by the lock of the {@link PartitionLog} that owns it, which calls it in the same
 * locked step as each append, roll, truncation, retention and close, as Kafka's {@code UnifiedLog} does with
 * its {@code ProducerStateManager}. The producer state of one partition (idempotence and transactions: the
 * open ones bound the last stable offset, the aborted ones go to the segments' {@code .txnindex}) and its
 * snapshot files.
 *
 * <p>Invariant: the state is either not loaded, or up to date with the log end offset. It is loaded lazily,
 * by the first append or DescribeProducers ({@link ProducerStateLoader}: the newest snapshot, then the log
 * after it), so that opening 10,000 partitions reads nothing per partition; a truncation drops it (and the
 * snapshots above the new end) and the next use loads it again. Snapshots are written at each roll (named
 * by the new segment's base offset, as Kafka does) and at clean close.
 */
final class LogProducerState {

    private static final Logger LOG = LoggerFactory.getLogger(LogProducerState.class);

    private final PartitionLog log;
    private final ProducerSnapshots snapshots;
    private final LogClock clock;
    private final long producerIdExpirationMs;
    /** Null until loaded, and again after a truncation. */
    private ProducerStateManager state;
    /** What bounds the last stable offset, for readers without the lock; null while the state is not loaded. */
    private volatile UnstableOffsets unstable;
    private final TransactionVerifications verifications = new TransactionVerifications();

    LogProducerState(PartitionLog log, ProducerSnapshots snapshots, LogClock clock, long producerIdExpirationMs) {
        this.log = log;
        this.snapshots = snapshots;
        this.clock = clock;
        this.producerIdExpirationMs = producerIdExpirationMs;
    }

    boolean isLoaded() {
        return state != null;
    }

    void ensureLoaded() throws IOException {
        if (state == null) {
            state = ProducerStateLoader.load(log, snapshots, this::onEnded);
            publishUnstable();
        }
    }

    boolean hasOpenTransaction(long producerId, short producerEpoch) {
        ProducerStateEntry entry = state == null ? null : state.producer(producerId);
        return entry != null && entry.inTransaction() && entry.producerEpoch() == producerEpoch;
    }

    /** A leader is about to ask {@code producerId}'s coordinator about a batch that would open a transaction here. */
    VerificationGuard startVerification(long producerId) {
        return verifications.start(producerId);
    }

    /**
     * Null if {@code batch} (checked by {@link #check}) may be written as far as transaction verification goes, else
     * the refusal: a transactional batch that would open its producer's transaction here needs the guard still out
     * for it (loaded state).
     */
    AppendInfo verificationRefusal(RecordBatch batch, VerificationGuard guard) {
        if (guard == VerificationGuard.NOT_CHECKED || !batch.isTransactional()) {
            return null;
        }
        long producerId = batch.producerId();
        ProducerStateEntry entry = state.producer(producerId);
        if (entry != null && entry.inTransaction() || verifications.holds(producerId, guard)) {
            return null;
        }
        return AppendInfo.refused(SequenceCheck.INVALID_TXN_STATE, "Producer " + producerId + " has no transaction open"
                + " on " + log.dir().getFileName() + " that its coordinator confirmed: the batch would open one ("
                + (guard == VerificationGuard.NONE ? "it was not verified" : "a marker ended a transaction meanwhile")
                + ")");
    }

    /** The transactions that bound the last stable offset, or null while not loaded (then unknown). */
    UnstableOffsets unstable() {
        return unstable;
    }

    private void publishUnstable() {
        unstable = state.unstableOffsets(log.highWatermark());
    }

    /** A marker ended a transaction: an aborted one is indexed in the segment holding the marker. */
    private void onEnded(CompletedTxn txn) throws IOException {
        if (txn.aborted()) {
            log.segmentHolding(txn.lastOffset()).txnIndex().append(txn.asAborted());
        }
    }

    /**
     * The idempotence rules for {@code batch}, a leader's batch from a client with a producer id (loaded
     * state). After anything but {@link SequenceCheck#APPEND}, {@link #refusal} describes the answer.
     */
    SequenceCheck check(RecordBatch batch) {
        int firstSequence = batch.baseSequence();
        return state.check(batch.producerId(), batch.producerEpoch(), firstSequence,
                Sequences.lastSequence(firstSequence, batch.lastOffsetDelta()), batch.isTransactional());
    }

    /** Only the epoch rule, for a batch a coordinator writes on the producer's behalf (loaded state). */
    SequenceCheck checkEpoch(RecordBatch batch) {
        ProducerStateEntry entry = state.producer(batch.producerId());
        return entry != null && batch.producerEpoch() < entry.producerEpoch() ? SequenceCheck.INVALID_PRODUCER_EPOCH
                : SequenceCheck.APPEND;
    }

    /**
     * The rules for a marker a leader writes for a coordinator (loaded state); null if it may be written. A repeat of
     * the marker last written is answered as a duplicate ending at the log end, so that its answer waits until
     * everything up to there, the marker written before among it, is committed.
     */
    AppendInfo markerRefusal(long producerId, short epoch, int coordinatorEpoch, boolean epochBumped) {
        SequenceCheck check = state.checkMarker(producerId, epoch, coordinatorEpoch, epochBumped);
        ProducerStateEntry entry = state.producer(producerId);
        String partition = log.dir().getFileName().toString();
        return switch (check) {
            case APPEND -> null;
            case DUPLICATE -> AppendInfo.duplicate(log.logEndOffset() - 1, log.logEndOffset() - 1,
                    RecordBatchLayout.NO_TIMESTAMP, false, log.logStartOffset());
            case INVALID_PRODUCER_EPOCH -> AppendInfo.refused(check, "Marker epoch " + epoch + " of producer "
                    + producerId + (epoch == entry.producerEpoch()
                            ? " is the epoch of its transaction open on " + partition + ": a transactions v2 marker "
                            + "must carry a later one"
                            : " is older than its current epoch " + entry.producerEpoch() + " on " + partition));
            case TRANSACTION_COORDINATOR_FENCED -> AppendInfo.refused(check, "Marker of coordinator epoch "
                    + coordinatorEpoch + " for producer " + producerId + " is older than the coordinator epoch "
                    + entry.coordinatorEpoch() + " of its last marker on " + partition);
            default -> throw new IllegalStateException("Unexpected marker check " + check);
        };
    }

    /**
     * What the log answers for a batch {@link #check} did not let in: a duplicate's original offsets and
     * timestamp (its append time under LogAppendTime), or the error with its explanation.
     */
    AppendInfo refusal(SequenceCheck check, RecordBatch batch, boolean logAppendTime, long logStartOffset) {
        long producerId = batch.producerId();
        short epoch = batch.producerEpoch();
        String partition = log.dir().getFileName().toString();
        ProducerStateEntry entry = state.producer(producerId);
        return switch (check) {
            case DUPLICATE -> AppendInfo.duplicate(state.duplicateFirstOffset(), state.duplicateLastOffset(),
                    state.duplicateTimestampMs(), logAppendTime, logStartOffset);
            case INVALID_PRODUCER_EPOCH -> AppendInfo.refused(check, "Epoch " + epoch + " of producer " + producerId
                    + " is older than its current epoch " + entry.producerEpoch() + " on " + partition);
            case OUT_OF_ORDER_SEQUENCE -> AppendInfo.refused(check, "Out of order sequence for producer " + producerId
                    + " epoch " + epoch + " on " + partition + ": batch of sequences " + batch.baseSequence() + ".."
                    + Sequences.lastSequence(batch.baseSequence(), batch.lastOffsetDelta()) + " after last sequence "
                    + entry.lastSequence() + " of epoch " + entry.producerEpoch());
            case INVALID_TXN_STATE -> AppendInfo.refused(check, "Producer " + producerId + " has a transaction open on "
                    + partition + " since offset " + entry.currentTxnFirstOffset()
                    + ": a batch outside it is refused until it ends");
            case APPEND, TRANSACTION_COORDINATOR_FENCED ->
                    throw new IllegalArgumentException("No refusal of a batch: " + check);
        };
    }

    /**
     * A batch was written (by a leader or a follower): its producer, if any, and the map end move on; a marker
     * ends its transaction (an aborted one is indexed).
     */
    void onAppended(RecordBatch batch) throws IOException {
        if (batch.isTransactional()) {
            verifications.forget(batch.producerId()); // it opened the producer's transaction, or a marker ended one
        }
        if (state == null) {
            return; // not loaded: the load replays this batch
        }
        CompletedTxn ended = state.replay(batch);
        if (ended != null) {
            onEnded(ended);
        }
        if (batch.isTransactional()) {
            publishUnstable();
        }
    }


    /**
     * A segment is rolled at {@code baseOffset}, with every batch below it applied: the state is snapshotted
     * there, as Kafka does at every roll, so that a recovery replays at most the segments after it.
     */
    void onRoll(long baseOffset) {
        if (state == null) {
            return; // the next load replays from an older snapshot; nothing of this state is lost
        }
        state.advanceTo(baseOffset);
        state.removeExpired(clock.nowMs(), producerIdExpirationMs);
        try {
            snapshots.write(baseOffset, state.snapshotEntriesAsOf(baseOffset));
            snapshots.deleteBelow(log.logStartOffset());
        } catch (IOException e) {
            // The roll goes on: a missing snapshot only makes the next load replay more of the log.
            LOG.error("Cannot write the producer snapshot of {} at its roll to offset {}", log.dir(), baseOffset, e);
        }
    }

    /**
     * The log was cut to end at {@code newEndOffset}: the state may hold batches that are gone, so it is
     * dropped, with the snapshots above the new end, and loaded again on next use (Kafka reloads it too).
     * A retry of a truncated batch is then appended again, while one below the cut is still a duplicate.
     */
    void onTruncated(long newEndOffset) throws IOException {
        verifications.clear();
        state = null;
        unstable = null;
        snapshots.deleteAbove(newEndOffset);
    }

    /** The log was emptied to start again at some offset: no snapshot describes it any more. */
    void onTruncatedFully() throws IOException {
        onTruncated(-1);
    }

    /** The log start offset moved up: the snapshots of deleted segments go (the newest stays). */
    void onLogStartMoved(long logStartOffset) throws IOException {
        snapshots.deleteBelow(logStartOffset);
    }

    /**
     * Forgets producers whose last batch is older than {@code producer.id.expiration.ms}, judged by the
     * batch's max timestamp as Kafka does; returns how many. Nothing to do while not loaded.
     */
    int removeExpired() {
        return state == null ? 0 : state.removeExpired(clock.nowMs(), producerIdExpirationMs);
    }

    /** The active producers, loading the state if needed and forgetting the expired ones first. */
    List<ActiveProducer> activeProducers() throws IOException {
        ensureLoaded();
        removeExpired();
        return state.activeProducers();
    }

    /**
     * The clean-close snapshot, taken not at the log end but at the first offset of the oldest batch still
     * cached for any producer within the active segment, so that the next start replays those batches
     * and every producer gets back up to {@link ProducerStateEntry#MAX_CACHED_BATCHES} of them: a retry
     * of any request that was in flight at shutdown is then answered as the duplicate it is. Kafka's
     * snapshot format holds one batch a producer, and Kafka snapshots at the log end, so after its clean
     * restart only the last batch is recognised and a retry of an earlier one is OUT_OF_ORDER_SEQUENCE;
     * the file here stays in Kafka's format and valid for Kafka (a snapshot below the log end, which
     * Kafka's loader replays from too). The replay is bounded by the active segment (the most a crash
     * recovery replays anyway); a producer whose batches lie before it keeps only its last one. Later
     * snapshots (of an earlier run's shutdown) are deleted: the loader would prefer them.
     */
    void onClose(long logEndOffset, long activeSegmentBaseOffset) throws IOException {
        if (state == null) {
            return; // never loaded: the snapshots on disk are as good as they were
        }
        state.advanceTo(logEndOffset);
        state.removeExpired(clock.nowMs(), producerIdExpirationMs);
        long offset = state.cachedBatchesStartOffset(activeSegmentBaseOffset);
        if (state.hasTransactionStateFrom(offset)) {
            offset = logEndOffset; // as Kafka: transaction state is only known as of the log end
        }
        snapshots.deleteAbove(offset);
        snapshots.write(offset, state.snapshotEntriesAsOf(offset));
        snapshots.deleteBelow(log.logStartOffset());
    }

    /** Whether a batch carries a producer whose sequence a leader checks (markers carry none). */
    static boolean isIdempotent(RecordBatch batch) {
        return batch.producerId() != RecordBatchLayout.NO_PRODUCER_ID && !batch.isControl();
    }
}

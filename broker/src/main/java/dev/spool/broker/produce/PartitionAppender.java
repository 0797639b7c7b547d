package dev.spool.broker.produce;

import dev.spool.broker.DeliberateFault;
import dev.spool.broker.metadata.PartitionImage;
import dev.spool.broker.partition.Partition;
import dev.spool.broker.purgatory.WaitTimer;
import dev.spool.log.AppendInfo;
import dev.spool.log.LogClock;
import dev.spool.log.LogConfig;
import dev.spool.log.LogDirOfflineException;
import dev.spool.log.LogMovedException;
import dev.spool.log.PartitionLog;
import dev.spool.log.producer.ActiveProducer;
import dev.spool.log.producer.VerificationGuard;
import dev.spool.log.record.RecordBatch;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ProduceResponseData.PartitionProduceResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thread-safe: every method runs its work on this partition's {@link SerialExecutor}, so the appends of
 * one partition are validated and written one at a time. An append runs on the calling network thread
 * when the executor is idle and the append can wait on nothing but its write to the page cache (see
 * {@link #append}); everything else runs on the io threads, off the network threads.
 *
 * <p>What a client's batch goes through before the log: the in-sync replicas acks=all needs, validation,
 * recompression for the topic's {@code compression.type}; then the log checks the idempotent producer's
 * sequence, appends and records it in one locked step ({@link PartitionLog#appendAsLeader}, which owns the
 * producer state and its snapshots), and this class turns the outcome into the partition's answer.
 */
public final class PartitionAppender {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionAppender.class);
    private static final short ACKS_ALL = -1;
    /** The transaction version whose coordinator bumps the producer's epoch at each end (KIP-890). */
    private static final int TRANSACTIONS_V2 = 2;

    /**
     * What an append did: the answer, and the offset after the batch it wrote (or duplicated), which acks=all
     * waits for the high watermark of {@code leaderEpoch} (the leadership it was written in) to reach; -1 when
     * there is nothing to wait for.
     */
    private record Appended(PartitionProduceResponse answer, long commitOffset, int leaderEpoch) {
        static Appended failed(PartitionProduceResponse answer) {
            return new Appended(answer, -1, -1);
        }
    }

    private final Partition partition;
    /** Whether this broker leads a partition so assigned (and serves as leader yet). */
    private final Predicate<PartitionImage> leads;
    private final SerialExecutor queue;
    private final LogClock clock;
    private final WaitTimer waits;
    private final ProduceBatchValidator validator = new ProduceBatchValidator();
    private final TxnMarkerListener markerListener;
    private boolean closed;

    PartitionAppender(Partition partition, Predicate<PartitionImage> leads, SerialExecutor queue, LogClock clock,
                      WaitTimer waits) {
        this(partition, leads, queue, clock, waits, TxnMarkerListener.NONE);
    }

    PartitionAppender(Partition partition, Predicate<PartitionImage> leads, SerialExecutor queue, LogClock clock,
                      WaitTimer waits, TxnMarkerListener markerListener) {
        this.partition = partition;
        this.leads = leads;
        this.queue = queue;
        this.clock = clock;
        this.waits = waits;
        this.markerListener = markerListener;
    }

    public Partition partition() {
        return partition;
    }

    /**
     * Validates and appends the records a client sent for this partition (Produce v3+: one batch,
     * modified in place: offsets, leader epoch, maybe LogAppendTime) and answers with the partition's
     * part of the produce response. With {@code acks} -1 the in-sync
     * replica set (as the metadata image has it) must reach the effective {@code min.insync.replicas} (see
     * {@link #effectiveMinInsyncReplicas}), else NOT_ENOUGH_REPLICAS and nothing is written, as in Kafka; the
     * answer then waits for the batch to be committed, for at most {@code timeoutMs} (see {@link DelayedProduce}).
     *
     * <p>Design note: the append runs here, on the calling network thread, when nothing of this partition
     * is queued or running and the append can wait on nothing but its write to the page cache (see
     * {@link #appendNow}); the answer is then complete on return. A hand-off to an io thread and back
     * costs two thread wake-ups, more CPU than the append itself for a request of one small batch. No
     * fsync and no wait for another thread happens on a network thread this way. The write to the page
     * cache is I/O as the network threads' sendfile reads are, and like them it can still sleep in the
     * kernel: when the disk falls behind, Linux throttles writers of dirty pages, and the network thread
     * with them (the io threads would stall as well then, but the connections on that network thread
     * would not).
     */
    public CompletableFuture<PartitionProduceResponse> append(ByteBuffer records, short produceVersion, short acks,
                                                              long timeoutMs) {
        return append(records, produceVersion, acks, timeoutMs, VerificationGuard.NOT_CHECKED);
    }

    /**
     * As {@link #append(ByteBuffer, short, short, long)} under transaction verification: a batch that would open its
     * producer's transaction here is written only with the {@code guard} of the coordinator's confirmation (see
     * {@link PartitionLog#appendAsLeader(ByteBuffer, int, boolean, VerificationGuard)}).
     */
    public CompletableFuture<PartitionProduceResponse> append(ByteBuffer records, short produceVersion, short acks,
                                                              long timeoutMs, VerificationGuard guard) {
        int index = partition.topicPartition().partition();
        Appended here = queue.callHereIfIdle(() -> appendNow(records, produceVersion, acks, false, guard));
        if (here != null) {
            return answer(here, acks, timeoutMs, index);
        }
        return appendOnIoThreads(records, produceVersion, acks, timeoutMs, guard);
    }

    /**
     * As {@link #append}, always on the io threads: for a caller that is no network thread (an append that waited for
     * the transaction coordinator's answer, on the thread that brought it).
     */
    public CompletableFuture<PartitionProduceResponse> appendOnIoThreads(ByteBuffer records, short produceVersion,
                                                                         short acks, long timeoutMs,
                                                                         VerificationGuard guard) {
        int index = partition.topicPartition().partition();
        return CompletableFuture.supplyAsync(() -> appendNow(records, produceVersion, acks, true, guard), queue)
                .thenCompose(appended -> answer(appended, acks, timeoutMs, index));
    }

    /**
     * The answer of an append: at once, unless acks=all waits for the batch's commit (the high watermark
     * reaching the offset after it), parked as a {@link DelayedProduce} for at most {@code timeoutMs}.
     */
    private CompletableFuture<PartitionProduceResponse> answer(Appended appended, short acks, long timeoutMs, int index) {
        PartitionProduceResponse response = appended.answer().setIndex(index);
        if (acks != ACKS_ALL || appended.commitOffset() < 0 // failed: nothing to wait for
                || appended.commitOffset() <= partition.highWatermarkIn(appended.leaderEpoch())
                || DeliberateFault.is(DeliberateFault.ACKS_ALL_BEFORE_ISR)) {
            return CompletableFuture.completedFuture(response);
        }
        int minInsyncReplicas = partition.minInsyncReplicas();
        DelayedProduce delayed = new DelayedProduce(partition, appended.commitOffset(), appended.leaderEpoch(),
                minInsyncReplicas, response);
        delayed.park(waits, timeoutMs);
        // Its answer when the batch is not committed (the leadership moved, the timeout ran out...) is made then,
        // and must name this partition too: the client matches answers to its batches by partition index.
        return delayed.answer().thenApply(answer -> answer.setIndex(index));
    }

    /**
     * Writes the marker ending producer {@code producerId}'s transaction (WriteTxnMarkers, from its coordinator at
     * {@code coordinatorEpoch}; {@code commitTxn} COMMIT, else ABORT) on the io threads, after the appends queued
     * before it, and answers once the marker is committed (as an acks=all batch, for at most {@code timeoutMs}):
     * NONE, or why not (NOT_LEADER_OR_FOLLOWER, INVALID_PRODUCER_EPOCH, TRANSACTION_COORDINATOR_FENCED, ...).
     * {@code transactionVersion} 2 applies the rules of transactions v2 (see
     * {@link PartitionLog#appendTxnMarker(long, short, int, boolean, boolean, int, boolean)}).
     */
    public CompletableFuture<Errors> appendTxnMarker(long producerId, short producerEpoch, int coordinatorEpoch,
                                                     boolean commitTxn, int transactionVersion, long timeoutMs) {
        boolean epochBumped = transactionVersion >= TRANSACTIONS_V2;
        return CompletableFuture.supplyAsync(() -> appendMarkerNow(producerId, producerEpoch, coordinatorEpoch,
                commitTxn, epochBumped), queue)
                .thenCompose(appended -> answer(appended, ACKS_ALL, timeoutMs, partition.topicPartition().partition()))
                .thenApply(answer -> {
                    Errors error = Errors.forCode(answer.errorCode());
                    if (error == Errors.NONE) {
                        markerListener.onMarker(partition.topicPartition(), producerId, commitTxn);
                    }
                    return error;
                });
    }

    private Appended appendMarkerNow(long producerId, short producerEpoch, int coordinatorEpoch, boolean commitTxn,
                                     boolean epochBumped) {
        try {
            if (closed) {
                return Appended.failed(error(Errors.NOT_LEADER_OR_FOLLOWER, "The broker is shutting down"));
            }
            return partition.withAssignment(assignment -> writeAsLeaderOf(assignment, (log, leaderEpoch, commit) ->
                    log.appendTxnMarker(producerId, producerEpoch, coordinatorEpoch, commitTxn, epochBumped,
                            leaderEpoch, commit)));
        } catch (LogDirOfflineException e) {
            return Appended.failed(error(Errors.KAFKA_STORAGE_ERROR, e.getMessage()));
        } catch (IOException e) {
            LOG.warn("Marker append to {} failed: {}", partition, e.toString());
            return Appended.failed(error(Errors.KAFKA_STORAGE_ERROR, "Append failed: " + e.getMessage()));
        } catch (IllegalStateException e) {
            return Appended.failed(error(Errors.NOT_LEADER_OR_FOLLOWER, e.getMessage()));
        }
    }

    /**
     * The partition's producers (for DescribeProducers), as of the appends before; on the io threads, since
     * the log may load its producer state first.
     */
    public CompletableFuture<List<ActiveProducer>> producers() {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return partition.log().activeProducers();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, queue);
    }

    /**
     * Shutdown: appends queued before this one complete; any later one is answered NOT_LEADER_OR_FOLLOWER.
     * The log writes its producer snapshot when it is closed, after this.
     */
    public CompletableFuture<Void> close() {
        return CompletableFuture.runAsync(() -> closed = true, queue);
    }

    /**
     * The append. With {@code mayWait} false it returns null, having changed nothing, where it could wait
     * on more than a write to the page cache: inflating a compressed batch to validate it or compressing one
     * for the topic's {@code compression.type} (CPU time bounded only by the batch size and the inflation
     * limit), or what {@link PartitionLog#tryAppendAsLeader} refuses (among them loading the producer state,
     * which reads the log, and a roll, which writes the producer snapshot).
     */
    private Appended appendNow(ByteBuffer records, short produceVersion, short acks, boolean mayWait,
                               VerificationGuard guard) {
        try {
            if (closed) {
                return Appended.failed(error(Errors.NOT_LEADER_OR_FOLLOWER, "The broker is shutting down"));
            }
            if (partition.isOffline()) {
                return Appended.failed(error(Errors.KAFKA_STORAGE_ERROR, "The log dir of " + partition.topicPartition() + " is offline"));
            }
            // Read once: a config change meanwhile cannot make this append compress on a network thread.
            LogConfig config = partition.log().config();
            if (!mayWait && (RecordBatch.isCompressedAt(records, records.position()) || Recompression.compresses(config))) {
                return null;
            }
            // Kafka checks the in-sync replicas before it looks at the records.
            PartitionImage assignment = partition.assignment();
            int minInsyncReplicas = Partition.effectiveMinInsyncReplicas(config.minInsyncReplicas, assignment.replicas().size());
            int inSyncReplicas = assignment.isr().size();
            if (acks == ACKS_ALL && inSyncReplicas < minInsyncReplicas) {
                LOG.debug("Refused an acks=all batch for {}: {} in-sync replicas, fewer than min.insync.replicas = {}",
                        partition, inSyncReplicas, minInsyncReplicas);
                // No message, as Kafka's: its clients then print the error's own text ("Messages are rejected since
                // there are fewer in-sync replicas than required."), and the console producer prints no "Error Message:".
                return Appended.failed(error(Errors.NOT_ENOUGH_REPLICAS, null));
            }
            Rejection rejection = validator.validate(records, produceVersion, config, clock.nowMs());
            if (rejection != null) {
                LOG.debug("Refused a batch for {}: {} {}", partition, rejection.error(), rejection.message());
                return Appended.failed(error(rejection.error(), rejection.message()).setRecordErrors(rejection.recordErrors()));
            }
            RecordBatch batch = validator.batch();
            ByteBuffer stored = records;
            if (Recompression.needed(batch, config.finalCompression)) {
                stored = Recompression.rebuild(batch, config);
                Rejection tooLarge = ProduceBatchValidator.checkSize(stored.remaining(), config);
                if (tooLarge != null) {
                    return Appended.failed(error(tooLarge.error(), "Recompressed for compression.type " + config.compressionType() + ": "
                            + tooLarge.message()));
                }
            }
            return write(stored, mayWait, guard);
        } catch (LogDirOfflineException e) {
            // The dir failed under this append (the failure itself was logged once, with its cause).
            return Appended.failed(error(Errors.KAFKA_STORAGE_ERROR, e.getMessage()));
        } catch (IOException e) {
            if (partition.isOffline()) {
                // this error took the dir offline: the log manager logged it with its cause
                LOG.warn("Append to {} failed: {}", partition, e.toString());
            } else {
                LOG.error("Append to {} failed", partition, e);
            }
            return Appended.failed(error(Errors.KAFKA_STORAGE_ERROR, "Append failed: " + e.getMessage()));
        } catch (IllegalStateException e) {
            // The log was closed under us: the topic is being deleted.
            return Appended.failed(error(Errors.NOT_LEADER_OR_FOLLOWER, e.getMessage()));
        } catch (RuntimeException e) {
            // A bug, not bad input (validation answers that): this partition fails, the others go on.
            LOG.error("Append to {} failed unexpectedly", partition, e);
            return Appended.failed(error(Errors.UNKNOWN_SERVER_ERROR, "Append failed: " + e));
        }
    }

    /**
     * Appends a validated batch (the log checks and records its producer in the same step) and, if it was
     * written, wakes whoever waits for data; with {@code mayWait} false, null if the log refuses to append
     * without waiting. A duplicate is answered as its original was, with its offsets.
     */
    private Appended write(ByteBuffer records, boolean mayWait, VerificationGuard guard) throws IOException {
        return partition.withAssignment(assignment -> writeAsLeaderOf(assignment, (log, leaderEpoch, commit) ->
                mayWait ? log.appendAsLeader(records, leaderEpoch, commit, guard)
                        : log.tryAppendAsLeader(records, leaderEpoch, commit, guard)));
    }

    /** A leader's append to {@code log} in {@code leaderEpoch}; null if it refused to wait (see {@link #appendNow}). */
    @FunctionalInterface
    private interface LeaderAppend {
        AppendInfo to(PartitionLog log, int leaderEpoch, boolean commit) throws IOException;
    }

    /** {@link #write}, with {@code assignment} held still: only if this broker leads it, in its epoch. */
    private Appended writeAsLeaderOf(PartitionImage assignment, LeaderAppend append) throws IOException {
        if (!leads.test(assignment)) {
            // The leadership ended after the request was checked: nothing written, the client asks again.
            return Appended.failed(error(Errors.NOT_LEADER_OR_FOLLOWER,
                    "This broker no longer leads " + partition.topicPartition()));
        }
        // The leader alone in sync (one broker): the append commits, and acks=all has nothing to wait for.
        boolean commit = partition.commitsOnAppend();
        AppendInfo info;
        while (true) {
            PartitionLog log = partition.log();
            try {
                info = append.to(log, assignment.leaderEpoch(), commit);
                break;
            } catch (LogMovedException e) {
                // moved to another log dir while this append waited for its lock: nothing was written; again there
            }
        }
        if (info == null) {
            return null;
        }
        Errors refused = switch (info.outcome()) {
            case APPEND, DUPLICATE -> Errors.NONE;
            case INVALID_PRODUCER_EPOCH -> Errors.INVALID_PRODUCER_EPOCH;
            case OUT_OF_ORDER_SEQUENCE -> Errors.OUT_OF_ORDER_SEQUENCE_NUMBER;
            case INVALID_TXN_STATE -> Errors.INVALID_TXN_STATE;
            case TRANSACTION_COORDINATOR_FENCED -> Errors.TRANSACTION_COORDINATOR_FENCED;
        };
        if (refused != Errors.NONE) {
            return Appended.failed(error(refused, info.refusal()));
        }
        if (info.appended()) {
            partition.notifyAppended();
        }
        return new Appended(new PartitionProduceResponse()
                .setErrorCode(Errors.NONE.code())
                .setBaseOffset(info.firstOffset())
                .setLogAppendTimeMs(info.logAppendTimeMs())
                .setLogStartOffset(info.logStartOffset()), info.lastOffset() + 1, assignment.leaderEpoch());
    }

    static PartitionProduceResponse error(Errors error, String message) {
        return new PartitionProduceResponse()
                .setErrorCode(error.code())
                .setErrorMessage(message)
                .setBaseOffset(-1)
                .setLogAppendTimeMs(-1)
                .setLogStartOffset(-1);
    }

    @Override
    public String toString() {
        return "PartitionAppender(" + partition + ")";
    }
}

package dev.spool.broker.produce;

import dev.spool.broker.partition.Partition;
import dev.spool.log.AppendInfo;
import dev.spool.log.LogClock;
import dev.spool.log.LogConfig;
import dev.spool.log.LogDirOfflineException;
import dev.spool.log.PartitionLog;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchLayout;
import dev.spool.log.producer.ProducerSnapshotFile;
import dev.spool.log.producer.ProducerStateLoader;
import dev.spool.log.producer.ProducerStateManager;
import dev.spool.log.producer.ProducerStateEntry;
import dev.spool.log.producer.SequenceCheck;
import dev.spool.log.producer.Sequences;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ProduceResponseData.PartitionProduceResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thread-safe: every method runs its work on this partition's {@link SerialExecutor}, so validation,
 * the idempotence check, the append and the producer state update of one partition happen one at a
 * time. An append runs on the calling network thread when the executor is idle and the append can wait
 * on nothing but its write to the page cache (see {@link #append}); everything else runs on the io
 * threads, off the network threads.
 *
 * <p>Owns the partition's {@link ProducerStateManager}, loaded on first use by
 * {@link ProducerStateLoader}, and its snapshots: one when the log rolls a new segment (named by the
 * segment's base offset, as Kafka does), one at clean shutdown (at the log end offset).
 */
public final class PartitionAppender {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionAppender.class);
    private static final short ACKS_ALL = -1;
    /** One broker: every partition's replica set, and so its in-sync replica set, is this broker. */
    private static final int REPLICATION_FACTOR = 1;
    private static final int IN_SYNC_REPLICAS = 1;

    private final Partition partition;
    private final SerialExecutor queue;
    private final LogClock clock;
    private final long producerIdExpirationMs;
    private final ProduceBatchValidator validator = new ProduceBatchValidator();
    private ProducerStateManager producerState;
    private long activeSegmentBaseOffset = -1;
    private long lastSnapshotOffset = -1;
    private boolean closed;

    PartitionAppender(Partition partition, SerialExecutor queue, LogClock clock, long producerIdExpirationMs) {
        this.partition = partition;
        this.queue = queue;
        this.clock = clock;
        this.producerIdExpirationMs = producerIdExpirationMs;
    }

    public Partition partition() {
        return partition;
    }

    /**
     * Validates and appends the records a client sent for this partition (Produce v3+: one batch,
     * modified in place: offsets, leader epoch, maybe LogAppendTime) and answers with the partition's
     * part of the produce response. With {@code acks} -1 the in-sync
     * replica set (this broker alone) must reach the effective {@code min.insync.replicas} (see
     * {@link #effectiveMinInsyncReplicas}), else NOT_ENOUGH_REPLICAS and nothing is written, as in Kafka.
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
    public CompletableFuture<PartitionProduceResponse> append(ByteBuffer records, short produceVersion, short acks) {
        int index = partition.topicPartition().partition();
        PartitionProduceResponse here = queue.callHereIfIdle(() -> appendNow(records, produceVersion, acks, false));
        if (here != null) {
            return CompletableFuture.completedFuture(here.setIndex(index));
        }
        return CompletableFuture.supplyAsync(() -> appendNow(records, produceVersion, acks, true).setIndex(index),
                queue);
    }

    /** The partition's producers (for DescribeProducers), as of the last append. */
    public CompletableFuture<List<ProducerStateEntry>> producers() {
        return CompletableFuture.supplyAsync(() -> {
            try {
                ensureLoaded();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            producerState.removeExpired(clock.nowMs(), producerIdExpirationMs);
            return new ArrayList<>(producerState.producers());
        }, queue);
    }

    /**
     * The periodic check: forgets producers idle longer than {@code producer.id.expiration.ms} and
     * deletes the snapshots of segments retention has removed (Kafka deletes a segment's snapshot with it).
     */
    public CompletableFuture<Void> removeExpiredProducers() {
        return CompletableFuture.runAsync(() -> {
            if (producerState == null || closed || partition.isOffline()) {
                return;
            }
            int removed = producerState.removeExpired(clock.nowMs(), producerIdExpirationMs);
            if (removed > 0) {
                LOG.info("Removed {} expired producers of {}", removed, partition);
            }
            try {
                deleteSnapshotsBelow(partition.log().dir(), partition.log().logStartOffset(), lastSnapshotOffset);
            } catch (IOException e) {
                LOG.error("Cannot delete old producer snapshots of {}", partition, e);
            }
        }, queue);
    }

    /**
     * Clean shutdown: a snapshot from which the next start rebuilds each producer's last five batches
     * (see {@link #writeShutdownSnapshot()}).
     */
    public CompletableFuture<Void> close() {
        return CompletableFuture.runAsync(() -> {
            if (closed) {
                return;
            }
            closed = true;
            if (producerState == null || partition.isOffline()) {
                // an offline dir is not written to; the next start replays the log tail instead
                return;
            }
            try {
                writeShutdownSnapshot();
            } catch (IOException | RuntimeException e) {
                LOG.error("Cannot write the shutdown producer snapshot of {}", partition, e);
            }
        }, queue);
    }

    /**
     * The in-sync replicas acks=all needs: {@code min.insync.replicas}, capped at the replication factor as Kafka
     * caps it (its {@code Partition.effectiveMinIsr}), since no partition can have more in-sync replicas than
     * replicas. A topic that asks for 2 is then writable with acks=all on one broker, as on a Kafka cluster of one.
     */
    static int effectiveMinInsyncReplicas(int minInsyncReplicas, int replicationFactor) {
        return Math.min(minInsyncReplicas, replicationFactor);
    }

    /**
     * The append. With {@code mayWait} false it returns null, having changed nothing, where it could wait
     * on more than a write to the page cache: loading the producer state (reads the log), inflating a
     * compressed batch to validate it or compressing one for the topic's {@code compression.type} (CPU
     * time bounded only by the batch size and the inflation limit), a segment rolled
     * since the last append (its producer snapshot is fsynced), or what
     * {@link PartitionLog#tryAppendAsLeader} refuses.
     */
    private PartitionProduceResponse appendNow(ByteBuffer records, short produceVersion, short acks, boolean mayWait) {
        try {
            if (closed) {
                return error(Errors.NOT_LEADER_OR_FOLLOWER, "The broker is shutting down");
            }
            if (partition.isOffline()) {
                return error(Errors.KAFKA_STORAGE_ERROR, "The log dir of " + partition.topicPartition() + " is offline");
            }
            // Read once: a config change meanwhile cannot make this append compress on a network thread.
            LogConfig config = partition.log().config();
            if (!mayWait && (producerState == null || RecordBatch.isCompressedAt(records, records.position())
                    || Recompression.compresses(config)
                    || partition.log().activeSegmentBaseOffset() != activeSegmentBaseOffset)) {
                return null;
            }
            ensureLoaded();
            // Kafka checks the in-sync replicas before it looks at the records.
            int minInsyncReplicas = effectiveMinInsyncReplicas(config.minInsyncReplicas, REPLICATION_FACTOR);
            if (acks == ACKS_ALL && IN_SYNC_REPLICAS < minInsyncReplicas) {
                return error(Errors.NOT_ENOUGH_REPLICAS, "The in-sync replica set of " + partition.topicPartition()
                        + " has " + IN_SYNC_REPLICAS + " replica, fewer than min.insync.replicas = " + minInsyncReplicas);
            }
            Rejection rejection = validator.validate(records, produceVersion, config, clock.nowMs());
            if (rejection != null) {
                LOG.debug("Refused a batch for {}: {} {}", partition, rejection.error(), rejection.message());
                return error(rejection.error(), rejection.message()).setRecordErrors(rejection.recordErrors());
            }
            RecordBatch batch = validator.batch();
            if (batch.isTransactional()) {
                return error(Errors.INVALID_TXN_STATE, "Transactions are not supported by this broker yet");
            }
            long producerId = batch.producerId();
            short epoch = batch.producerEpoch();
            int firstSequence = batch.baseSequence();
            int lastSequence = Sequences.lastSequence(firstSequence, batch.lastOffsetDelta());
            if (producerId != RecordBatchLayout.NO_PRODUCER_ID) {
                PartitionProduceResponse refused = checkSequence(producerId, epoch, firstSequence, lastSequence,
                        config);
                if (refused != null) {
                    return refused;
                }
            }
            ByteBuffer stored = records;
            if (Recompression.needed(batch, config.finalCompression)) {
                stored = Recompression.rebuild(batch, config);
                Rejection tooLarge = ProduceBatchValidator.checkSize(stored.remaining(), config);
                if (tooLarge != null) {
                    return error(tooLarge.error(), "Recompressed for compression.type " + config.compressionType() + ": "
                            + tooLarge.message());
                }
            }
            return write(stored, producerId, epoch, firstSequence, lastSequence, mayWait);
        } catch (LogDirOfflineException e) {
            // The dir failed under this append (the failure itself was logged once, with its cause).
            return error(Errors.KAFKA_STORAGE_ERROR, e.getMessage());
        } catch (IOException e) {
            if (partition.isOffline()) {
                // this error took the dir offline: the log manager logged it with its cause
                LOG.warn("Append to {} failed: {}", partition, e.toString());
            } else {
                LOG.error("Append to {} failed", partition, e);
            }
            return error(Errors.KAFKA_STORAGE_ERROR, "Append failed: " + e.getMessage());
        } catch (IllegalStateException e) {
            // The log was closed under us: the topic is being deleted.
            return error(Errors.NOT_LEADER_OR_FOLLOWER, e.getMessage());
        } catch (RuntimeException e) {
            // A bug, not bad input (validation answers that): this partition fails, the others go on.
            LOG.error("Append to {} failed unexpectedly", partition, e);
            return error(Errors.UNKNOWN_SERVER_ERROR, "Append failed: " + e);
        }
    }

    /**
     * Appends a checked batch, then records it in the producer state and wakes whoever waits for data;
     * with {@code mayWait} false, null if the log refuses to append without waiting.
     */
    private PartitionProduceResponse write(ByteBuffer records, long producerId, short epoch, int firstSequence,
                                           int lastSequence, boolean mayWait) throws IOException {
        PartitionLog log = partition.log();
        // One broker: the in-sync replica set is this broker, so the append commits (acks=all is satisfied).
        AppendInfo info = mayWait ? log.appendAsLeader(records, partition.leaderEpoch(), true)
                : log.tryAppendAsLeader(records, partition.leaderEpoch(), true);
        if (info == null) {
            return null;
        }
        try {
            maybeSnapshotAfterRoll(info.firstOffset(), mayWait);
        } catch (IOException e) {
            // The records are written; a missing snapshot only makes the next recovery replay more.
            LOG.error("Cannot write the producer snapshot of {} at its segment roll", partition, e);
        }
        if (producerId != RecordBatchLayout.NO_PRODUCER_ID) {
            producerState.onBatchWritten(producerId, epoch, firstSequence, lastSequence, info.firstOffset(),
                    info.lastOffset(), info.maxTimestampMs());
        } else {
            producerState.advanceTo(info.lastOffset() + 1);
        }
        partition.notifyAppended();
        return new PartitionProduceResponse()
                .setErrorCode(Errors.NONE.code())
                .setBaseOffset(info.firstOffset())
                .setLogAppendTimeMs(info.logAppendTimeMs())
                .setLogStartOffset(info.logStartOffset());
    }

    /** The idempotence rules; null to append, else the answer (a duplicate's original offsets, or an error). */
    private PartitionProduceResponse checkSequence(long producerId, short epoch, int firstSequence, int lastSequence,
                                                   LogConfig config) {
        SequenceCheck check = producerState.check(producerId, epoch, firstSequence, lastSequence);
        switch (check) {
            case APPEND:
                return null;
            case DUPLICATE:
                return new PartitionProduceResponse()
                        .setErrorCode(Errors.NONE.code())
                        .setBaseOffset(producerState.duplicateFirstOffset())
                        .setLogAppendTimeMs(config.logAppendTime ? producerState.duplicateTimestampMs() : -1)
                        .setLogStartOffset(partition.log().logStartOffset());
            case INVALID_PRODUCER_EPOCH:
                return error(Errors.INVALID_PRODUCER_EPOCH, "Epoch " + epoch + " of producer " + producerId
                        + " is older than its current epoch " + producerState.producer(producerId).producerEpoch()
                        + " on " + partition.topicPartition());
            case OUT_OF_ORDER_SEQUENCE:
            default:
                ProducerStateEntry entry = producerState.producer(producerId);
                return error(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER, "Out of order sequence for producer " + producerId
                        + " epoch " + epoch + " on " + partition.topicPartition() + ": batch of sequences "
                        + firstSequence + ".." + lastSequence + " after last sequence " + entry.lastSequence()
                        + " of epoch " + entry.producerEpoch());
        }
    }

    private static PartitionProduceResponse error(Errors error, String message) {
        return new PartitionProduceResponse()
                .setErrorCode(error.code())
                .setErrorMessage(message)
                .setBaseOffset(-1)
                .setLogAppendTimeMs(-1)
                .setLogStartOffset(-1);
    }

    private void ensureLoaded() throws IOException {
        if (producerState == null) {
            producerState = ProducerStateLoader.load(partition.log());
            activeSegmentBaseOffset = partition.log().activeSegmentBaseOffset();
            TreeMap<Long, Path> snapshots = ProducerSnapshotFile.list(partition.log().dir());
            lastSnapshotOffset = snapshots.isEmpty() ? -1 : snapshots.lastKey();
        }
    }

    /**
     * A new segment was rolled at the first offset of this append: snapshot the state as it was before
     * the append, i.e. as of the new segment's base offset, as Kafka does at every roll. Without
     * {@code mayWait} (another thread rolled the log just before this append) the entries are taken now
     * and the file, which is fsynced, is written next on the io threads.
     */
    private void maybeSnapshotAfterRoll(long appendFirstOffset, boolean mayWait) throws IOException {
        long base = partition.log().activeSegmentBaseOffset();
        if (base == activeSegmentBaseOffset) {
            return;
        }
        activeSegmentBaseOffset = base;
        if (base != appendFirstOffset || producerState.mapEndOffset() != appendFirstOffset
                || base == lastSnapshotOffset) {
            return;
        }
        producerState.removeExpired(clock.nowMs(), producerIdExpirationMs);
        List<ProducerSnapshotFile.Entry> entries = producerState.snapshotEntriesAsOf(base);
        if (mayWait) {
            writeSnapshot(base, entries);
            return;
        }
        queue.execute(() -> {
            if (closed || partition.isOffline()) {
                return; // the shutdown snapshot, or the next start's replay, covers this offset
            }
            try {
                writeSnapshot(base, entries);
            } catch (IOException e) {
                LOG.error("Cannot write the producer snapshot of {} at its segment roll", partition, e);
            }
        });
    }

    private void writeSnapshot(long offset, List<ProducerSnapshotFile.Entry> entries) throws IOException {
        PartitionLog log = partition.log();
        ProducerSnapshotFile.write(log.dir(), offset, entries);
        lastSnapshotOffset = offset;
        deleteSnapshotsBelow(log.dir(), log.logStartOffset(), offset);
    }

    /**
     * The shutdown snapshot, taken not at the log end but at the first offset of the oldest batch still
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
    private void writeShutdownSnapshot() throws IOException {
        PartitionLog log = partition.log();
        producerState.advanceTo(log.logEndOffset());
        producerState.removeExpired(clock.nowMs(), producerIdExpirationMs);
        long offset = producerState.cachedBatchesStartOffset(log.activeSegmentBaseOffset());
        for (Path later : ProducerSnapshotFile.list(log.dir()).tailMap(offset, false).values()) {
            Files.deleteIfExists(later);
        }
        if (offset != lastSnapshotOffset || !Files.exists(ProducerSnapshotFile.path(log.dir(), offset))) {
            writeSnapshot(offset, producerState.snapshotEntriesAsOf(offset));
        }
    }

    /** Snapshots of offsets below the log start offset cover deleted segments; the newest is always kept. */
    private static void deleteSnapshotsBelow(Path dir, long logStartOffset, long newest) throws IOException {
        for (Map.Entry<Long, Path> snapshot : ProducerSnapshotFile.list(dir).headMap(logStartOffset, false).entrySet()) {
            if (snapshot.getKey() != newest) {
                Files.deleteIfExists(snapshot.getValue());
            }
        }
    }

    @Override
    public String toString() {
        return "PartitionAppender(" + partition + ")";
    }
}

package dev.spool.broker.fetch;

import dev.spool.broker.network.FileRecords;
import dev.spool.broker.partition.Partition;
import dev.spool.log.FetchSlice;
import dev.spool.log.LogOffsetMetadata;
import dev.spool.log.OffsetOutOfRangeException;
import dev.spool.log.PartitionLog;
import dev.spool.log.index.AbortedTxn;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.FetchResponseData;
import dev.spool.protocol.types.ByteBufferRecords;
import dev.spool.protocol.types.Records;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thread-safe (stateless but for the lookup). Reads the partitions of one fetch, in order, within its byte
 * limits: each partition gets at most its {@code partition_max_bytes} and what is left of the response's
 * {@code max_bytes}, except that the first partition with data returns at least one whole batch even when
 * that batch is larger (KIP-74), so that a consumer never gets stuck behind a large batch. Consumers read up
 * to the high watermark, read_committed ones up to the last stable offset, with the aborted transactions that
 * overlap what they read. Nothing is copied: the records are regions of the segment files.
 */
final class FetchReader {

    private static final Logger LOG = LoggerFactory.getLogger(FetchReader.class);

    static final Records NO_RECORDS = new ByteBufferRecords(ByteBuffer.allocate(0));
    private static final long NO_SEGMENT = -1;

    /** The result of reading every partition of a fetch. */
    record Result(List<PartitionRead> reads, long recordBytes, boolean anyError) {
    }

    private final PartitionLookup lookup;
    private final FollowerReadThrottle throttle;

    FetchReader(PartitionLookup lookup) {
        this(lookup, FollowerReadThrottle.NONE);
    }

    FetchReader(PartitionLookup lookup, FollowerReadThrottle throttle) {
        this.lookup = lookup;
        this.throttle = throttle;
    }

    /** A read_uncommitted consumer's read: up to the high watermark. */
    Result read(List<FetchPartitionState> partitions, int responseMaxBytes) {
        return read(partitions, responseMaxBytes, -1, -1, 0, false);
    }

    /** As below, every topic readable. */
    Result read(List<FetchPartitionState> partitions, int responseMaxBytes, int replicaId, long replicaEpoch,
                long nowMs, boolean readCommitted) {
        return read(partitions, responseMaxBytes, replicaId, replicaEpoch, nowMs, readCommitted, topic -> true);
    }

    /**
     * A read for {@code replicaId}: a consumer's (-1) up to the high watermark; a follower's (in broker epoch
     * {@code replicaEpoch}, -1 when its fetch version does not say) up to the log end, its fetch offset recorded as
     * its progress at {@code nowMs} (which may move the high watermark), its log checked against the leader's first.
     * A consumer's partition of a topic not {@code readable} fails with TOPIC_AUTHORIZATION_FAILED (checked at every
     * read: a fetch session outlives the ACL that let its partitions in).
     */
    Result read(List<FetchPartitionState> partitions, int responseMaxBytes, int replicaId, long replicaEpoch,
                long nowMs, boolean readCommitted, Predicate<String> readable) {
        List<PartitionRead> reads = new ArrayList<>(partitions.size());
        long remainingBytes = Math.max(0, responseMaxBytes);
        boolean minOneBatch = true;
        long recordBytes = 0;
        boolean anyError = false;
        for (FetchPartitionState state : partitions) {
            int maxBytes = (int) Math.min(Math.max(0, state.partitionMaxBytes()), remainingBytes);
            PartitionRead read = replicaId < 0 ? readPartition(state, maxBytes, minOneBatch, readCommitted, readable)
                    : readForFollower(state, maxBytes, minOneBatch, replicaId, replicaEpoch, nowMs);
            int size = read.records().sizeInBytes();
            if (size > 0) {
                minOneBatch = false;
                remainingBytes = Math.max(0, remainingBytes - size);
                recordBytes += size;
            }
            anyError |= read.error() != Errors.NONE;
            reads.add(read);
        }
        return new Result(reads, recordBytes, anyError);
    }

    private PartitionRead readPartition(FetchPartitionState state, int maxBytes, boolean minOneBatch,
                                        boolean readCommitted, Predicate<String> readable) {
        Partition partition = find(state.key());
        String topic = partition != null ? partition.topicPartition().topic()
                : state.key().usesTopicId() ? null : state.key().topic();
        if (topic != null && !readable.test(topic)) {
            return PartitionRead.failed(state, partition, Errors.TOPIC_AUTHORIZATION_FAILED);
        }
        PartitionRead refused = refusal(state, partition);
        if (refused != null) {
            return refused;
        }
        if (!readCommitted) {
            // The last stable offset as a number only (no position to look up): Kafka's clients use it at
            // read_committed only; -1 while the producer state is not loaded, and no load is started for it.
            LogOffsetMetadata highWatermark = partition.log().highWatermarkMetadata();
            return readUpTo(state, partition, highWatermark, highWatermark.offset(),
                    Math.min(partition.log().lastStableOffset(), highWatermark.offset()), maxBytes, minOneBatch, false);
        }
        LogOffsetMetadata lastStable;
        try {
            lastStable = partition.lastStableOffsetMetadata(); // loads the producer state (on its own thread) if needed
        } catch (IOException e) {
            LOG.error("Cannot find the last stable offset of {}", partition, e);
            return PartitionRead.failed(state, partition, Errors.KAFKA_STORAGE_ERROR);
        }
        // Each taken once, the high watermark after the last stable offset (never below it): the offsets answered
        // and the bound of the read are the same.
        LogOffsetMetadata highWatermark = partition.log().highWatermarkMetadata();
        if (lastStable == null) {
            // Not known until the producer state is loaded (under way): nothing is stable yet. Parked, the fetch
            // wakes when the load ends (its bound, the fetch offset, is then passed by the last stable offset).
            return readUpTo(state, partition, fetchOffsetBound(state), highWatermark.offset(), -1, 0, false, true);
        }
        return readUpTo(state, partition, lastStable, highWatermark.offset(), lastStable.offset(), maxBytes, minOneBatch,
                true);
    }

    /**
     * A follower's read: up to the leader's log end. A follower whose last batch's epoch ends earlier in the
     * leader's log than where it fetches from (it has records the leader never committed) is told where it
     * diverged instead (Fetch v12's DivergingEpoch), and truncates there. The fetch offset is the follower's log end.
     */
    private PartitionRead readForFollower(FetchPartitionState state, int maxBytes, boolean minOneBatch, int replicaId,
                                          long replicaEpoch, long nowMs) {
        Partition partition = find(state.key());
        // Taken before the checks: progress read in a leadership that ends meanwhile is not counted in the next.
        int leaderEpoch = partition == null ? -1 : partition.leaderEpoch();
        PartitionRead refused = refusal(state, partition);
        if (refused != null) {
            return refused;
        }
        if (!partition.assignment().replicas().contains(replicaId)) {
            // A replica reassigned away (or never assigned): its progress must not count for the ISR.
            return PartitionRead.failed(state, partition, Errors.NOT_LEADER_OR_FOLLOWER);
        }
        PartitionLog log = partition.log();
        if (state.lastFetchedEpoch() >= 0) {
            long[] epochAndEnd = OffsetForLeaderEpochHandler.endOffsetFor(state.lastFetchedEpoch(),
                    log.leaderEpochs().entries(), partition.leaderEpoch(), log.logEndOffset());
            if (epochAndEnd[0] < state.lastFetchedEpoch() || epochAndEnd[1] < state.fetchOffset()) {
                return new PartitionRead(state, partition, Errors.NONE, log.highWatermark(), log.highWatermark(),
                        log.logStartOffset(), NO_RECORDS, log.logEndMetadata(), new FetchResponseData.EpochEndOffset()
                                .setEpoch((int) epochAndEnd[0]).setEndOffset(epochAndEnd[1]), null);
            }
        }
        // A replication throttle counts what it names, and holds back only an out-of-sync follower (a reassignment's
        // new replica catching up): its read gets no records while the throttle is exceeded, its progress is still
        // recorded.
        boolean throttled = throttle.names(partition.topicPartition());
        boolean heldBack = throttled && !partition.assignment().isr().contains(replicaId) && throttle.exceeded();
        LogOffsetMetadata logEnd = log.logEndMetadata();
        PartitionRead read = readUpTo(state, partition, logEnd, logEnd.offset(), logEnd.offset(),
                heldBack ? 0 : maxBytes, minOneBatch && !heldBack, false);
        if (read.error() != Errors.NONE) {
            return read;
        }
        if (throttled) {
            throttle.record(read.records().sizeInBytes());
        }
        try {
            partition.onFollowerFetch(lookup.localId(), leaderEpoch, replicaId, replicaEpoch, state.fetchOffset(),
                    state.logStartOffset(), nowMs);
        } catch (IOException e) {
            LOG.error("Cannot move the high watermark of {}", partition, e);
            return PartitionRead.failed(state, partition, Errors.KAFKA_STORAGE_ERROR);
        }
        // The follower learns the high watermark its fetch may just have moved.
        long highWatermark = log.highWatermark();
        return new PartitionRead(state, partition, Errors.NONE, highWatermark, highWatermark, read.logStartOffset(),
                read.records(), read.readBound());
    }

    private Partition find(FetchPartitionKey key) {
        return key.usesTopicId() ? lookup.byId(key.topicId(), key.partition())
                : lookup.byName(key.topic(), key.partition());
    }

    /** Why this broker cannot serve the read (unknown, offline, not its leader, another epoch), or null. */
    private PartitionRead refusal(FetchPartitionState state, Partition partition) {
        FetchPartitionKey key = state.key();
        if (partition == null) {
            return PartitionRead.failed(state, null, key.usesTopicId() && !lookup.topicExists(key.topicId())
                    ? Errors.UNKNOWN_TOPIC_ID : Errors.UNKNOWN_TOPIC_OR_PARTITION);
        }
        if (partition.isOffline()) {
            return PartitionRead.failed(state, partition, Errors.KAFKA_STORAGE_ERROR);
        }
        if (!lookup.leads(partition)) {
            return PartitionRead.failed(state, partition, Errors.NOT_LEADER_OR_FOLLOWER);
        }
        Errors epochError = LeaderEpochCheck.check(state.currentLeaderEpoch(), partition.leaderEpoch());
        return epochError == Errors.NONE ? null : PartitionRead.failed(state, partition, epochError);
    }

    /**
     * A bound at the fetch offset itself, in no segment, for a read that read nothing: a parked fetch completes as soon
     * as its bound is any other (see {@link DelayedFetch}).
     */
    private static LogOffsetMetadata fetchOffsetBound(FetchPartitionState state) {
        return new LogOffsetMetadata(state.fetchOffset(), NO_SEGMENT, 0);
    }

    /**
     * Reads the partition from the fetch offset up to {@code bound} (its high watermark, its last stable offset for
     * read_committed, or a follower's log end), answering {@code highWatermark} and {@code lastStableOffset} (a
     * follower's read answers its log end for both here, and the high watermark afterwards).
     */
    private PartitionRead readUpTo(FetchPartitionState state, Partition partition, LogOffsetMetadata bound,
                                   long highWatermark, long lastStableOffset, int maxBytes, boolean minOneBatch,
                                   boolean readCommitted) {
        PartitionLog log = partition.log();
        long logStartOffset = log.logStartOffset();
        long fetchOffset = state.fetchOffset();
        if (fetchOffset < logStartOffset || fetchOffset > log.logEndOffset()) {
            return PartitionRead.failed(state, partition, Errors.OFFSET_OUT_OF_RANGE);
        }
        List<AbortedTxn> noneAborted = readCommitted ? List.of() : null;
        if (maxBytes == 0 && !minOneBatch) {
            // The response is full: the partition is answered with its offsets only, without a look at the log.
            return new PartitionRead(state, partition, Errors.NONE, highWatermark, lastStableOffset, logStartOffset,
                    NO_RECORDS, bound, null, noneAborted);
        }
        try {
            FetchSlice slice = log.read(fetchOffset, maxBytes, bound, minOneBatch);
            if (slice.isEmpty()) {
                return new PartitionRead(state, partition, Errors.NONE, highWatermark, lastStableOffset, logStartOffset,
                        NO_RECORDS, bound, null, noneAborted);
            }
            Records records = new FileRecords(slice.channel(), slice.position(), slice.lengthBytes());
            // The reader drops the batches of these (its bound is past their markers, which are stable).
            List<AbortedTxn> aborted = readCommitted ? log.abortedTransactions(fetchOffset, bound.offset()) : null;
            return new PartitionRead(state, partition, Errors.NONE, highWatermark, lastStableOffset, logStartOffset,
                    records, bound, null, aborted);
        } catch (OffsetOutOfRangeException e) {
            // Retention or DeleteRecords moved the log start past the offset since it was checked.
            return PartitionRead.failed(state, partition, Errors.OFFSET_OUT_OF_RANGE);
        } catch (IOException e) {
            LOG.error("Fetch of {} at offset {} failed to read {}", partition, fetchOffset, log.dir(), e);
            return PartitionRead.failed(state, partition, Errors.KAFKA_STORAGE_ERROR);
        }
    }
}

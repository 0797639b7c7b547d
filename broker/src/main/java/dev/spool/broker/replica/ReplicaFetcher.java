package dev.spool.broker.replica;

import dev.spool.broker.DeliberateFault;
import dev.spool.broker.client.NodeAddress;
import dev.spool.broker.client.NodeClients;
import dev.spool.broker.fetch.FollowerReadThrottle;
import dev.spool.broker.fetch.OffsetForLeaderEpochHandler;
import dev.spool.broker.metadata.PartitionImage;
import dev.spool.broker.partition.Partition;
import dev.spool.log.PartitionLog;
import dev.spool.log.TopicPartition;
import dev.spool.log.record.RecordBatch;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.FetchRequestData;
import dev.spool.protocol.message.FetchResponseData;
import dev.spool.protocol.message.ListOffsetsRequestData;
import dev.spool.protocol.message.ListOffsetsResponseData;
import dev.spool.protocol.types.ByteBufferRecords;
import dev.spool.protocol.types.Uuid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A follower's fetcher from one leader broker (Kafka's replica fetcher thread): one thread sends that broker Fetch
 * requests as replica {@code nodeId} for every partition it leads and this broker follows, from each partition's
 * log end, with the epoch of its last batch; appends the batches as they came (offsets and epochs kept), moves the
 * high watermark to the leader's (capped at its own log end), and truncates where the leader says the logs
 * diverged (DivergingEpoch). Partitions come and go as leadership moves. Thread-safe.
 */
final class ReplicaFetcher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicaFetcher.class);
    /** v15: the follower names itself and its broker epoch in ReplicaState; topics by id. */
    private static final short FETCH_VERSION = 15;
    /** v4: with the current leader epoch, so a leader that moved answers FENCED_LEADER_EPOCH. */
    private static final short LIST_OFFSETS_VERSION = 4;
    private static final long LATEST_TIMESTAMP = -1L;
    private static final long EARLIEST_TIMESTAMP = -2L;
    private static final long WARN_INTERVAL_MS = 30_000;

    private final int nodeId;
    private final int sourceId;
    /** The follower's replication throttle. */
    private final FollowerReadThrottle throttle;
    /** This fetcher's own connection to the leader. */
    private final String channel;
    private final NodeClients clients;
    private final IntFunction<NodeAddress> addresses;
    private final LongSupplier brokerEpoch;
    private final ReplicaFetchSettings settings;
    private final Map<TopicPartition, Partition> followed = new ConcurrentHashMap<>();
    private final Object changed = new Object();
    private final Thread thread;
    private volatile boolean running = true;
    /** When a failure was last logged at WARN (the fetcher's thread only). */
    private long lastWarnMs = -WARN_INTERVAL_MS;

    ReplicaFetcher(int nodeId, int sourceId, int index, NodeClients clients, IntFunction<NodeAddress> addresses,
                   LongSupplier brokerEpoch, ReplicaFetchSettings settings, FollowerReadThrottle throttle) {
        this.throttle = throttle;
        this.nodeId = nodeId;
        this.sourceId = sourceId;
        this.channel = "replica-fetcher-" + index;
        this.clients = clients;
        this.addresses = addresses;
        this.brokerEpoch = brokerEpoch;
        this.settings = settings;
        this.thread = new Thread(this::run, "spool-replica-fetcher-" + sourceId + "-" + index);
        thread.setDaemon(true);
        thread.start();
    }

    void follow(Partition partition) {
        if (followed.put(partition.topicPartition(), partition) == null) {
            synchronized (changed) {
                changed.notifyAll();
            }
        }
    }

    void unfollow(TopicPartition topicPartition) {
        followed.remove(topicPartition);
    }

    /** Stops fetching every partition not in {@code hosted}. */
    void retain(Set<TopicPartition> hosted) {
        followed.keySet().retainAll(hosted);
    }


    private void run() {
        while (running) {
            try {
                List<Partition> partitions = current();
                NodeAddress leader = addresses.apply(sourceId);
                if (partitions.isEmpty() || leader == null) {
                    synchronized (changed) {
                        changed.wait(settings.backoffMs());
                    }
                    continue;
                }
                if (!fetchOnce(leader, partitions)) {
                    Thread.sleep(settings.backoffMs());
                }
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                if (running) {
                    logFailure("Fetch from broker " + sourceId + " failed", e);
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(settings.backoffMs()));
                }
            }
        }
    }

    /**
     * A failure the fetcher retries: at WARN at most every {@link #WARN_INTERVAL_MS}, so that one that persists (a
     * follower that can no longer catch up and stays out of the in-sync replicas) is seen without flooding the log.
     */
    private void logFailure(String what, Exception e) {
        long nowMs = System.currentTimeMillis();
        if (nowMs - lastWarnMs >= WARN_INTERVAL_MS) {
            lastWarnMs = nowMs;
            LOG.warn("{} (retried every {} ms; logged at most every {} s): {}", what, settings.backoffMs(),
                    WARN_INTERVAL_MS / 1000, e.toString());
        } else {
            LOG.debug("{}: {}", what, e.toString());
        }
    }

    /** The partitions whose leader is still the source broker. */
    private List<Partition> current() {
        List<Partition> partitions = new ArrayList<>();
        for (Partition partition : followed.values()) {
            if (partition.assignment().leader() == sourceId && !partition.isOffline()) {
                partitions.add(partition);
            }
        }
        return partitions;
    }

    /**
     * One fetch of every partition; false when every partition failed or one could not be written (the next fetch
     * waits the backoff).
     */
    private boolean fetchOnce(NodeAddress leader, List<Partition> partitions) throws Exception {
        Map<Uuid, FetchRequestData.FetchTopic> topics = new HashMap<>();
        Map<String, Partition> byKey = new HashMap<>();
        Map<Partition, Integer> fetchedInEpoch = new HashMap<>();
        Set<Partition> throttled = new HashSet<>();
        boolean overThrottle = throttle.exceeded();
        for (Partition partition : partitions) {
            if (throttle.names(partition.topicPartition())) {
                if (overThrottle && !partition.assignment().isr().contains(nodeId)) {
                    continue; // out of sync: fetched again once the throttle allows
                }
                throttled.add(partition);
            }
            PartitionLog log = partition.log();
            int leaderEpoch = partition.leaderEpoch();
            fetchedInEpoch.put(partition, leaderEpoch);
            topics.computeIfAbsent(partition.topicId(), id -> new FetchRequestData.FetchTopic().setTopicId(id)
                            .setTopic(partition.topicPartition().topic()).setPartitions(new ArrayList<>()))
                    .partitions().add(new FetchRequestData.FetchPartition()
                            .setPartition(partition.topicPartition().partition())
                            .setCurrentLeaderEpoch(leaderEpoch)
                            .setFetchOffset(log.logEndOffset())
                            .setLastFetchedEpoch(DeliberateFault.is(DeliberateFault.SKIP_TRUNCATION) ? -1
                                    : log.leaderEpochs().latestEpoch())
                            .setLogStartOffset(log.logStartOffset())
                            .setPartitionMaxBytes(settings.partitionMaxBytes()));
            byKey.put(partition.topicId() + "-" + partition.topicPartition().partition(), partition);
        }
        if (topics.isEmpty()) {
            return false;
        }
        FetchRequestData request = new FetchRequestData().setReplicaId(-1)
                .setReplicaState(new FetchRequestData.ReplicaState().setReplicaId(nodeId)
                        .setReplicaEpoch(brokerEpoch.getAsLong()))
                .setMaxWaitMs(settings.maxWaitMs()).setMinBytes(settings.minBytes())
                .setMaxBytes(settings.responseMaxBytes()).setSessionId(0).setSessionEpoch(-1)
                .setTopics(new ArrayList<>(topics.values()));
        FetchResponseData response = clients.connection(leader, channel).<FetchResponseData>send(ApiKey.FETCH, FETCH_VERSION,
                request).get(settings.maxWaitMs() + 30_000L, TimeUnit.MILLISECONDS);
        if (response.errorCode() != Errors.NONE.code()) {
            LOG.debug("Broker {} answered a replica fetch with {}", sourceId, Errors.nameOf(response.errorCode()));
            return false;
        }
        boolean anyServed = false;
        boolean anyFailed = false;
        for (FetchResponseData.FetchableTopicResponse topic : response.responses()) {
            for (FetchResponseData.PartitionData data : topic.partitions()) {
                Partition partition = byKey.get(topic.topicId() + "-" + data.partitionIndex());
                if (partition != null) {
                    int epoch = fetchedInEpoch.get(partition);
                    try {
                        anyServed |= partition.whileHosted(() -> onFetched(leader, partition, epoch, data));
                    } catch (IOException | RuntimeException e) {
                        // This partition's answer failed (its disk is full, say): the others' still count.
                        logFailure("Applying the fetch of " + partition + " from broker " + sourceId + " failed", e);
                        anyFailed = true;
                    }
                    if (throttled.contains(partition) && data.records() != null) {
                        throttle.record(data.records().sizeInBytes());
                    }
                }
            }
        }
        // A failed partition would be answered again at once (its fetch offset did not move): back off, not spin.
        return anyServed && !anyFailed;
    }

    /**
     * Applies one partition's answer, if the partition still follows this leader in the epoch it was fetched in;
     * whether it was served (no error). The log changes with the assignment held still: an answer of an epoch that
     * ended while it travelled is dropped, never written beside what this broker wrote as a leader since.
     */
    private boolean onFetched(NodeAddress leader, Partition partition, int fetchedInEpoch,
                              FetchResponseData.PartitionData data) throws Exception {
        if (data.errorCode() == Errors.OFFSET_OUT_OF_RANGE.code()) {
            // Asks the leader first, over the network: not while holding the assignment.
            return follows(partition.assignment(), fetchedInEpoch)
                    && resetOutOfRange(leader, partition, fetchedInEpoch);
        }
        return partition.withAssignment(assignment -> follows(assignment, fetchedInEpoch) && apply(partition, data));
    }

    /** Whether a partition so assigned still follows this fetcher's leader in the epoch it was fetched in. */
    private boolean follows(PartitionImage assignment, int fetchedInEpoch) {
        return assignment.leader() == sourceId && assignment.leaderEpoch() == fetchedInEpoch;
    }

    private boolean apply(Partition partition, FetchResponseData.PartitionData data) throws IOException {
        PartitionLog log = partition.log();
        if (data.errorCode() != Errors.NONE.code()) {
            LOG.debug("Broker {} answered the fetch of {} with {}", sourceId, partition,
                    Errors.nameOf(data.errorCode()));
            return false;
        }
        FetchResponseData.EpochEndOffset diverging = data.divergingEpoch();
        boolean diverged = diverging.epoch() >= 0 || diverging.endOffset() >= 0;
        if (diverged && !DeliberateFault.is(DeliberateFault.SKIP_TRUNCATION)) {
            truncate(partition, diverging);
            return true;
        }
        if (data.records() instanceof ByteBufferRecords records) {
            ByteBuffer fetched = records.buffer();
            int whole = RecordBatch.wholeBatchesLength(fetched);
            if (whole > 0) {
                ByteBuffer batches = fetched.duplicate().limit(fetched.position() + whole).slice();
                long baseOffset = batches.getLong(0);
                if (baseOffset < log.logEndOffset() && log.logStartOffset() == log.logEndOffset()) {
                    // Started over at the leader's log start, which lies inside this batch: the log starts at the
                    // batch (batches are kept whole), and the leader's log start is taken up below.
                    log.truncateFullyAndStartAt(baseOffset);
                }
                log.appendAsFollower(batches);
            }
        }
        long highWatermark = Math.min(data.highWatermark(), log.logEndOffset());
        if (highWatermark > log.highWatermark()) {
            log.updateHighWatermark(highWatermark);
        }
        // Records the leader deleted (DeleteRecords, retention by its log start) go here too, up to what is
        // committed here; a follower further behind is answered OFFSET_OUT_OF_RANGE and starts over.
        long leaderLogStart = Math.min(data.logStartOffset(), log.highWatermark());
        if (leaderLogStart > log.logStartOffset()) {
            log.deleteRecordsBefore(leaderLogStart);
        }
        partition.notifyAppended();
        return true;
    }

    /**
     * The leader has no records at this follower's log end: either it deleted them (its log start moved past,
     * while this follower was away), and the follower starts over at the leader's log start, or (after an unclean
     * election) its log ends before, and the follower truncates to its end. Asks the leader both with ListOffsets,
     * as a replica (its log end, not its high watermark). Whether the partition can be fetched again.
     */
    private boolean resetOutOfRange(NodeAddress leader, Partition partition, int fetchedInEpoch) throws Exception {
        long leaderEnd = leaderOffset(leader, partition, LATEST_TIMESTAMP);
        long leaderStart = leaderOffset(leader, partition, EARLIEST_TIMESTAMP);
        if (leaderEnd < 0 || leaderStart < 0) {
            return false;
        }
        // Asked over the network without the assignment held; cut with it held, and only while still following.
        return partition.withAssignment(assignment -> {
            if (!follows(assignment, fetchedInEpoch)) {
                return false;
            }
            PartitionLog log = partition.log();
            long logEnd = log.logEndOffset();
            if (leaderEnd < logEnd) {
                LOG.warn("{}: leader {}'s log ends at {}, before this replica's end {}: truncating to it", partition,
                        sourceId, leaderEnd, logEnd);
                log.truncateTo(Math.max(leaderEnd, log.logStartOffset()));
            } else if (leaderStart > logEnd) {
                LOG.info("{}: leader {}'s log starts at {}, after this replica's end {}: starting over there",
                        partition, sourceId, leaderStart, logEnd);
                log.truncateFullyAndStartAt(leaderStart);
            }
            return true;
        });
    }

    /** The leader's offset for {@code timestamp} (ListOffsets as replica {@code nodeId}), or -1 with an error. */
    private long leaderOffset(NodeAddress leader, Partition partition, long timestamp) throws Exception {
        ListOffsetsRequestData request = new ListOffsetsRequestData().setReplicaId(nodeId).setTopics(List.of(
                new ListOffsetsRequestData.ListOffsetsTopic().setName(partition.topicPartition().topic())
                        .setPartitions(List.of(new ListOffsetsRequestData.ListOffsetsPartition()
                                .setPartitionIndex(partition.topicPartition().partition())
                                .setCurrentLeaderEpoch(partition.leaderEpoch()).setTimestamp(timestamp)))));
        ListOffsetsResponseData response = clients.connection(leader, channel).<ListOffsetsResponseData>send(
                ApiKey.LIST_OFFSETS, LIST_OFFSETS_VERSION, request).get(30, TimeUnit.SECONDS);
        ListOffsetsResponseData.ListOffsetsPartitionResponse answer =
                response.topics().get(0).partitions().get(0);
        if (answer.errorCode() != Errors.NONE.code()) {
            LOG.debug("Broker {} answered ListOffsets of {} with {}", sourceId, partition,
                    Errors.nameOf(answer.errorCode()));
            return -1;
        }
        return answer.offset();
    }

    /**
     * The leader's log parted from this one after {@code diverging}'s epoch: truncates to where that epoch ends in
     * both logs, the lower of the two (KIP-101, KIP-595's DivergingEpoch), and fetches again from there.
     */
    private void truncate(Partition partition, FetchResponseData.EpochEndOffset diverging) throws IOException {
        PartitionLog log = partition.log();
        long target = truncationOffset(diverging.epoch(), diverging.endOffset(), log.leaderEpochs().entries(),
                log.logEndOffset(), log.highWatermark());
        LOG.info("{}: the log diverged from leader {}'s after epoch {} (its end offset there {}): truncating to {}",
                partition, sourceId, diverging.epoch(), diverging.endOffset(), target);
        log.truncateTo(target);
    }

    /**
     * Where a follower truncates when the leader says their logs diverged after {@code leaderEpoch}, which ends at
     * {@code leaderEndOffset} in the leader's log: where that epoch ends in both logs, the lower (KIP-101); if the
     * follower's largest epoch up to it is an older one, where that one ends (the next fetch checks again); if the
     * leader knows no epoch of the follower's, its high watermark, which was committed.
     *
     * @param followerEpochs the follower's epochs and their start offsets
     */
    static long truncationOffset(int leaderEpoch, long leaderEndOffset, Map<Integer, Long> followerEpochs,
                                 long followerLogEnd, long followerHighWatermark) {
        if (leaderEpoch < 0) {
            return followerHighWatermark;
        }
        long[] own = OffsetForLeaderEpochHandler.endOffsetFor(leaderEpoch, followerEpochs, -1, followerLogEnd);
        if (own[0] == leaderEpoch) {
            return Math.min(leaderEndOffset, own[1]);
        }
        return own[0] >= 0 ? own[1] : followerHighWatermark;
    }

    @Override
    public void close() {
        running = false;
        synchronized (changed) {
            changed.notifyAll();
        }
        // Not interrupted: an interrupt inside a log's file I/O would close its channel. A fetch waits
        // replica.fetch.wait.max.ms at most, so the loop sees the flag soon.
        try {
            thread.join(settings.maxWaitMs() + 15_000L);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

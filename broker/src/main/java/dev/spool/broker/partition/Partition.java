package dev.spool.broker.partition;

import dev.spool.broker.DeliberateFault;
import dev.spool.broker.metadata.PartitionImage;
import dev.spool.log.LogOffsetMetadata;
import dev.spool.log.PartitionLog;
import dev.spool.log.TopicPartition;
import dev.spool.protocol.types.Uuid;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.IntPredicate;

/**
 * A partition this broker hosts: its log, the topic id, and its assignment as the latest metadata
 * image has it (replicas, in-sync replicas, leader, epochs; the high watermark lives in the log).
 * Thread-safe: the log serializes appends; the assignment is replaced by the metadata thread.
 */
public final class Partition {

    private final TopicPartition topicPartition;
    private final Uuid topicId;
    /** The log as last seen: one that moved to another log dir (AlterReplicaLogDirs) names its replacement. */
    private volatile PartitionLog log;
    private volatile PartitionImage assignment;
    /** Read-held while work depends on the assignment staying as it is ({@link #withAssignment}). */
    private final ReadWriteLock assignmentLock = new ReentrantReadWriteLock();
    private final Set<AppendListener> appendListeners = ConcurrentHashMap.newKeySet();
    private final Object hosting = new Object();
    /** Guarded by hosting. */
    private boolean removed;
    /** Listeners for as long as something follows the partition (a coordinator shard), not parked requests. */
    private final Set<AppendListener> commitWatchers = ConcurrentHashMap.newKeySet();
    /** On the leader: each follower's progress, from its fetches. */
    private final FollowerStates followers = new FollowerStates();

    private final ProducerStateLoads producerStateLoads;

    /** A partition whose producer state a reader that needs it loads itself (tests and tools). */
    public Partition(TopicPartition topicPartition, Uuid topicId, PartitionLog log, PartitionImage assignment) {
        this(topicPartition, topicId, log, assignment, ProducerStateLoads.IN_CALLER);
    }

    /** A partition whose producer state is loaded by {@code producerStateLoads} when a reader needs it first. */
    public Partition(TopicPartition topicPartition, Uuid topicId, PartitionLog log, PartitionImage assignment,
                     ProducerStateLoads producerStateLoads) {
        this.topicPartition = topicPartition;
        this.topicId = topicId;
        this.log = log;
        this.assignment = assignment;
        this.producerStateLoads = producerStateLoads;
    }

    public TopicPartition topicPartition() {
        return topicPartition;
    }

    public Uuid topicId() {
        return topicId;
    }

    /**
     * The partition's log. After a move to another log dir it is the new one at once: the swap happens under the
     * old log's lock, and a writer that took the old log before gets {@code LogMovedException} and asks again.
     */
    public PartitionLog log() {
        PartitionLog current = log;
        PartitionLog moved = current.movedTo();
        if (moved == null) {
            return current;
        }
        while (moved.movedTo() != null) {
            moved = moved.movedTo();
        }
        log = moved;
        return moved;
    }

    /** Whether the partition's log dir failed: every request on it is then answered KAFKA_STORAGE_ERROR. */
    public boolean isOffline() {
        return log().isOffline();
    }

    /**
     * The last stable offset with its position (the bound of a read_committed read), or null while the log's
     * producer state is not loaded: its load is then under way, and whoever waits on the partition is told when it
     * ends.
     */
    public LogOffsetMetadata lastStableOffsetMetadata() throws IOException {
        LogOffsetMetadata lastStable = log().lastStableOffsetMetadata();
        if (lastStable == null) {
            producerStateLoads.request(this);
            lastStable = log().lastStableOffsetMetadata();
        }
        return lastStable;
    }

    public int leaderEpoch() {
        return assignment.leaderEpoch();
    }

    /** Replicas, in-sync replicas, leader and epochs, as of the latest metadata image. */
    public PartitionImage assignment() {
        return assignment;
    }

    /**
     * Whether an append commits at once: the leader is the whole in-sync replica set, so the high watermark
     * (the lowest log end among the ISR) is its own log end, and one replica is enough (see
     * {@link #minInsyncReplicas}). With followers in sync it waits for them.
     */
    public boolean commitsOnAppend() {
        return assignment.isr().size() <= 1 && minInsyncReplicas() <= 1;
    }

    /**
     * The in-sync replicas this partition needs to commit: the topic's {@code min.insync.replicas}, capped at the
     * replication factor as Kafka caps it (no partition has more in-sync replicas than replicas; a topic asking
     * for 2 is writable on a cluster of one).
     */
    public int minInsyncReplicas() {
        return effectiveMinInsyncReplicas(log().config().minInsyncReplicas, assignment.replicas().size());
    }

    public static int effectiveMinInsyncReplicas(int minInsyncReplicas, int replicationFactor) {
        return Math.min(minInsyncReplicas, replicationFactor);
    }

    /** Work on the partition's log that must not overlap its removal from this broker. */
    @FunctionalInterface
    public interface HostedWork {
        boolean run() throws Exception;
    }

    /**
     * Runs {@code work} unless the partition was removed from this broker (deleted, or reassigned away; its log then
     * deleted), and holds the removal back while it runs: a follower's fetcher applies what it fetched this way.
     * False when it did not run, else what it returned.
     */
    public boolean whileHosted(HostedWork work) throws Exception {
        synchronized (hosting) {
            return !removed && work.run();
        }
    }

    /** The partition leaves this broker: once the work running in {@link #whileHosted} ends, none runs again. */
    void markRemoved() {
        synchronized (hosting) {
            removed = true;
        }
    }

    /**
     * The high watermark as the leader of {@code leaderEpoch} has it, or -1 once that leadership is over: this broker
     * then follows, and its high watermark is the new leader's, which says nothing of what it wrote as leader (its
     * log is truncated to the new leader's and refilled with other records at the same offsets). Read before the
     * epoch, so a value returned was read while the epoch was still {@code leaderEpoch}.
     */
    public long highWatermarkIn(int leaderEpoch) {
        long highWatermark = log().highWatermark();
        return leaderEpoch() == leaderEpoch ? highWatermark : -1;
    }

    /** Work that holds the partition's assignment still while it runs (see {@link #withAssignment}). */
    @FunctionalInterface
    public interface AssignedWork<T> {
        T run(PartitionImage assignment) throws IOException;
    }

    /**
     * Runs {@code work} on the current assignment, which no other may replace until it returns. An append as leader
     * runs so: it checks this broker leads the assignment and stamps its batch with that assignment's epoch. Checked
     * outside, a leadership could end between the check and the append, and the batch be written, acknowledged even,
     * in the next leader's epoch on a broker that now follows (Kafka's leaders append under the same kind of lock).
     */
    public <T> T withAssignment(AssignedWork<T> work) throws IOException {
        assignmentLock.readLock().lock();
        try {
            return work.run(assignment);
        } finally {
            assignmentLock.readLock().unlock();
        }
    }

    void setAssignment(PartitionImage assignment) {
        if (assignment.equals(this.assignment)) {
            return; // most images change nothing here: no need to wait for the appends in flight
        }
        boolean newLeadership;
        assignmentLock.writeLock().lock();
        try {
            newLeadership = assignment.leaderEpoch() != this.assignment.leaderEpoch();
            if (newLeadership) {
                followers.reset();
            }
            this.assignment = assignment;
        } finally {
            assignmentLock.writeLock().unlock();
        }
        if (newLeadership) {
            // Whoever waits on the old leadership is answered now (a parked acks=all batch: NOT_LEADER_OR_FOLLOWER,
            // as Kafka's broker answers them when it becomes a follower), not at its timeout.
            notifyAppended();
        }
    }

    /**
     * On the leader {@code localId} of {@code leaderEpoch}: follower {@code replicaId}, in broker epoch
     * {@code brokerEpoch} (-1 when not known), fetched from {@code fetchOffset} (it has every record before it), its log starting at
     * {@code logStartOffset}; the high watermark moves to the lowest log end offset
     * of the ISR if that is past it, and then whoever waits on the partition is told, as when the follower's log
     * start moved (a DeleteRecords waits for it).
     */
    public void onFollowerFetch(int localId, int leaderEpoch, int replicaId, long brokerEpoch, long fetchOffset,
                                long logStartOffset, long nowMs) throws IOException {
        boolean logStartMoved = withAssignment(current -> {
            if (current.leader() != localId || current.leaderEpoch() != leaderEpoch) {
                // The fetch was read in a leadership that ended since: its progress says nothing of the next one.
                return false;
            }
            long highWatermark = log().highWatermark();
            boolean moved = followers.onFetch(replicaId, brokerEpoch, fetchOffset, logStartOffset, log().logEndOffset(),
                    nowMs);
            maybeAdvanceHighWatermark(localId);
            return moved && log().highWatermark() == highWatermark;
        });
        if (logStartMoved) {
            notifyAppended();
        }
    }

    /**
     * On the leader: the lowest log start offset among this replica and the followers on brokers {@code live}
     * says are up (Kafka's low watermark, which DeleteRecords answers once it reached the offset asked for); a
     * follower not heard from in this leadership counts as -1.
     */
    public long lowWatermark(IntPredicate live) {
        long lowest = log().logStartOffset();
        for (int replica : assignment.replicas()) {
            if (replica != assignment.leader() && live.test(replica)) {
                lowest = Math.min(lowest, followers.of(replica).logStartOffset());
            }
        }
        return lowest;
    }

    /**
     * On the leader {@code localId}: moves the high watermark to the lowest log end offset among the in-sync
     * replicas (a follower not heard from in this leadership counts as having nothing), if that is past it; tells
     * the listeners when it moved. Called after a follower's fetch and when the ISR or the config changed.
     * Never while the ISR is smaller than {@link #minInsyncReplicas} (KIP-966's strict rule): a record committed by
     * fewer replicas could be lost with the one that has it, and the replicas eligible to lead (the ISR and the
     * ELR) must all hold every committed record.
     */
    public void maybeAdvanceHighWatermark(int localId) throws IOException {
        PartitionImage current = assignment;
        if (current.leader() != localId || current.isr().size() < minInsyncReplicas()) {
            return;
        }
        long lowest = log().logEndOffset();
        for (int replica : current.isr()) {
            if (replica != localId && !DeliberateFault.is(DeliberateFault.HIGH_WATERMARK_AT_LEADER_LOG_END)) {
                lowest = Math.min(lowest, followers.of(replica).logEndOffset());
            }
        }
        if (lowest > log().highWatermark()) {
            log().updateHighWatermark(lowest);
            notifyAppended();
        }
    }

    /** What the leader knows of follower {@code replicaId}; its log end offset is -1 until it fetched. */
    public FollowerStates.FollowerState follower(int replicaId) {
        return followers.of(replicaId);
    }

    /** Registers a listener told of every append until it is removed (a parked fetch watching this partition). */
    public void addAppendListener(AppendListener listener) {
        appendListeners.add(listener);
    }

    public void removeAppendListener(AppendListener listener) {
        appendListeners.remove(listener);
    }

    /**
     * Registers a listener told of every append until it is removed, for as long as something follows the
     * partition (a coordinator shard waiting for its writes' commit); unlike parked requests, not counted.
     */
    public void addCommitWatcher(AppendListener listener) {
        commitWatchers.add(listener);
    }

    public void removeCommitWatcher(AppendListener listener) {
        commitWatchers.remove(listener);
    }

    /** Listeners registered now (parked fetches waiting on this partition). */
    public int appendListenerCount() {
        return appendListeners.size();
    }

    /**
     * Tells the listeners that records were appended; whoever appends calls it once per append, after the
     * high watermark was updated, so that a woken fetch sees the new records.
     */
    public void notifyAppended() {
        for (AppendListener listener : appendListeners) {
            listener.onAppend(this);
        }
        for (AppendListener listener : commitWatchers) {
            listener.onAppend(this);
        }
    }

    @Override
    public String toString() {
        return topicPartition + "@" + assignment.leaderEpoch();
    }
}

package dev.spool.broker.coordinator;

import dev.spool.broker.partition.AppendListener;
import dev.spool.broker.partition.Partition;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A hosted partition's log end offset and high watermark, in one leader epoch, as a {@link CommitWatermark}:
 * watchers hear of every append to it (after which the high watermark may have moved), as parked fetches do;
 * replication must also call {@link Partition#notifyAppended} when a follower's fetch moves the high watermark.
 * Thread-safe.
 *
 * <p>Once the partition's leadership has moved on, nothing more is committed here: the high watermark is then a
 * follower's, the new leader's, which says nothing of what the shard wrote (its log is truncated to the new leader's
 * and refilled with other records at the same offsets).
 */
public final class PartitionCommitWatermark implements CommitWatermark {

    private final Partition partition;
    private final int leaderEpoch;
    private final Map<Runnable, AppendListener> listeners = new ConcurrentHashMap<>();

    /** The watermark of {@code partition} while it is led in {@code leaderEpoch}. */
    public PartitionCommitWatermark(Partition partition, int leaderEpoch) {
        this.partition = partition;
        this.leaderEpoch = leaderEpoch;
    }

    @Override
    public long writtenUpTo() {
        return partition.log().logEndOffset();
    }

    /** The high watermark; -1 once the leader epoch is not this watermark's (see the class comment). */
    @Override
    public long committedUpTo() {
        return partition.highWatermarkIn(leaderEpoch);
    }

    @Override
    public void watch(Runnable onMove) {
        AppendListener listener = appended -> onMove.run();
        if (listeners.putIfAbsent(onMove, listener) == null) {
            partition.addCommitWatcher(listener);
        }
    }

    @Override
    public void unwatch(Runnable onMove) {
        AppendListener listener = listeners.remove(onMove);
        if (listener != null) {
            partition.removeCommitWatcher(listener);
        }
    }

    @Override
    public String toString() {
        return "PartitionCommitWatermark(" + partition + ")";
    }
}

package dev.spool.broker.coordinator;

import dev.spool.broker.partition.AppendListener;
import dev.spool.broker.partition.Partition;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A hosted partition's log end offset and high watermark as a {@link CommitWatermark}: watchers hear of
 * every append to it (after which the high watermark may have moved), as parked fetches do; replication
 * must also call {@link Partition#notifyAppended} when a follower's fetch moves the high watermark.
 * Thread-safe.
 */
public final class PartitionCommitWatermark implements CommitWatermark {

    private final Partition partition;
    private final Map<Runnable, AppendListener> listeners = new ConcurrentHashMap<>();

    public PartitionCommitWatermark(Partition partition) {
        this.partition = partition;
    }

    @Override
    public long writtenUpTo() {
        return partition.log().logEndOffset();
    }

    @Override
    public long committedUpTo() {
        return partition.log().highWatermark();
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

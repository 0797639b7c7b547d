package dev.spool.broker.coordinator;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link CommitWatermark} the test moves: {@link #write} appends records, {@link #commit} moves the high
 * watermark and tells the watchers, as an append and a follower's fetch would. Thread-safe.
 */
final class ManualCommitWatermark implements CommitWatermark {

    private final List<Runnable> watchers = new CopyOnWriteArrayList<>();
    private volatile long written;
    private volatile long committed;

    synchronized void write(int records) {
        written += records;
    }

    /** Commits everything written and tells the watchers. */
    void commitAll() {
        committed = written;
        watchers.forEach(Runnable::run);
    }

    int watcherCount() {
        return watchers.size();
    }

    @Override
    public long writtenUpTo() {
        return written;
    }

    @Override
    public long committedUpTo() {
        return committed;
    }

    @Override
    public void watch(Runnable onMove) {
        watchers.add(onMove);
    }

    @Override
    public void unwatch(Runnable onMove) {
        watchers.remove(onMove);
    }
}

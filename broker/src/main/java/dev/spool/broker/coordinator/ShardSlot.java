package dev.spool.broker.coordinator;

import java.io.IOException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One partition's place in a {@link CoordinatorRuntime}: its shard from loading to unloading, the shard's
 * timer, and the answers held for the commit of its writes. Its state changes only on its thread and is
 * volatile so that the runtime can read it from anywhere.
 */
final class ShardSlot<S extends CoordinatorShard> {

    private static final Logger LOG = LoggerFactory.getLogger(ShardSlot.class);

    private enum State { LOADING, ACTIVE, FAILED, UNLOADED }

    private final int partition;
    private final ShardThread thread;
    private final CommitWatermark watermark;
    private final ScheduledCoordinatorTimer timer;
    private final CommitWaits waits = new CommitWaits();
    private final Runnable onHighWatermarkMove = this::highWatermarkMayHaveMoved;
    private final int leaderEpoch;
    private volatile State state = State.LOADING;
    /** Set when any answer waits, so that appends to the partition do not hop threads for nothing. */
    private volatile boolean waiting;
    private S shard;

    ShardSlot(int partition, int leaderEpoch, ShardThread thread, CommitWatermark watermark) {
        this.partition = partition;
        this.leaderEpoch = leaderEpoch;
        this.thread = thread;
        this.watermark = watermark;
        this.timer = new ScheduledCoordinatorTimer(thread.executor());
    }

    ShardThread thread() {
        return thread;
    }

    int leaderEpoch() {
        return leaderEpoch;
    }

    boolean isActive() {
        return state == State.ACTIVE;
    }

    boolean isLoading() {
        return state == State.LOADING;
    }

    /** The shard; only on its thread, once active. */
    S shard() {
        return shard;
    }

    /**
     * On the slot's thread: makes and loads the shard. One that cannot load is FAILED (logged; its requests
     * get NOT_COORDINATOR) until the runtime replaces the slot at a new leader epoch.
     */
    void load(Function<CoordinatorTimer, S> create) {
        if (state != State.LOADING) {
            return; // unloaded before it could load
        }
        try {
            shard = create.apply(timer);
            shard.load();
        } catch (IOException | RuntimeException | Error e) {
            LOG.error("Cannot load partition {} of the coordinator (leader epoch {}); its requests get NOT_COORDINATOR",
                    partition, leaderEpoch, e);
            timer.cancelAll();
            state = State.FAILED;
            return;
        }
        watermark.watch(onHighWatermarkMove);
        state = State.ACTIVE;
        try {
            shard.onLoaded();
        } catch (RuntimeException e) {
            LOG.error("{} failed after its load", shard, e);
        }
    }

    /** On the slot's thread: drops the shard; held answers and parked requests hear NOT_COORDINATOR. */
    void unload() {
        State was = state;
        state = State.UNLOADED;
        if (was != State.ACTIVE) {
            return;
        }
        watermark.unwatch(onHighWatermarkMove);
        timer.cancelAll();
        waits.lose();
        waiting = false;
        try {
            shard.unload();
        } catch (RuntimeException e) {
            LOG.error("Unloading {} failed", shard, e);
        }
    }

    /**
     * On the slot's thread: runs {@code onCommitted} once everything written so far is committed, or
     * {@code onLost} if the shard is unloaded first.
     */
    void afterCommit(Runnable onCommitted, Runnable onLost) {
        if (state != State.ACTIVE) {
            onLost.run();
            return;
        }
        long written = watermark.writtenUpTo();
        if (watermark.committedUpTo() >= written) {
            onCommitted.run();
            return;
        }
        waits.add(written, onCommitted, onLost);
        waiting = true;
        // The high watermark may have moved between the read and the wait being registered.
        highWatermarkMayHaveMoved();
    }

    private void highWatermarkMayHaveMoved() {
        if (!waiting) {
            return;
        }
        // Stopped: the unload (queued before the stop) answers what waits.
        thread.tryRun(() -> {
            if (state == State.ACTIVE) {
                waits.committedUpTo(watermark.committedUpTo());
                waiting = !waits.isEmpty();
            }
        });
    }

    @Override
    public String toString() {
        return "ShardSlot(" + partition + ", epoch " + leaderEpoch + ", " + state + ")";
    }
}

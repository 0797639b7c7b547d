package dev.spool.broker.purgatory;

import dev.spool.broker.partition.AppendListener;
import dev.spool.broker.partition.Partition;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Thread-safe: a check and the timeout may race, and the first to finish wins. An operation parked until the
 * offsets of the partitions it watches allow it to complete ({@link #canComplete}, cheap arithmetic on
 * offsets, no I/O) or its wait runs out: no thread waits for it. A move of a watched partition's offsets
 * (an append, a high watermark change) schedules one check on the {@link WaitTimer}, never on the thread that
 * moved them; {@link #complete} then runs exactly once, with whether the wait ran out. Parked fetches are one
 * kind; acks=all produces waiting for the high watermark will be another.
 */
public abstract class DelayedOperation implements AppendListener {

    private final List<Partition> watched;
    private final AtomicBoolean done = new AtomicBoolean();
    private final AtomicBoolean checkPending = new AtomicBoolean();
    private volatile WaitTimer timer;
    private volatile WaitTimer.Cancellable timeout;

    protected DelayedOperation(List<Partition> watched) {
        this.watched = watched;
    }

    /** Whether the operation can complete now; called on the timer's thread, must not block. */
    protected abstract boolean canComplete();

    /** Completes the operation (answers its request); runs once, on the timer's thread. */
    protected abstract void complete(boolean expired);

    /** The wait could not start or go on (the broker is stopping): completes the operation with that failure. */
    protected abstract void fail(Throwable failure);

    /** Starts waiting, at most {@code maxWaitMs}. */
    public final void park(WaitTimer timer, long maxWaitMs) {
        this.timer = timer;
        for (Partition partition : watched) {
            partition.addAppendListener(this);
        }
        WaitTimer.Cancellable scheduled;
        try {
            scheduled = timer.schedule(this::onTimeout, maxWaitMs);
        } catch (RejectedExecutionException e) {
            if (stopWaiting()) {
                fail(e);
            }
            return;
        }
        timeout = scheduled;
        if (done.get()) {
            // Finished before the timer was visible to it: cancel it here (one of the two sides always sees the other).
            scheduled.cancel();
        }
        // A move between the caller's first look and the registration above would otherwise go unnoticed.
        onAppend(null);
    }

    @Override
    public final void onAppend(Partition partition) {
        if (done.get() || !checkPending.compareAndSet(false, true)) {
            return;
        }
        try {
            timer.execute(this::check);
        } catch (RejectedExecutionException e) {
            if (stopWaiting()) {
                fail(e);
            }
        }
    }

    private void check() {
        checkPending.set(false);
        if (!done.get() && canComplete() && stopWaiting()) {
            complete(false);
        }
    }

    private void onTimeout() {
        if (stopWaiting()) {
            complete(true);
        }
    }

    /** Whether the operation is complete (or failed). */
    public final boolean isDone() {
        return done.get();
    }

    /** Returns true for the one caller that ends the wait: it stops listening and cancels the timer. */
    private boolean stopWaiting() {
        if (!done.compareAndSet(false, true)) {
            return false;
        }
        for (Partition partition : watched) {
            partition.removeAppendListener(this);
        }
        WaitTimer.Cancellable scheduled = timeout;
        if (scheduled != null) {
            scheduled.cancel();
        }
        return true;
    }
}

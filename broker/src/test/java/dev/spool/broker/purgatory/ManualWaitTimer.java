package dev.spool.broker.purgatory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A {@link WaitTimer} for tests: checks wait in a queue until {@link #runPending()}, timeouts until
 * {@link #advance} moves its clock past them, all run on the test's thread. Thread-safe (synchronized), so
 * that a wake-up from another thread is queued too.
 */
public final class ManualWaitTimer implements WaitTimer {

    private final Deque<Runnable> pending = new ArrayDeque<>();
    private final List<Timeout> timeouts = new ArrayList<>();
    private long nowMs;

    private static final class Timeout {
        final Runnable task;
        final long dueMs;
        boolean cancelled;

        Timeout(Runnable task, long dueMs) {
            this.task = task;
            this.dueMs = dueMs;
        }
    }

    @Override
    public synchronized void execute(Runnable task) {
        pending.add(task);
    }

    @Override
    public synchronized Cancellable schedule(Runnable task, long delayMs) {
        Timeout timeout = new Timeout(task, nowMs + delayMs);
        timeouts.add(timeout);
        return () -> {
            synchronized (this) {
                timeout.cancelled = true;
            }
        };
    }

    /** Runs the queued checks (and any they queue), in order. */
    public void runPending() {
        Runnable next;
        while ((next = poll()) != null) {
            next.run();
        }
    }

    private synchronized Runnable poll() {
        return pending.poll();
    }

    /** Runs the queued checks, then moves the clock by {@code ms} and runs the timeouts now due. */
    public void advance(long ms) {
        runPending();
        List<Timeout> due = new ArrayList<>();
        synchronized (this) {
            nowMs += ms;
            for (Timeout timeout : List.copyOf(timeouts)) {
                if (timeout.dueMs <= nowMs) {
                    timeouts.remove(timeout);
                    if (!timeout.cancelled) {
                        due.add(timeout);
                    }
                }
            }
        }
        for (Timeout timeout : due) {
            timeout.task.run();
        }
        runPending();
    }

    /** Timeouts scheduled and neither run nor cancelled. */
    public synchronized long liveTimeouts() {
        return timeouts.stream().filter(timeout -> !timeout.cancelled).count();
    }
}

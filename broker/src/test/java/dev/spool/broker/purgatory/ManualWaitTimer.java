package dev.spool.broker.purgatory;

import dev.spool.fixtures.ManualClock;
import dev.spool.fixtures.ManualScheduler;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A {@link WaitTimer} for tests: checks wait in a queue until {@link #runPending()}, timeouts on a
 * {@link ManualScheduler} until {@link #advance} moves its clock past them, all run on the test's thread.
 * Thread-safe (synchronized), so that a wake-up from another thread is queued too.
 */
public final class ManualWaitTimer implements WaitTimer {

    private final Deque<Runnable> pending = new ArrayDeque<>();
    private final ManualScheduler timeouts = new ManualScheduler(new ManualClock(0));

    @Override
    public synchronized void execute(Runnable task) {
        pending.add(task);
    }

    @Override
    public Cancellable schedule(Runnable task, long delayMs) {
        return timeouts.schedule(delayMs, task)::cancel;
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

    /** Runs the queued checks, then moves the clock by {@code ms}, running the timeouts due, then their checks. */
    public void advance(long ms) {
        runPending();
        timeouts.advance(ms);
        runPending();
    }

    /** Timeouts scheduled and neither run nor cancelled. */
    public long liveTimeouts() {
        return timeouts.pending();
    }
}

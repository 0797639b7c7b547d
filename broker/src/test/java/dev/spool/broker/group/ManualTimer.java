package dev.spool.broker.group;

import dev.spool.broker.coordinator.CoordinatorTimer;
import dev.spool.fixtures.ManualClock;
import dev.spool.fixtures.ManualScheduler;
import java.util.HashMap;
import java.util.Map;

/**
 * A {@link CoordinatorTimer} driven by the test: its keys over a {@link ManualScheduler} whose clock starts
 * at 0 and moves only in {@link #advance}, which runs the due tasks in deadline order (ties in scheduling
 * order). Not thread-safe.
 */
final class ManualTimer implements CoordinatorTimer {

    private final ManualScheduler scheduler = new ManualScheduler(new ManualClock(0));
    private final Map<String, ManualScheduler.Task> tasks = new HashMap<>();

    long nowMs() {
        return scheduler.clock().nowMs();
    }

    @Override
    public void schedule(String key, long delayMs, Runnable task) {
        cancel(key);
        tasks.put(key, scheduler.schedule(delayMs, task));
    }

    @Override
    public void cancel(String key) {
        ManualScheduler.Task task = tasks.remove(key);
        if (task != null) {
            task.cancel();
        }
    }

    boolean isScheduled(String key) {
        ManualScheduler.Task task = tasks.get(key);
        return task != null && task.isPending();
    }

    /** Moves the clock forward, running every task that falls due on the way, at its own time. */
    void advance(long deltaMs) {
        scheduler.advance(deltaMs);
    }
}

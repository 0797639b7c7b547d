package dev.spool.broker.group;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The production {@link CoordinatorTimer}: tasks go to the coordinator's single-threaded scheduler,
 * the same thread that runs every other coordinator task. Not thread-safe: call it from that thread.
 */
final class ScheduledCoordinatorTimer implements CoordinatorTimer {

    private final ScheduledExecutorService coordinatorThread;
    private final Map<String, ScheduledFuture<?>> tasks = new HashMap<>();

    ScheduledCoordinatorTimer(ScheduledExecutorService coordinatorThread) {
        this.coordinatorThread = coordinatorThread;
    }

    @Override
    public void schedule(String key, long delayMs, Runnable task) {
        cancel(key);
        ScheduledFuture<?>[] self = new ScheduledFuture<?>[1];
        self[0] = coordinatorThread.schedule(() -> {
            // A task replaced after it was dequeued must not run: only the current one removes itself.
            if (tasks.get(key) == self[0]) {
                tasks.remove(key);
                task.run();
            }
        }, Math.max(0, delayMs), TimeUnit.MILLISECONDS);
        tasks.put(key, self[0]);
    }

    @Override
    public void cancel(String key) {
        ScheduledFuture<?> previous = tasks.remove(key);
        if (previous != null) {
            previous.cancel(false);
        }
    }
}

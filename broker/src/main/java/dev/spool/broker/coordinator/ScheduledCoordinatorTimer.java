package dev.spool.broker.coordinator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The production {@link CoordinatorTimer}: one shard's tasks go to the single-threaded scheduler that runs
 * every other task of that shard. Not thread-safe: call it from that thread.
 */
final class ScheduledCoordinatorTimer implements CoordinatorTimer {

    private final ScheduledExecutorService shardThread;
    private final Map<String, ScheduledFuture<?>> tasks = new HashMap<>();

    ScheduledCoordinatorTimer(ScheduledExecutorService shardThread) {
        this.shardThread = shardThread;
    }

    @Override
    public void schedule(String key, long delayMs, Runnable task) {
        cancel(key);
        ScheduledFuture<?>[] self = new ScheduledFuture<?>[1];
        self[0] = shardThread.schedule(() -> {
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

    /** Cancels every task: the shard is unloaded. */
    void cancelAll() {
        for (String key : new ArrayList<>(tasks.keySet())) {
            cancel(key);
        }
    }
}

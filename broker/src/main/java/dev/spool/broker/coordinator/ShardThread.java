package dev.spool.broker.coordinator;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One thread of a {@link CoordinatorRuntime}: it runs every task of the shards it owns, one at a time, so a
 * shard's state needs no locks. Thread-safe.
 */
final class ShardThread {

    private final ScheduledThreadPoolExecutor executor;
    private volatile Thread thread;

    ShardThread(String name) {
        this.executor = (ScheduledThreadPoolExecutor) Executors.newScheduledThreadPool(1, runnable -> {
            Thread created = new Thread(runnable, name);
            created.setDaemon(true);
            thread = created;
            return created;
        });
        // On close, timers of unloaded shards (rebalance timeouts of minutes) must not keep it alive.
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        executor.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
    }

    ScheduledExecutorService executor() {
        return executor;
    }

    boolean isCurrent() {
        return Thread.currentThread() == thread;
    }

    void execute(Runnable task) {
        executor.execute(task);
    }

    /** Runs {@code task} now when called on this thread, else queues it. */
    void run(Runnable task) {
        if (isCurrent()) {
            task.run();
        } else {
            executor.execute(task);
        }
    }

    /** Runs the tasks already queued (not the delayed ones), then stops; true if it stopped in time. */
    boolean shutdown(long timeoutMs) throws InterruptedException {
        executor.shutdown();
        if (executor.awaitTermination(timeoutMs, TimeUnit.MILLISECONDS)) {
            return true;
        }
        executor.shutdownNow();
        return false;
    }
}

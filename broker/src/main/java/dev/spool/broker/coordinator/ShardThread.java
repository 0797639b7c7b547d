package dev.spool.broker.coordinator;

import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
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

    /** Queues {@code task}; false if the thread is stopped. */
    boolean tryExecute(Runnable task) {
        try {
            executor.execute(task);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /** Runs {@code task} now when called on this thread, else queues it; false if the thread is stopped. */
    boolean tryRun(Runnable task) {
        if (isCurrent()) {
            task.run();
            return true;
        }
        return tryExecute(task);
    }

    /** Stops taking tasks; the ones already queued (not the delayed ones) still run. */
    void shutdown() {
        executor.shutdown();
    }

    /** Waits until the queued tasks ran, at most until {@code deadlineNanos}; then stops the thread anyway. */
    boolean awaitTermination(long deadlineNanos) throws InterruptedException {
        if (executor.awaitTermination(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS)) {
            return true;
        }
        executor.shutdownNow();
        return false;
    }
}

package dev.spool.broker.purgatory;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** The broker's {@link WaitTimer}: one daemon thread of its own. Thread-safe. */
public final class ThreadWaitTimer implements WaitTimer, AutoCloseable {

    private final ScheduledThreadPoolExecutor thread;

    public ThreadWaitTimer(String threadName) {
        this.thread = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread worker = new Thread(runnable, threadName);
            worker.setDaemon(true);
            return worker;
        });
        // Most parked operations end before their timeout: the cancelled timeouts must not pile up.
        this.thread.setRemoveOnCancelPolicy(true);
    }

    @Override
    public void execute(Runnable task) {
        thread.execute(task);
    }

    @Override
    public Cancellable schedule(Runnable task, long delayMs) {
        ScheduledFuture<?> scheduled = thread.schedule(task, delayMs, TimeUnit.MILLISECONDS);
        return () -> scheduled.cancel(false);
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}

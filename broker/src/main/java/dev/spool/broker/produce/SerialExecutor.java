package dev.spool.broker.produce;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Thread-safe: runs its tasks one at a time, in submission order, on a shared pool, so the work of one
 * partition is serialized while different partitions proceed in parallel; {@link #callHereIfIdle} runs
 * one on the calling thread instead when nothing is queued or running. A task's effects are visible to
 * the next (the hand-off of the {@code scheduled} flag and the queue orders them).
 *
 * <p>Design note: a drain runs at most {@link #MAX_TASKS_PER_DRAIN} tasks before yielding its pool
 * thread, so one busy partition cannot starve the others sharing the pool.
 */
final class SerialExecutor implements Executor {

    static final int MAX_TASKS_PER_DRAIN = 64;

    private final Executor pool;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();

    SerialExecutor(Executor pool) {
        this.pool = pool;
    }

    /**
     * Calls {@code task} on the calling thread if no task of this executor is queued or running, holding
     * the executor meanwhile, so that tasks submitted during the call run after it; returns its result,
     * or null without calling it if the executor is busy.
     */
    <T> T callHereIfIdle(Supplier<T> task) {
        if (!tasks.isEmpty() || !scheduled.compareAndSet(false, true)) {
            return null;
        }
        try {
            return task.get();
        } finally {
            scheduled.set(false);
            maybeSchedule();
        }
    }

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
        maybeSchedule();
    }

    private void maybeSchedule() {
        if (!tasks.isEmpty() && scheduled.compareAndSet(false, true)) {
            pool.execute(this::drain);
        }
    }

    private void drain() {
        try {
            for (int i = 0; i < MAX_TASKS_PER_DRAIN; i++) {
                Runnable task = tasks.poll();
                if (task == null) {
                    break;
                }
                task.run();
            }
        } finally {
            scheduled.set(false);
            maybeSchedule();
        }
    }
}

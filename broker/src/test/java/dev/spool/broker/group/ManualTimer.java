package dev.spool.broker.group;

import dev.spool.broker.coordinator.CoordinatorTimer;
import java.util.HashMap;
import java.util.Map;

/**
 * A {@link CoordinatorTimer} driven by the test: time moves only in {@link #advance}, which runs the
 * due tasks in deadline order (ties in scheduling order). Not thread-safe.
 */
final class ManualTimer implements CoordinatorTimer {

    private record Task(long deadlineMs, long sequence, Runnable action) {
    }

    private final Map<String, Task> tasks = new HashMap<>();
    private long nowMs;
    private long sequence;

    long nowMs() {
        return nowMs;
    }

    @Override
    public void schedule(String key, long delayMs, Runnable task) {
        tasks.put(key, new Task(nowMs + Math.max(0, delayMs), sequence++, task));
    }

    @Override
    public void cancel(String key) {
        tasks.remove(key);
    }

    boolean isScheduled(String key) {
        return tasks.containsKey(key);
    }

    /** Moves the clock forward, running every task that falls due on the way, at its own time. */
    void advance(long deltaMs) {
        long targetMs = nowMs + deltaMs;
        while (true) {
            Map.Entry<String, Task> next = null;
            for (Map.Entry<String, Task> entry : tasks.entrySet()) {
                Task task = entry.getValue();
                if (task.deadlineMs() <= targetMs && (next == null || task.deadlineMs() < next.getValue().deadlineMs()
                        || (task.deadlineMs() == next.getValue().deadlineMs()
                        && task.sequence() < next.getValue().sequence()))) {
                    next = entry;
                }
            }
            if (next == null) {
                break;
            }
            tasks.remove(next.getKey());
            nowMs = Math.max(nowMs, next.getValue().deadlineMs());
            next.getValue().action().run();
        }
        nowMs = targetMs;
    }
}

package dev.spool.broker.group;

/**
 * Timeouts of the group coordinator, by key: scheduling a key again replaces its task, and a task
 * runs on the coordinator thread, never concurrently with another coordinator task. Injectable, so
 * that session and rebalance timeouts are tested without sleeping. Implementations are thread-safe
 * only as far as they state.
 */
interface CoordinatorTimer {

    /** Runs {@code task} after {@code delayMs} unless the key is cancelled or scheduled again first. */
    void schedule(String key, long delayMs, Runnable task);

    void cancel(String key);
}

package dev.spool.broker.coordinator;

/**
 * Timeouts of one coordinator shard, by key: scheduling a key again replaces its task, and a task runs on
 * the shard's thread, never concurrently with another task of the shard. Injectable, so that session and
 * rebalance timeouts are tested without sleeping. Implementations are thread-safe only as far as they
 * state.
 */
public interface CoordinatorTimer {

    /** Runs {@code task} after {@code delayMs} unless the key is cancelled or scheduled again first. */
    void schedule(String key, long delayMs, Runnable task);

    void cancel(String key);
}

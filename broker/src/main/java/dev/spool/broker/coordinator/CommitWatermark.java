package dev.spool.broker.coordinator;

/**
 * How far a coordinator shard's partition is written and how far committed: the runtime holds a shard's
 * answers until everything the shard wrote before answering is committed (below the high watermark), so a
 * client never hears of state that a leader change could still take back. Implementations are
 * thread-safe; {@link #watch} listeners are called on whichever thread moved the high watermark and only
 * hand the work on.
 */
public interface CommitWatermark {

    /** The offset the next record will take (the log end offset). */
    long writtenUpTo();

    /** The high watermark: every record below it is committed. */
    long committedUpTo();

    /** Calls {@code onMove} whenever the high watermark may have moved, until {@link #unwatch}. */
    void watch(Runnable onMove);

    void unwatch(Runnable onMove);
}

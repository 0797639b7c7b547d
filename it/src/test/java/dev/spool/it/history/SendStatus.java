package dev.spool.it.history;

/**
 * What the history says became of a sent value. Immutable, so thread-safe.
 */
public enum SendStatus {
    /** Acknowledged, outside a transaction or in one that committed: every consumer must be able to read it. */
    ACKNOWLEDGED,
    /** Every attempt failed definitely: no consumer may read it. */
    FAILED,
    /** Written only in transactions that aborted: no read_committed consumer may read it. */
    ABORTED,
    /** It may or may not be in the log (a timeout, an unanswered send, a transaction of unknown outcome). */
    INDETERMINATE
}

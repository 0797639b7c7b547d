package dev.spool.it.history;

/**
 * How a transaction ended, as far as the history tells. Immutable, so thread-safe.
 */
public enum TransactionOutcome {
    /** txn-commit ok, or a read_committed consumer read one of its values. */
    COMMITTED,
    /** txn-abort ok, or txn-commit fail. */
    ABORTED,
    /** Neither: the commit or abort timed out, or the client died. */
    UNKNOWN
}

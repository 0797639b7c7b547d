package dev.spool.it.history;

/**
 * One record one poll returned, with who read it: the consumer process, the transaction the poll
 * fed (null if none), the poll's position in the history and the consumer's isolation. Immutable,
 * so thread-safe.
 */
public record PolledRecord(ReadRecord read, String process, String txn, int eventIndex, boolean readCommitted) {
}

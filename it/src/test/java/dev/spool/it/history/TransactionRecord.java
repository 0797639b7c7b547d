package dev.spool.it.history;

/**
 * Not thread-safe: built by one {@link HistoryIndex}. How the history ended one transaction.
 */
final class TransactionRecord {

    private final String txn;
    private boolean committed;
    private boolean aborted;

    TransactionRecord(String txn) {
        this.txn = txn;
    }

    void onEvent(HistoryEvent event, int eventIndex) {
        boolean commit = event.operation() == Operation.TXN_COMMIT;
        boolean abort = event.operation() == Operation.TXN_ABORT;
        if (commit && event.type() == EventType.OK) {
            committed = true;
        } else if ((abort && event.type() == EventType.OK) || (commit && event.type() == EventType.FAIL)) {
            aborted = true;
        }
        if (committed && aborted) {
            throw new IllegalArgumentException("transaction " + txn + " both committed and aborted (event " + eventIndex
                    + ": " + HistoryLineFormat.format(event) + ")");
        }
    }

    /** The outcome the history states, before any inference from reads. */
    TransactionOutcome statedOutcome() {
        return committed ? TransactionOutcome.COMMITTED : aborted ? TransactionOutcome.ABORTED : TransactionOutcome.UNKNOWN;
    }
}

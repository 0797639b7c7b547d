package dev.spool.it.history;

/**
 * The anomalies {@link HistoryChecker} looks for, and whether each makes a history invalid.
 * Immutable, so thread-safe.
 */
public enum AnomalyKind {
    LOST_WRITE("lost-write", true,
            "acknowledged value never read, though its partition was read at or past its offset"),
    UNSEEN("unseen", false,
            "acknowledged value never read, above the highest offset read in its partition (a final drain should read it)"),
    INCONSISTENT_OFFSET("inconsistent-offset", true, "one partition offset seen holding two values"),
    DUPLICATE("duplicate", true, "value of an idempotent producer, sent once, found at two offsets"),
    ALLOWED_DUPLICATE("allowed-duplicate", false,
            "value found at two offsets, from a producer without idempotence or sent twice by the workload"),
    NONMONOTONIC_SEND("nonmonotonic-send", true,
            "an ordered producer's value written below a value it sent earlier to the same partition"),
    NONMONOTONIC_POLL("nonmonotonic-poll", true,
            "a consumer read an offset at or below one it had read, with no assign, rebalance or seek between"),
    SKIPPED_OFFSET("skipped-offset", true,
            "a consumer's next read jumped over an offset holding a committed value, with no assign, rebalance or seek between"),
    ABORTED_READ("aborted-read", true,
            "value read from a send that failed, or (by a read_committed consumer) from an aborted transaction"),
    UNEXPECTED_READ("unexpected-read", true, "value read that no send wrote, or read before its send was invoked"),
    DOUBLE_PROCESSED("double-processed", true,
            "an input record read by two committed consume-transform-produce transactions"),
    UNPROCESSED("unprocessed", true,
            "an input record below the last one processed in its partition that no committed consume-transform-produce "
                    + "transaction read"),
    G1C("G1c", true, "circular information flow between committed transactions"),
    G0("G0", false, "write cycle between committed transactions (Kafka's transactions allow it)");

    private final String label;
    private final boolean failure;
    private final String meaning;

    AnomalyKind(String label, boolean failure, String meaning) {
        this.label = label;
        this.failure = failure;
        this.meaning = meaning;
    }

    /** The short name used in summaries. */
    public String label() {
        return label;
    }

    /** Whether one such anomaly makes the history invalid. */
    public boolean failure() {
        return failure;
    }

    /** One line saying what the anomaly is. */
    public String meaning() {
        return meaning;
    }
}

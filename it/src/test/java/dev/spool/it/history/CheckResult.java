package dev.spool.it.history;

import java.util.List;

/**
 * The outcome of checking one history: its totals, and per anomaly kind the count and the first
 * examples. Not thread-safe to build; read-only once returned by {@link HistoryChecker}.
 */
public final class CheckResult {

    private final HistoryTotals totals;
    private final AnomalyTally tally;

    CheckResult(HistoryTotals totals, AnomalyTally tally) {
        this.totals = totals;
        this.tally = tally;
    }

    public HistoryTotals totals() {
        return totals;
    }

    public long count(AnomalyKind kind) {
        return tally.count(kind);
    }

    /** The first examples of {@code kind}, at most the checker's limit. */
    public List<Anomaly> examples(AnomalyKind kind) {
        return tally.examples(kind);
    }

    /** Anomalies that make the history invalid. */
    public long failures() {
        long failures = 0;
        for (AnomalyKind kind : AnomalyKind.values()) {
            if (kind.failure()) {
                failures += tally.count(kind);
            }
        }
        return failures;
    }

    /** Whether no anomaly that counts as a failure was found (unseen values, allowed duplicates and G0 do not). */
    public boolean valid() {
        return failures() == 0;
    }

    /** A one-screen report: verdict, totals, one line per kind, then the examples. */
    public String summary() {
        StringBuilder text = new StringBuilder();
        text.append(valid() ? "VALID" : "INVALID: " + failures() + " anomalies that fail the history").append('\n');
        text.append(String.format("events %d; values sent %d: acknowledged %d, failed %d, aborted %d, indeterminate %d%n",
                totals.events(), totals.valuesSent(), totals.valuesAcknowledged(),
                totals.valuesByStatus().get(SendStatus.FAILED), totals.valuesByStatus().get(SendStatus.ABORTED),
                totals.valuesByStatus().get(SendStatus.INDETERMINATE)));
        text.append(String.format("records read %d (%d distinct values); transactions committed %d, aborted %d, unknown %d%n",
                totals.recordsRead(), totals.distinctValuesRead(),
                totals.transactionsByOutcome().get(TransactionOutcome.COMMITTED),
                totals.transactionsByOutcome().get(TransactionOutcome.ABORTED),
                totals.transactionsByOutcome().get(TransactionOutcome.UNKNOWN)));
        for (AnomalyKind kind : AnomalyKind.values()) {
            text.append(String.format("  %-20s %8d  %s%n", kind.label(), tally.count(kind),
                    kind.failure() ? "" : "(not a failure)"));
        }
        for (AnomalyKind kind : AnomalyKind.values()) {
            for (Anomaly example : tally.examples(kind)) {
                text.append("  ").append(example).append('\n');
            }
        }
        return text.toString();
    }

    @Override
    public String toString() {
        return summary();
    }
}

package dev.spool.it.history;

import java.util.EnumMap;
import java.util.Map;

/**
 * What a history held, for the report: events, sent values by status, records read, transactions
 * by outcome. Immutable, so thread-safe.
 */
public record HistoryTotals(long events, long valuesSent, Map<SendStatus, Long> valuesByStatus, long recordsRead,
                            long distinctValuesRead, Map<TransactionOutcome, Long> transactionsByOutcome) {

    public HistoryTotals {
        valuesByStatus = Map.copyOf(valuesByStatus);
        transactionsByOutcome = Map.copyOf(transactionsByOutcome);
    }

    public static HistoryTotals of(HistoryIndex index) {
        Map<SendStatus, Long> byStatus = new EnumMap<>(SendStatus.class);
        for (SendStatus status : SendStatus.values()) {
            byStatus.put(status, 0L);
        }
        for (SentValue sent : index.sends()) {
            byStatus.merge(index.status(sent.value()), 1L, Long::sum);
        }
        Map<TransactionOutcome, Long> byOutcome = new EnumMap<>(TransactionOutcome.class);
        for (TransactionOutcome outcome : TransactionOutcome.values()) {
            byOutcome.put(outcome, 0L);
        }
        index.transactions().values().forEach(outcome -> byOutcome.merge(outcome, 1L, Long::sum));
        return new HistoryTotals(index.events().size(), index.sends().size(), byStatus, index.reads().size(),
                index.distinctValuesRead(), byOutcome);
    }

    /** Values acknowledged (outside transactions or in committed ones). */
    public long valuesAcknowledged() {
        return valuesByStatus.get(SendStatus.ACKNOWLEDGED);
    }
}

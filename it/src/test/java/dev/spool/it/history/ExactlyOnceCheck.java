package dev.spool.it.history;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * Stateless. Exactly-once processing by consume-transform-produce clients ({@link ClientProfile#processing}): a
 * committed transaction of theirs (stated, or inferred from a read of its values) that both read records (its polls
 * name it) and sent values is a processing of the records it read. Then:
 * <ul>
 *   <li>double-processed: one input record (partition and offset) read by two such committed transactions: the
 *       consumer group's offsets, committed in the transaction, did not move with its output (or a fenced instance
 *       committed after its successor);</li>
 *   <li>unprocessed: an input record every consumer must see (see {@link HistoryIndex#holdsVisibleValue}), below the
 *       last record processed in its partition, that no such committed transaction read: the group's offsets moved
 *       past records whose output was aborted.</li>
 * </ul>
 * Records are told apart by offset, not value: a producer without idempotence may write one value twice, and each
 * copy is an input of its own. The workload has one processing group, reading its input from the start.
 */
public final class ExactlyOnceCheck implements HistoryCheck {

    private record InputRecord(LogPartition partition, long offset) {
    }

    @Override
    public void check(HistoryIndex index, AnomalyTally tally) {
        Set<String> processing = processingTransactions(index);
        Map<InputRecord, Set<String>> processedBy = new HashMap<>();
        Map<InputRecord, String> values = new HashMap<>();
        for (PolledRecord polled : index.reads()) {
            if (polled.txn() != null && processing.contains(polled.txn())) {
                InputRecord input = new InputRecord(polled.read().partition(), polled.read().offset());
                processedBy.computeIfAbsent(input, key -> new LinkedHashSet<>()).add(polled.txn());
                values.put(input, polled.read().value());
            }
        }
        Map<LogPartition, Long> lastProcessed = new TreeMap<>();
        processedBy.forEach((input, txns) -> {
            lastProcessed.merge(input.partition(), input.offset(), Math::max);
            if (txns.size() > 1) {
                tally.add(new Anomaly(AnomalyKind.DOUBLE_PROCESSED, input.partition(), input.offset(),
                        values.get(input), input.partition() + "@" + input.offset() + " (value " + values.get(input)
                        + ") read by committed transactions " + txns));
            }
        });
        lastProcessed.forEach((partition, last) -> {
            NavigableMap<Long, OffsetSlot> slots = index.slots().getOrDefault(partition, new TreeMap<>());
            slots.headMap(last, false).forEach((offset, slot) -> {
                if (!processedBy.containsKey(new InputRecord(partition, offset))
                        && index.holdsVisibleValue(partition, offset)) {
                    String value = slot.claims().get(0).value();
                    tally.add(new Anomaly(AnomalyKind.UNPROCESSED, partition, offset, value, partition + "@" + offset
                            + " (value " + value + ") read by no committed transaction, though they read "
                            + partition + " up to " + last));
                }
            });
        });
    }

    /** The committed transactions that read records and sent values. */
    private static Set<String> processingTransactions(HistoryIndex index) {
        Set<String> reading = new HashSet<>();
        for (PolledRecord polled : index.reads()) {
            if (polled.txn() != null && index.profile(polled.process()).processing()) {
                reading.add(polled.txn());
            }
        }
        Set<String> processing = new HashSet<>();
        for (SentValue sent : index.sends()) {
            for (String txn : sent.txns()) {
                if (txn != null && reading.contains(txn) && index.outcome(txn) == TransactionOutcome.COMMITTED) {
                    processing.add(txn);
                }
            }
        }
        return processing;
    }
}

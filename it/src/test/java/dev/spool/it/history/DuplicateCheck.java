package dev.spool.it.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

/**
 * Stateless. Duplicates: one value seen (acknowledged or read) at two positions, in one partition
 * or two. It fails the history when the value's producer was idempotent and the workload sent it
 * once: the producer's own retries must then not write it twice. A value from a producer without
 * idempotence, or one the workload sent again, is an allowed duplicate, counted apart.
 */
public final class DuplicateCheck implements HistoryCheck {

    private record Position(LogPartition partition, long offset, int eventIndex) {
    }

    @Override
    public void check(HistoryIndex index, AnomalyTally tally) {
        Map<String, Position> firstPositions = new HashMap<>();
        Map<String, List<Position>> duplicated = new LinkedHashMap<>();
        for (Map.Entry<LogPartition, NavigableMap<Long, OffsetSlot>> partition : index.slots().entrySet()) {
            for (Map.Entry<Long, OffsetSlot> offset : partition.getValue().entrySet()) {
                for (OffsetSlot.Claim claim : offset.getValue().claims()) {
                    Position position = new Position(partition.getKey(), offset.getKey(), claim.eventIndex());
                    Position first = firstPositions.putIfAbsent(claim.value(), position);
                    if (first != null) {
                        duplicated.computeIfAbsent(claim.value(), value -> new ArrayList<>(List.of(first))).add(position);
                    }
                }
            }
        }
        duplicated.forEach((value, positions) -> report(index, tally, value, positions));
    }

    private static void report(HistoryIndex index, AnomalyTally tally, String value, List<Position> positions) {
        SentValue sent = index.sent(value);
        if (sent == null) {
            return; // never sent: the read check reports it
        }
        boolean idempotent = index.profile(sent.process()).idempotent();
        boolean sentOnce = sent.invocations() <= 1;
        StringBuilder detail = new StringBuilder("value ").append(value).append(" sent ")
                .append(sentOnce ? "once" : sent.invocations() + " times").append(" by ").append(sent.process())
                .append(idempotent ? " (idempotent)" : " (not idempotent)").append(" is at");
        for (Position position : positions) {
            detail.append(' ').append(position.partition()).append('@').append(position.offset())
                    .append(" (").append(index.describe(position.eventIndex())).append(')');
        }
        AnomalyKind kind = idempotent && sentOnce ? AnomalyKind.DUPLICATE : AnomalyKind.ALLOWED_DUPLICATE;
        Position second = positions.get(1);
        tally.add(new Anomaly(kind, second.partition(), second.offset(), value, detail.toString()));
    }
}

package dev.spool.it.history;

import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

/**
 * Stateless. Inconsistent offsets: one offset of one partition seen with two different values,
 * across the acknowledgements of sends and the records of polls. A log gives each offset one
 * record for good, so two values mean a truncated and rewritten log (an acknowledged write
 * lost to an unclean election, a follower serving its diverged tail) or a mislabelled fetch.
 */
public final class OffsetConsistencyCheck implements HistoryCheck {

    @Override
    public void check(HistoryIndex index, AnomalyTally tally) {
        for (Map.Entry<LogPartition, NavigableMap<Long, OffsetSlot>> partition : index.slots().entrySet()) {
            for (Map.Entry<Long, OffsetSlot> offset : partition.getValue().entrySet()) {
                List<OffsetSlot.Claim> claims = offset.getValue().claims();
                if (claims.size() < 2) {
                    continue;
                }
                StringBuilder detail = new StringBuilder().append(partition.getKey()).append('@').append(offset.getKey())
                        .append(" holds ").append(claims.size()).append(" values:");
                for (OffsetSlot.Claim claim : claims) {
                    detail.append(' ').append(claim.value()).append(" (").append(index.describe(claim.eventIndex())).append(')');
                }
                tally.add(new Anomaly(AnomalyKind.INCONSISTENT_OFFSET, partition.getKey(), offset.getKey(),
                        claims.get(0).value(), detail.toString()));
            }
        }
    }
}

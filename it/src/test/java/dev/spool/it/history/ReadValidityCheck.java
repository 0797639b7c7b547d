package dev.spool.it.history;

import java.util.HashSet;
import java.util.Set;

/**
 * Stateless. Reads of values that must not exist for the reader, each value reported once:
 * <ul>
 *   <li>aborted read: a value whose every send failed definitely, read by anyone; or a value
 *       written only in aborted transactions, read by a read_committed consumer;</li>
 *   <li>unexpected read: a value no send carried, or read before its first send was invoked
 *       (the writer's lines are in real-time order), as a corrupted or misattributed record
 *       would show.</li>
 * </ul>
 * Indeterminate values (timed out, unanswered, of transactions that never ended) may be read.
 */
public final class ReadValidityCheck implements HistoryCheck {

    @Override
    public void check(HistoryIndex index, AnomalyTally tally) {
        Set<String> reported = new HashSet<>();
        for (PolledRecord polled : index.reads()) {
            ReadRecord read = polled.read();
            SentValue sent = index.sent(read.value());
            String where = read.value() + " read at " + read.partition() + "@" + read.offset() + " by "
                    + index.describe(polled.eventIndex());
            String problem = null;
            AnomalyKind kind = AnomalyKind.ABORTED_READ;
            if (sent == null) {
                kind = AnomalyKind.UNEXPECTED_READ;
                problem = "value " + where + ", but no send carried it";
            } else if (polled.eventIndex() < sent.firstEventIndex()) {
                kind = AnomalyKind.UNEXPECTED_READ;
                problem = "value " + where + ", before its send (" + index.describe(sent.firstEventIndex()) + ")";
            } else if (index.status(read.value()) == SendStatus.FAILED) {
                problem = "value " + where + ", though every send of it failed";
            } else if (index.status(read.value()) == SendStatus.ABORTED && polled.readCommitted()) {
                problem = "value " + where + " (read_committed), though it was written only in aborted transaction(s) "
                        + sent.txns();
            }
            if (problem != null && reported.add(read.value())) {
                tally.add(new Anomaly(kind, read.partition(), read.offset(), read.value(), problem));
            }
        }
    }
}

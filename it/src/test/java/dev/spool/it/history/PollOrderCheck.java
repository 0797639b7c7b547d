package dev.spool.it.history;

import java.util.HashMap;
import java.util.Map;

/**
 * Stateless. Order of one consumer's reads, per partition, between two events that move its
 * position (assign, subscribe, rebalance, seek):
 * <ul>
 *   <li>nonmonotonic poll: an offset at or below the last one it read there;</li>
 *   <li>skipped offset: a jump from offset a to b over an offset that holds a value every
 *       consumer must see (acknowledged, or read by a read_committed consumer). Gaps of aborted
 *       records and transaction markers are normal and not reported.</li>
 * </ul>
 *
 * <p>Limit: an assign, subscribe or rebalance forgets the consumer's positions in every
 * partition (a partition it keeps may in fact keep its position), and a seek those it names; so a
 * consumer that goes back without recording why is caught, one that does record it is forgiven.
 * The first read after such an event is not checked, since the history does not say where the
 * consumer started.
 */
public final class PollOrderCheck implements HistoryCheck {

    @Override
    public void check(HistoryIndex index, AnomalyTally tally) {
        Map<String, Map<LogPartition, Long>> lastReadByProcess = new HashMap<>();
        for (int i = 0; i < index.events().size(); i++) {
            HistoryEvent event = index.events().get(i);
            if (event.operation().movesConsumerPosition()) {
                forgetPositions(lastReadByProcess.get(event.process()), event);
            } else if (event.is(EventType.OK, Operation.POLL)) {
                Map<LogPartition, Long> lastRead = lastReadByProcess.computeIfAbsent(event.process(), process -> new HashMap<>());
                for (ReadRecord read : event.reads()) {
                    Long last = lastRead.put(read.partition(), read.offset());
                    if (last != null) {
                        checkStep(index, tally, event, i, last, read);
                    }
                }
            }
        }
    }

    private static void forgetPositions(Map<LogPartition, Long> lastRead, HistoryEvent event) {
        if (lastRead == null) {
            return;
        }
        if (event.operation() == Operation.SEEK) {
            for (PartitionOffset position : event.offsets()) {
                lastRead.remove(position.partition());
            }
        } else {
            lastRead.clear();
        }
    }

    private static void checkStep(HistoryIndex index, AnomalyTally tally, HistoryEvent event, int eventIndex, long last,
                                  ReadRecord read) {
        LogPartition partition = read.partition();
        if (read.offset() <= last) {
            tally.add(new Anomaly(AnomalyKind.NONMONOTONIC_POLL, partition, read.offset(), read.value(),
                    event.process() + " read " + partition + "@" + read.offset() + " (value " + read.value() + ") after "
                            + partition + "@" + last + ", in " + index.describe(eventIndex)));
            return;
        }
        long skipped = 0;
        long firstSkipped = -1;
        for (long offset : index.slots().get(partition).subMap(last, false, read.offset(), false).keySet()) {
            if (index.holdsVisibleValue(partition, offset)) {
                skipped++;
                if (firstSkipped < 0) {
                    firstSkipped = offset;
                }
            }
        }
        if (skipped > 0) {
            String skippedValue = index.slots().get(partition).get(firstSkipped).claims().get(0).value();
            tally.add(new Anomaly(AnomalyKind.SKIPPED_OFFSET, partition, firstSkipped, skippedValue,
                    event.process() + " read " + partition + "@" + last + " then " + partition + "@" + read.offset() + " in "
                            + index.describe(eventIndex) + ", skipping " + skipped + " committed record(s), first "
                            + partition + "@" + firstSkipped + " (value " + skippedValue + ")"));
        }
    }
}

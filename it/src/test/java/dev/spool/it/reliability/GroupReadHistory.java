package dev.spool.it.reliability;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a group member read, offset by offset, and which commits the coordinator acknowledged: the record of a
 * {@link CommittingConsumer}'s life that {@link GroupReadAudit} compares with the log at the end. Thread-safe (its
 * methods are synchronized; the member's thread writes, the test's thread reads).
 *
 * <p>Design note: the logs it reads have no gaps (no transactions, no compaction), so a partition's history is the
 * list of values at offsets 0, 1, 2... A record at an offset already read is a re-read. The member commits after each
 * poll and stays up, so the only re-read a correct broker allows is one from the last acknowledged commit on: a commit
 * that failed (the coordinator moved, the group was rebalancing) leaves the committed offset behind what was
 * processed, and a rebalance then resumes there. A re-read below an acknowledged commit means the group lost a commit;
 * a re-read whose value differs means the log changed under a reader (records read past the high watermark); a record
 * past the next offset means records were skipped. Each is recorded as a problem when it happens.
 */
public final class GroupReadHistory {

    private final Map<Integer, List<String>> valuesByOffset = new HashMap<>();
    private final Map<Integer, Long> acknowledgedCommits = new TreeMap<>();
    private final List<String> problems = new ArrayList<>();
    private long rereads;

    /** Records that the member processed {@code value} at {@code offset} of {@code partition}. */
    public synchronized void onRecord(int partition, long offset, String value) {
        List<String> values = valuesByOffset.computeIfAbsent(partition, p -> new ArrayList<>());
        if (offset > values.size()) {
            problem("skipped: partition " + partition + " resumed at offset " + offset + " but had processed only up to "
                    + (values.size() - 1));
            return;
        }
        if (offset == values.size()) {
            values.add(value);
            return;
        }
        rereads++;
        long committed = acknowledgedCommits.getOrDefault(partition, 0L);
        if (offset < committed) {
            problem("read again below an acknowledged commit: partition " + partition + " offset " + offset
                    + ", the coordinator had acknowledged a commit of offset " + committed);
        }
        String first = values.get((int) offset);
        if (!first.equals(value)) {
            problem("partition " + partition + " offset " + offset + " read as " + first + ", later as " + value);
        }
    }

    /** Records that the coordinator acknowledged a commit of these next offsets to read, by partition. */
    public synchronized void onCommitAcknowledged(Map<Integer, Long> nextOffsets) {
        nextOffsets.forEach((partition, offset) -> acknowledgedCommits.merge(partition, offset, Math::max));
    }

    /** The highest commit the coordinator acknowledged, by partition. */
    public synchronized Map<Integer, Long> acknowledgedCommits() {
        return new TreeMap<>(acknowledgedCommits);
    }

    /** The value the member read first at each offset of {@code partition}, from offset 0. */
    public synchronized List<String> values(int partition) {
        return List.copyOf(valuesByOffset.getOrDefault(partition, List.of()));
    }

    /** The highest offset processed, by partition. */
    public synchronized Map<Integer, Long> processedUpTo() {
        Map<Integer, Long> upTo = new TreeMap<>();
        valuesByOffset.forEach((partition, values) -> upTo.put(partition, values.size() - 1L));
        return upTo;
    }

    /** Records read again (from the last acknowledged commit on, after a commit failed). */
    public synchronized long rereads() {
        return rereads;
    }

    public synchronized List<String> problems() {
        return List.copyOf(problems);
    }

    private void problem(String what) {
        if (problems.size() < 20) {
            problems.add(what);
        }
    }
}

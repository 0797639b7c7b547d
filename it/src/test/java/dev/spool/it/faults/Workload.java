package dev.spool.it.faults;

import dev.spool.it.history.HistoryWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Not thread-safe: one test starts and stops it. Issue 20's queue workload, every client recording into one history:
 * two idempotent acks=all producers and one without idempotence, a transactional producer committing three
 * transactions in four and aborting the fourth (left out with {@code -Dfaults.transactions=false}), a transactional
 * consume-transform-produce copier of the topic into a second one (left out with {@code -Dfaults.copier=false}, or
 * without transactions), a consumer reading every partition by
 * assignment, and a group of two members committing after each poll (the readers read_committed). At the end, a
 * fresh reader reads every partition of both topics from the start to the end, so that a write lost anywhere below
 * the end shows up as lost, not as unseen.
 */
final class Workload {

    private static final String GROUP = "fault-readers";
    /** Per producer: slow enough for two shared cores running three brokers, fast enough to fill each fault with sends. */
    private static final int SENDS_PER_SECOND = 40;

    private final Supplier<String> bootstrap;
    private final HistoryWriter history;
    private final String topic;
    private final int partitions;
    private final List<HistoryProducer> producers;
    /** Null with {@code -Dfaults.transactions=false}. */
    private final TransactionalWriter transactional;
    /** Null with {@code -Dfaults.copier=false} or without transactions. */
    private final TransactionalCopier copier;
    private final String copies;
    private final AssignedReader reader;
    private final List<GroupMember> group;

    /** The copier copies {@code topic} into {@code copies}, a topic of as many partitions. */
    Workload(Supplier<String> bootstrap, HistoryWriter history, String topic, String copies, int partitions) {
        this.bootstrap = bootstrap;
        this.history = history;
        this.topic = topic;
        this.copies = copies;
        this.partitions = partitions;
        this.producers = List.of(
                new HistoryProducer("p1", true, bootstrap, history, topic, partitions, SENDS_PER_SECOND),
                new HistoryProducer("p2", true, bootstrap, history, topic, partitions, SENDS_PER_SECOND),
                new HistoryProducer("p3", false, bootstrap, history, topic, partitions, SENDS_PER_SECOND));
        boolean transactions = Boolean.parseBoolean(System.getProperty("faults.transactions", "true"));
        this.transactional = transactions
                ? new TransactionalWriter("tx1", bootstrap, history, topic, partitions, SENDS_PER_SECOND / 4) : null;
        this.copier = transactions && Boolean.parseBoolean(System.getProperty("faults.copier", "true"))
                ? new TransactionalCopier("copier1", bootstrap, history, topic, copies) : null;
        this.reader = new AssignedReader("reader", bootstrap, history, topic, partitions);
        this.group = List.of(new GroupMember("member1", GROUP, bootstrap, history, topic),
                new GroupMember("member2", GROUP, bootstrap, history, topic));
    }

    void start() {
        producers.forEach(HistoryProducer::start);
        if (transactional != null) {
            transactional.start();
        }
        if (copier != null) {
            copier.start();
        }
        reader.start();
        group.forEach(GroupMember::start);
    }

    long acknowledged() {
        return producers.stream().mapToLong(HistoryProducer::acknowledged).sum()
                + (transactional == null ? 0 : transactional.committed());
    }

    /** Stops every producer once its sends in flight are answered (within the delivery timeout). */
    void stopProducers() throws InterruptedException {
        for (HistoryProducer producer : producers) {
            producer.stop();
        }
        if (transactional != null) {
            transactional.stop();
        }
    }

    /**
     * Waits, up to {@code timeoutMs}, for the assigned reader, the group's commits, the copier's commits and a fresh
     * reader from the start to reach {@code ends} of the topic; then stops every consumer and the copier. Returns
     * what did not get there (empty when all did).
     */
    String drainTo(Map<Integer, Long> ends, long timeoutMs) throws InterruptedException {
        AssignedReader last = new AssignedReader("final-reader", bootstrap, history, topic, partitions);
        last.start();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (System.nanoTime() < deadline && !(reached(reader.nextOffsets(), ends)
                && reached(last.nextOffsets(), ends) && reached(groupCommitted(), ends)
                && copierReached(ends))) {
            Thread.sleep(200);
        }
        String missing = (reached(reader.nextOffsets(), ends) ? "" : "reader at " + reader.nextOffsets() + "; ")
                + (reached(last.nextOffsets(), ends) ? "" : "final reader at " + last.nextOffsets() + "; ")
                + (reached(groupCommitted(), ends) ? "" : "group committed " + groupCommitted() + "; ")
                + (copierReached(ends) ? "" : "copier committed " + copier.committed() + "; ");
        last.stop();
        reader.stop();
        for (GroupMember member : group) {
            member.stop();
        }
        if (copier != null) {
            copier.stop();
        }
        return missing.isEmpty() ? "" : missing + "ends " + ends;
    }

    /**
     * After {@link #drainTo}: waits, up to {@code timeoutMs}, for a fresh reader of the copies to reach their
     * {@code ends}. Returns what did not get there (empty when it did, or without a copier).
     */
    String drainCopiesTo(Map<Integer, Long> ends, long timeoutMs) throws InterruptedException {
        if (copier == null) {
            return "";
        }
        AssignedReader last = new AssignedReader("copies-reader", bootstrap, history, copies, partitions);
        last.start();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (System.nanoTime() < deadline && !reached(last.nextOffsets(), ends)) {
            Thread.sleep(200);
        }
        String missing = reached(last.nextOffsets(), ends) ? "" : "copies reader at " + last.nextOffsets();
        last.stop();
        return missing.isEmpty() ? "" : missing + "; copies' ends " + ends;
    }

    private boolean copierReached(Map<Integer, Long> ends) {
        return copier == null || reached(copier.committed(), ends);
    }

    private Map<Integer, Long> groupCommitted() {
        Map<Integer, Long> committed = new HashMap<>();
        for (GroupMember member : group) {
            member.committed().forEach((partition, offset) -> committed.merge(partition, offset, Math::max));
        }
        return committed;
    }

    private static boolean reached(Map<Integer, Long> positions, Map<Integer, Long> ends) {
        return ends.entrySet().stream().allMatch(end -> end.getValue() == 0
                || positions.getOrDefault(end.getKey(), 0L) >= end.getValue());
    }
}

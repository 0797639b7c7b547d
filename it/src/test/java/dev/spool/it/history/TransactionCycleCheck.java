package dev.spool.it.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * Stateless. Dependency cycles between committed transactions, in two graphs.
 *
 * <p><b>G0, write cycles (reported, allowed).</b> ww edges: in each partition, a transaction whose
 * value is at the next offset holding a committed transactional value after another's. Kafka
 * interleaves the records of concurrent transactions in a partition and orders partitions
 * independently, so ww cycles arise in correct brokers; they are counted, never failures.
 *
 * <p><b>G1c, circular information flow (failure).</b> Because log order is not commit order in
 * Kafka, ww edges mixed with wr edges would accuse correct brokers (T1 and T2 interleave writes
 * in one partition, T1 commits, T2 reads T1's value and commits: wr T1 to T2 and ww T2 to T1).
 * This graph therefore holds only edges that each mean "ended before":
 * <ul>
 *   <li>wr: committed T2 read (read_committed) a value that committed T1 wrote, so T1 committed
 *       before T2 read it, hence before T2 committed;</li>
 *   <li>read past: committed T2 read (read_committed) offset m of partition p, so every
 *       transaction with a write in p below m had ended before (a read_committed fetch stops at
 *       the last stable offset, the first offset of any open transaction). These edges go
 *       through one "p decided to o" node per written offset, chained in offset order, so their
 *       number stays linear in the writes.</li>
 * </ul>
 * Every cycle there contradicts time, so each one is a G1c. A transaction that reads past its own
 * earlier write shows as a cycle through itself, which is right: its own open write holds the
 * last stable offset down.
 *
 * <p>Limits: no rw (anti-dependency) edges: a poll returns a bounded batch, so not reading the
 * offset after the last one read is no evidence of order. Values sent in more than one
 * transaction are left out (the writer is ambiguous), and so are polls outside transactions and
 * by read_uncommitted consumers. One anomaly is reported per strongly connected component, with
 * one shortest cycle as the example.
 */
public final class TransactionCycleCheck implements HistoryCheck {

    @Override
    public void check(HistoryIndex index, AnomalyTally tally) {
        Map<LogPartition, NavigableMap<Long, Set<String>>> writers = committedWriters(index);
        report(writeGraph(writers), AnomalyKind.G0, "ww", tally);
        report(informationFlowGraph(index, writers), AnomalyKind.G1C, "wr", tally);
    }

    /** For each partition and offset, the committed transactions whose values are there. */
    private static Map<LogPartition, NavigableMap<Long, Set<String>>> committedWriters(HistoryIndex index) {
        Map<LogPartition, NavigableMap<Long, Set<String>>> writers = new TreeMap<>();
        index.slots().forEach((partition, offsets) -> offsets.forEach((offset, slot) -> {
            for (OffsetSlot.Claim claim : slot.claims()) {
                String txn = writerOf(index, claim.value());
                if (txn != null) {
                    writers.computeIfAbsent(partition, p -> new TreeMap<>())
                            .computeIfAbsent(offset, o -> new LinkedHashSet<>()).add(txn);
                }
            }
        }));
        return writers;
    }

    /** The committed transaction that wrote {@code value}, or null (none, several, not committed). */
    private static String writerOf(HistoryIndex index, String value) {
        SentValue sent = index.sent(value);
        String txn = sent == null ? null : sent.soleTxn();
        return txn != null && index.outcome(txn) == TransactionOutcome.COMMITTED ? txn : null;
    }

    private static DependencyGraph writeGraph(Map<LogPartition, NavigableMap<Long, Set<String>>> writers) {
        DependencyGraph graph = new DependencyGraph();
        writers.forEach((partition, offsets) -> {
            Map.Entry<Long, Set<String>> previous = null;
            for (Map.Entry<Long, Set<String>> current : offsets.entrySet()) {
                if (previous != null) {
                    for (String earlier : previous.getValue()) {
                        for (String later : current.getValue()) {
                            graph.addEdge(earlier, later, "ww " + partition + "@" + previous.getKey() + " then @" + current.getKey());
                        }
                    }
                }
                previous = current;
            }
        });
        return graph;
    }

    private static DependencyGraph informationFlowGraph(HistoryIndex index,
                                                        Map<LogPartition, NavigableMap<Long, Set<String>>> writers) {
        DependencyGraph graph = new DependencyGraph();
        writers.forEach((partition, offsets) -> {
            String previousMark = null;
            for (Map.Entry<Long, Set<String>> offset : offsets.entrySet()) {
                String mark = decidedMark(partition, offset.getKey());
                for (String txn : offset.getValue()) {
                    graph.addEdge(txn, mark, "wrote " + partition + "@" + offset.getKey());
                }
                if (previousMark != null) {
                    graph.addEdge(previousMark, mark, "offset order");
                }
                previousMark = mark;
            }
        });
        Map<String, Map<LogPartition, PolledRecord>> furthestReads = new HashMap<>();
        for (PolledRecord polled : index.reads()) {
            if (polled.txn() == null || !polled.readCommitted()
                    || index.outcome(polled.txn()) != TransactionOutcome.COMMITTED) {
                continue;
            }
            ReadRecord read = polled.read();
            String writer = writerOf(index, read.value());
            if (writer != null) {
                graph.addEdge(writer, polled.txn(), "wr: " + polled.txn() + " read " + read.value() + " at "
                        + read.partition() + "@" + read.offset());
            }
            furthestReads.computeIfAbsent(polled.txn(), txn -> new HashMap<>())
                    .merge(read.partition(), polled, (a, b) -> a.read().offset() >= b.read().offset() ? a : b);
        }
        furthestReads.forEach((reader, byPartition) -> byPartition.forEach((partition, polled) -> {
            NavigableMap<Long, Set<String>> offsets = writers.get(partition);
            Long below = offsets == null ? null : offsets.lowerKey(polled.read().offset());
            if (below != null) {
                graph.addEdge(decidedMark(partition, below), reader, "read past: " + reader + " read "
                        + partition + "@" + polled.read().offset());
            }
        }));
        return graph;
    }

    /** The node standing for "every transaction writing {@code partition} at or below {@code offset} has ended". */
    private static String decidedMark(LogPartition partition, long offset) {
        return "[" + partition + " decided to " + offset + "]";
    }

    private static void report(DependencyGraph graph, AnomalyKind kind, String preferredEdge, AnomalyTally tally) {
        for (Set<String> component : graph.cyclicComponents()) {
            String[] edge = exampleEdge(graph, component, preferredEdge);
            List<String> cycle = graph.cycleThrough(edge[0], edge[1], component);
            List<String> transactions = new ArrayList<>();
            for (String node : component) {
                if (!node.contains(" ")) { // marks hold spaces, transaction ids cannot
                    transactions.add(node);
                }
            }
            transactions.sort(null);
            tally.add(new Anomaly(kind, null, HistoryEvent.NO_OFFSET, null, "transactions " + transactions
                    + " in a cycle: " + graph.describe(cycle)));
        }
    }

    /** An edge inside {@code component}, one whose reason starts with {@code preferred} if any. */
    private static String[] exampleEdge(DependencyGraph graph, Set<String> component, String preferred) {
        String[] any = null;
        for (String from : component) {
            for (String to : graph.successors(from)) {
                if (component.contains(to)) {
                    if (graph.reason(from, to).startsWith(preferred)) {
                        return new String[]{from, to};
                    }
                    if (any == null) {
                        any = new String[]{from, to};
                    }
                }
            }
        }
        return any;
    }
}

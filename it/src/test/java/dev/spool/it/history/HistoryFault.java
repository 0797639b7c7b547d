package dev.spool.it.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.UnaryOperator;

/**
 * Stateless: one deliberate fault injected into a correct history, and the anomaly the checker
 * must then report. {@link #inject} returns empty when the history offers no place for the fault
 * (no aborted value to read, say).
 */
enum HistoryFault {
    /** Nobody reads one acknowledged value below the highest offset read in its partition. */
    DROP_READ(AnomalyKind.LOST_WRITE),
    /** Two acknowledged values of one partition are acknowledged at each other's offset. */
    SWAP_ACKNOWLEDGED_OFFSETS(AnomalyKind.INCONSISTENT_OFFSET),
    /** An idempotent producer's value is read again at a new offset. */
    DUPLICATE_VALUE(AnomalyKind.DUPLICATE),
    /** A value that failed or was aborted is read. */
    READ_ABORTED(AnomalyKind.ABORTED_READ),
    /** Two values of one ordered producer swap places in the log (acknowledgements and reads). */
    REORDER_SENDS(AnomalyKind.NONMONOTONIC_SEND),
    /** A consumer's poll ends by reading its first record again. */
    REWIND_POLL(AnomalyKind.NONMONOTONIC_POLL),
    /** A consumer's poll loses an acknowledged record between two it reads. */
    SKIP_READ(AnomalyKind.SKIPPED_OFFSET),
    /** Two committed transactions each read a value of the other. */
    CIRCULAR_READS(AnomalyKind.G1C);

    private final AnomalyKind expected;

    HistoryFault(AnomalyKind expected) {
        this.expected = expected;
    }

    AnomalyKind expected() {
        return expected;
    }

    Optional<List<HistoryEvent>> inject(List<HistoryEvent> events, Random random) {
        HistoryIndex index = HistoryIndex.build(events);
        List<SentValue> acknowledged = new ArrayList<>();
        for (SentValue sent : index.sends()) {
            if (index.status(sent.value()) == SendStatus.ACKNOWLEDGED && sent.acknowledgements().size() == 1) {
                acknowledged.add(sent);
            }
        }
        return switch (this) {
            case DROP_READ -> pick(random, acknowledged.stream().filter(sent -> ack(sent).offset()
                    < index.highestReadOffset(ack(sent).partition())).toList())
                    .map(sent -> mapReads(events, read -> read.value().equals(sent.value()) ? null : read));
            case SWAP_ACKNOWLEDGED_OFFSETS -> pick(random, pairsInOnePartition(acknowledged, false))
                    .map(pair -> mapAcknowledgements(events, Map.of(pair[0].value(), ack(pair[1]).offset(),
                            pair[1].value(), ack(pair[0]).offset())));
            case DUPLICATE_VALUE -> pick(random, acknowledged.stream()
                    .filter(sent -> index.profile(sent.process()).idempotent()).toList())
                    .map(sent -> append(events, HistoryEvent.polled("c9", null, List.of(new ReadRecord(
                            ack(sent).partition(), endOffset(index, ack(sent).partition()) + 10, sent.value())))));
            case READ_ABORTED -> pick(random, index.sends().stream().filter(sent -> index.status(sent.value())
                    == SendStatus.ABORTED || index.status(sent.value()) == SendStatus.FAILED).toList())
                    .map(sent -> append(events, HistoryEvent.polled("c9", null, List.of(abortedRecord(index, sent)))));
            case REORDER_SENDS -> pick(random, pairsInOnePartition(acknowledged, true))
                    .map(pair -> swapInLog(events, pair[0], pair[1]));
            case REWIND_POLL -> pick(random, pollIndexes(events, 1))
                    .map(at -> replace(events, at, withReads(events.get(at), reads -> {
                        reads.add(reads.get(0));
                        return reads;
                    })));
            case SKIP_READ -> pick(random, skippablePolls(events, index))
                    .map(at -> replace(events, at, withReads(events.get(at), reads -> {
                        reads.remove(1);
                        return reads;
                    })));
            case CIRCULAR_READS -> pick(random, pairsOfCommittedTransactions(acknowledged))
                    .map(pair -> append(append(events, transactionalRead(pair[0], pair[1])), transactionalRead(pair[1], pair[0])));
        };
    }

    private static SentValue.Acknowledgement ack(SentValue sent) {
        return sent.acknowledgements().get(0);
    }

    private static <T> Optional<T> pick(Random random, List<T> candidates) {
        return candidates.isEmpty() ? Optional.empty() : Optional.of(candidates.get(random.nextInt(candidates.size())));
    }

    /** Pairs of values acknowledged in one partition; with {@code sameProducer}, sent by one ordered producer, in send order. */
    private static List<SentValue[]> pairsInOnePartition(List<SentValue> acknowledged, boolean sameProducer) {
        List<SentValue[]> pairs = new ArrayList<>();
        for (int i = 0; i < acknowledged.size(); i++) {
            for (int j = i + 1; j < acknowledged.size() && pairs.size() < 200; j++) {
                SentValue first = acknowledged.get(i);
                SentValue second = acknowledged.get(j);
                boolean samePartition = ack(first).partition().equals(ack(second).partition());
                boolean producerFits = !sameProducer || first.process().equals(second.process());
                if (samePartition && producerFits && first.firstEventIndex() < second.firstEventIndex()) {
                    pairs.add(new SentValue[]{first, second});
                }
            }
        }
        return pairs;
    }

    private static List<SentValue[]> pairsOfCommittedTransactions(List<SentValue> acknowledged) {
        List<SentValue[]> pairs = new ArrayList<>();
        for (SentValue first : acknowledged) {
            for (SentValue second : acknowledged) {
                if (first.soleTxn() != null && second.soleTxn() != null && !first.soleTxn().equals(second.soleTxn())) {
                    pairs.add(new SentValue[]{first, second});
                }
            }
        }
        return pairs;
    }

    /** A poll by the transactional process, in {@code reader}'s transaction, reading {@code written}. */
    private static HistoryEvent transactionalRead(SentValue reader, SentValue written) {
        return HistoryEvent.polled(SimulatedHistory.TRANSACTIONAL, reader.soleTxn(),
                List.of(new ReadRecord(ack(written).partition(), ack(written).offset(), written.value())));
    }

    private static ReadRecord abortedRecord(HistoryIndex index, SentValue sent) {
        if (!sent.acknowledgements().isEmpty()) {
            return new ReadRecord(ack(sent).partition(), ack(sent).offset(), sent.value());
        }
        LogPartition partition = new LogPartition(SimulatedHistory.TOPIC, 0);
        for (HistoryEvent event : index.events()) {
            if (event.operation() == Operation.SEND && sent.value().equals(event.value()) && event.partition() != null) {
                partition = event.partition();
            }
        }
        return new ReadRecord(partition, endOffset(index, partition) + 10, sent.value());
    }

    private static long endOffset(HistoryIndex index, LogPartition partition) {
        var slots = index.slots().get(partition);
        return slots == null || slots.isEmpty() ? 0 : slots.lastKey() + 1;
    }

    /** Indexes of plain consumers' polls with at least {@code minReads} records. */
    private static List<Integer> pollIndexes(List<HistoryEvent> events, int minReads) {
        List<Integer> indexes = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            HistoryEvent event = events.get(i);
            if (event.is(EventType.OK, Operation.POLL) && SimulatedHistory.CONSUMERS.contains(event.process())
                    && event.reads().size() >= minReads) {
                indexes.add(i);
            }
        }
        return indexes;
    }

    /** Polls (one partition each in the simulation) whose second record is acknowledged and follows the first. */
    private static List<Integer> skippablePolls(List<HistoryEvent> events, HistoryIndex index) {
        List<Integer> indexes = new ArrayList<>();
        for (int at : pollIndexes(events, 3)) {
            ReadRecord second = events.get(at).reads().get(1);
            if (index.status(second.value()) == SendStatus.ACKNOWLEDGED) {
                indexes.add(at);
            }
        }
        return indexes;
    }

    private static HistoryEvent withReads(HistoryEvent poll, UnaryOperator<List<ReadRecord>> change) {
        return poll.withReads(change.apply(new ArrayList<>(poll.reads())));
    }

    private static List<HistoryEvent> replace(List<HistoryEvent> events, int at, HistoryEvent event) {
        List<HistoryEvent> changed = new ArrayList<>(events);
        changed.set(at, event);
        return changed;
    }

    private static List<HistoryEvent> append(List<HistoryEvent> events, HistoryEvent event) {
        List<HistoryEvent> changed = new ArrayList<>(events);
        changed.add(event.withTime(events.isEmpty() ? 0 : events.get(events.size() - 1).timeNanos() + 1_000));
        return changed;
    }

    /** Every poll's reads mapped by {@code change} (null drops the read). */
    private static List<HistoryEvent> mapReads(List<HistoryEvent> events, UnaryOperator<ReadRecord> change) {
        List<HistoryEvent> changed = new ArrayList<>(events.size());
        for (HistoryEvent event : events) {
            if (event.is(EventType.OK, Operation.POLL)) {
                List<ReadRecord> reads = new ArrayList<>();
                for (ReadRecord read : event.reads()) {
                    ReadRecord mapped = change.apply(read);
                    if (mapped != null) {
                        reads.add(mapped);
                    }
                }
                event = event.withReads(reads);
            }
            changed.add(event);
        }
        return changed;
    }

    /** Send acknowledgements of the given values moved to the given offsets. */
    private static List<HistoryEvent> mapAcknowledgements(List<HistoryEvent> events, Map<String, Long> offsets) {
        List<HistoryEvent> changed = new ArrayList<>(events.size());
        for (HistoryEvent event : events) {
            boolean moved = event.is(EventType.OK, Operation.SEND) && offsets.containsKey(event.value());
            changed.add(moved ? event.withOffset(offsets.get(event.value())) : event);
        }
        return changed;
    }

    /** {@code first} and {@code second} trade places in the log: acknowledgements and reads agree on it. */
    private static List<HistoryEvent> swapInLog(List<HistoryEvent> events, SentValue first, SentValue second) {
        long firstOffset = ack(first).offset();
        long secondOffset = ack(second).offset();
        LogPartition partition = ack(first).partition();
        List<HistoryEvent> acknowledged = mapAcknowledgements(events, Map.of(first.value(), secondOffset,
                second.value(), firstOffset));
        return mapReads(acknowledged, read -> !read.partition().equals(partition) ? read
                : read.offset() == firstOffset ? new ReadRecord(partition, firstOffset, second.value())
                : read.offset() == secondOffset ? new ReadRecord(partition, secondOffset, first.value()) : read);
    }
}

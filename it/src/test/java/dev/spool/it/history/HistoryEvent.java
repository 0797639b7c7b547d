package dev.spool.it.history;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One line of a history: at {@code timeNanos} (since the history started), client {@code process}
 * invoked or ended {@code operation}. Which of the optional fields an event carries depends on the
 * operation; absent ones are {@code null}, {@link #NO_OFFSET} or empty. Immutable, so thread-safe.
 *
 * <table>
 *   <caption>fields by operation</caption>
 *   <tr><th>operation</th><th>fields</th></tr>
 *   <tr><td>open</td><td>attributes: the client's configuration, Kafka's names
 *       ({@code enable.idempotence}, {@code max.in.flight.requests.per.connection},
 *       {@code transactional.id}, {@code isolation.level}...)</td></tr>
 *   <tr><td>send</td><td>txn when inside a transaction; partition (may be absent on invoke when the
 *       partitioner picks it); value; offset on ok; error on fail and info</td></tr>
 *   <tr><td>poll</td><td>txn when the records read feed a transaction; reads on ok</td></tr>
 *   <tr><td>assign, rebalance</td><td>partitions</td></tr>
 *   <tr><td>subscribe</td><td>attribute {@code topics}</td></tr>
 *   <tr><td>seek, commit</td><td>offsets (and txn for offsets sent to a transaction)</td></tr>
 *   <tr><td>txn-begin, txn-commit, txn-abort</td><td>txn; error on fail and info</td></tr>
 * </table>
 *
 * <p>Values identify sends: a workload gives every send a value of its own, and sends the same
 * value again only when it retries a send itself (the checker then forgives a duplicate).
 */
public record HistoryEvent(long timeNanos, String process, EventType type, Operation operation, String txn,
                           LogPartition partition, String value, long offset, List<ReadRecord> reads,
                           List<LogPartition> partitions, List<PartitionOffset> offsets,
                           Map<String, String> attributes, String error) {

    /** The offset of an event that carries none. */
    public static final long NO_OFFSET = -1;
    /** The time of an event not yet stamped by a {@link HistoryWriter}. */
    public static final long NO_TIME = -1;

    public HistoryEvent {
        Objects.requireNonNull(process, "process");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(operation, "operation");
        reads = List.copyOf(reads == null ? List.of() : reads);
        partitions = List.copyOf(partitions == null ? List.of() : partitions);
        offsets = List.copyOf(offsets == null ? List.of() : offsets);
        attributes = attributes == null || attributes.isEmpty() ? Map.of()
                : java.util.Collections.unmodifiableMap(new TreeMap<>(attributes));
    }

    /** An event with no optional field, to be completed with the {@code with...} methods. */
    public static HistoryEvent of(String process, EventType type, Operation operation) {
        return new HistoryEvent(NO_TIME, process, type, operation, null, null, null, NO_OFFSET, null, null, null, null, null);
    }

    /** A send about to be made (partition may be null when the partitioner chooses). */
    public static HistoryEvent sendInvoked(String process, String txn, LogPartition partition, String value) {
        return of(process, EventType.INVOKE, Operation.SEND).withTxn(txn).withPartition(partition).withValue(value);
    }

    /** A send acknowledged at {@code offset}. */
    public static HistoryEvent sendAcknowledged(String process, String txn, LogPartition partition, String value, long offset) {
        return of(process, EventType.OK, Operation.SEND).withTxn(txn).withPartition(partition).withValue(value)
                .withOffset(offset);
    }

    /** A send that ended with {@code type} fail (definitely not written) or info (unknown). */
    public static HistoryEvent sendEnded(String process, EventType type, String txn, LogPartition partition,
                                         String value, String error) {
        return of(process, type, Operation.SEND).withTxn(txn).withPartition(partition).withValue(value).withError(error);
    }

    /** A poll that returned {@code reads} (possibly none). */
    public static HistoryEvent polled(String process, String txn, List<ReadRecord> reads) {
        return of(process, EventType.OK, Operation.POLL).withTxn(txn).withReads(reads);
    }

    public HistoryEvent withTime(long nanos) {
        return new HistoryEvent(nanos, process, type, operation, txn, partition, value, offset, reads, partitions,
                offsets, attributes, error);
    }

    public HistoryEvent withTxn(String id) {
        return new HistoryEvent(timeNanos, process, type, operation, id, partition, value, offset, reads, partitions,
                offsets, attributes, error);
    }

    public HistoryEvent withPartition(LogPartition target) {
        return new HistoryEvent(timeNanos, process, type, operation, txn, target, value, offset, reads, partitions,
                offsets, attributes, error);
    }

    public HistoryEvent withValue(String sent) {
        return new HistoryEvent(timeNanos, process, type, operation, txn, partition, sent, offset, reads, partitions,
                offsets, attributes, error);
    }

    public HistoryEvent withOffset(long written) {
        return new HistoryEvent(timeNanos, process, type, operation, txn, partition, value, written, reads, partitions,
                offsets, attributes, error);
    }

    public HistoryEvent withReads(List<ReadRecord> records) {
        return new HistoryEvent(timeNanos, process, type, operation, txn, partition, value, offset, records, partitions,
                offsets, attributes, error);
    }

    public HistoryEvent withPartitions(List<LogPartition> assigned) {
        return new HistoryEvent(timeNanos, process, type, operation, txn, partition, value, offset, reads, assigned,
                offsets, attributes, error);
    }

    public HistoryEvent withOffsets(List<PartitionOffset> positions) {
        return new HistoryEvent(timeNanos, process, type, operation, txn, partition, value, offset, reads, partitions,
                positions, attributes, error);
    }

    public HistoryEvent withAttributes(Map<String, String> configuration) {
        return new HistoryEvent(timeNanos, process, type, operation, txn, partition, value, offset, reads, partitions,
                offsets, configuration, error);
    }

    public HistoryEvent withError(String message) {
        return new HistoryEvent(timeNanos, process, type, operation, txn, partition, value, offset, reads, partitions,
                offsets, attributes, message);
    }

    /** Whether this event is the given ending (or invocation) of the given operation. */
    public boolean is(EventType expectedType, Operation expectedOperation) {
        return type == expectedType && operation == expectedOperation;
    }

    @Override
    public String toString() {
        return HistoryLineFormat.format(this);
    }
}

package dev.spool.it.history;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Thread-safe (it only calls the thread-safe {@link HistoryWriter}): records one client's events
 * under its process name, so a workload's producer callback or consumer loop writes one call per
 * event. A process names one client instance: a client recreated after a crash takes a new name,
 * as in Jepsen, so that its ordering is checked apart from the old one's.
 *
 * <p>How a workload uses it: record {@code invoke} before calling the client and the ending
 * after; pass {@code txn} (null outside transactions) to every send and poll of a transaction.
 * A send's error is {@link #sendFailed fail} only when it definitely was not written (an
 * authorization or record-too-large error, a transaction it belonged to aborted); a timeout, a
 * disconnection or NOT_ENOUGH_REPLICAS_AFTER_APPEND is {@link #sendIndeterminate info}.
 */
public final class ClientHistory {

    private final HistoryWriter writer;
    private final String process;

    ClientHistory(HistoryWriter writer, String process) {
        this.writer = writer;
        this.process = process;
    }

    public String process() {
        return process;
    }

    /** The client was created with {@code configuration} (Kafka's names; values as strings). */
    public HistoryEvent opened(Map<String, ?> configuration) {
        Map<String, String> attributes = new TreeMap<>();
        configuration.forEach((key, value) -> attributes.put(key, String.valueOf(value)));
        return record(event(EventType.OK, Operation.OPEN).withAttributes(attributes));
    }

    /** About to send {@code value}; {@code partition} may be null when the partitioner will choose. */
    public HistoryEvent sendInvoked(String txn, LogPartition partition, String value) {
        return writer.record(HistoryEvent.sendInvoked(process, txn, partition, value));
    }

    public HistoryEvent sendAcknowledged(String txn, LogPartition partition, String value, long offset) {
        return writer.record(HistoryEvent.sendAcknowledged(process, txn, partition, value, offset));
    }

    /** The send definitely did not write {@code value}. */
    public HistoryEvent sendFailed(String txn, LogPartition partition, String value, Throwable error) {
        return writer.record(HistoryEvent.sendEnded(process, EventType.FAIL, txn, partition, value, String.valueOf(error)));
    }

    /** Nobody knows whether {@code value} was written. */
    public HistoryEvent sendIndeterminate(String txn, LogPartition partition, String value, Throwable error) {
        return writer.record(HistoryEvent.sendEnded(process, EventType.INFO, txn, partition, value, String.valueOf(error)));
    }

    public HistoryEvent pollInvoked(String txn) {
        return record(event(EventType.INVOKE, Operation.POLL).withTxn(txn));
    }

    public HistoryEvent polled(String txn, List<ReadRecord> reads) {
        return writer.record(HistoryEvent.polled(process, txn, reads));
    }

    public HistoryEvent assigned(List<LogPartition> partitions) {
        return record(event(EventType.OK, Operation.ASSIGN).withPartitions(partitions));
    }

    /** A rebalance handed this group member {@code partitions} (from onPartitionsAssigned). */
    public HistoryEvent rebalanced(List<LogPartition> partitions) {
        return record(event(EventType.OK, Operation.REBALANCE).withPartitions(partitions));
    }

    public HistoryEvent subscribed(List<String> topics) {
        return record(event(EventType.OK, Operation.SUBSCRIBE).withAttributes(Map.of("topics", String.join(",", topics))));
    }

    public HistoryEvent sought(List<PartitionOffset> positions) {
        return record(event(EventType.OK, Operation.SEEK).withOffsets(positions));
    }

    /** Invocation or ending of txn-begin, txn-commit or txn-abort; {@code error} null unless fail or info. */
    public HistoryEvent transaction(Operation operation, EventType type, String txn, Throwable error) {
        if (operation != Operation.TXN_BEGIN && operation != Operation.TXN_COMMIT && operation != Operation.TXN_ABORT) {
            throw new IllegalArgumentException("not a transaction operation: " + operation);
        }
        HistoryEvent event = event(type, operation).withTxn(txn);
        return record(error == null ? event : event.withError(String.valueOf(error)));
    }

    /** An event of this process with no field yet, for the operations without a helper here. */
    public HistoryEvent event(EventType type, Operation operation) {
        return HistoryEvent.of(process, type, operation);
    }

    /** Records {@code event}, which must be this process's. */
    public HistoryEvent record(HistoryEvent event) {
        if (!event.process().equals(process)) {
            throw new IllegalArgumentException("event of " + event.process() + " recorded as " + process);
        }
        return writer.record(event);
    }
}

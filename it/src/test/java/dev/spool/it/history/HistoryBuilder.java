package dev.spool.it.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Not thread-safe: a test's hand-built history, one call per event or per send that is invoked
 * and answered at once. Events are timed by their position, a microsecond apart.
 */
final class HistoryBuilder {

    private final List<HistoryEvent> events = new ArrayList<>();

    HistoryBuilder add(HistoryEvent event) {
        events.add(event.withTime(events.size() * 1_000L));
        return this;
    }

    /** An open event with {@code keysAndValues} as configuration: key, value, key, value... */
    HistoryBuilder open(String process, String... keysAndValues) {
        Map<String, String> configuration = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            configuration.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return add(HistoryEvent.of(process, EventType.OK, Operation.OPEN).withAttributes(configuration));
    }

    /** A send invoked and acknowledged at once. */
    HistoryBuilder send(String process, String partition, String value, long offset) {
        return txnSend(process, null, partition, value, offset);
    }

    HistoryBuilder txnSend(String process, String txn, String partition, String value, long offset) {
        invoke(process, txn, partition, value);
        return add(HistoryEvent.sendAcknowledged(process, txn, LogPartition.parse(partition), value, offset));
    }

    HistoryBuilder invoke(String process, String txn, String partition, String value) {
        return add(HistoryEvent.sendInvoked(process, txn, LogPartition.parse(partition), value));
    }

    HistoryBuilder ack(String process, String partition, String value, long offset) {
        return add(HistoryEvent.sendAcknowledged(process, null, LogPartition.parse(partition), value, offset));
    }

    HistoryBuilder ended(String process, EventType type, String partition, String value) {
        return add(HistoryEvent.sendEnded(process, type, null, LogPartition.parse(partition), value, "test error"));
    }

    /** A poll returning {@code reads}, each {@code topic-partition:offset:value}. */
    HistoryBuilder poll(String process, String... reads) {
        return txnPoll(process, null, reads);
    }

    HistoryBuilder txnPoll(String process, String txn, String... reads) {
        List<ReadRecord> records = new ArrayList<>();
        for (String read : reads) {
            String[] parts = read.split(":", 3);
            records.add(ReadRecord.of(parts[0], Long.parseLong(parts[1]), parts[2]));
        }
        return add(HistoryEvent.polled(process, txn, records));
    }

    HistoryBuilder transaction(String process, Operation operation, EventType type, String txn) {
        return add(HistoryEvent.of(process, type, operation).withTxn(txn));
    }

    HistoryBuilder commit(String process, String txn) {
        return transaction(process, Operation.TXN_COMMIT, EventType.OK, txn);
    }

    HistoryBuilder abort(String process, String txn) {
        return transaction(process, Operation.TXN_ABORT, EventType.OK, txn);
    }

    HistoryBuilder seek(String process, String partition, long offset) {
        return add(HistoryEvent.of(process, EventType.OK, Operation.SEEK)
                .withOffsets(List.of(new PartitionOffset(LogPartition.parse(partition), offset))));
    }

    HistoryBuilder assign(String process, String... partitions) {
        return add(HistoryEvent.of(process, EventType.OK, Operation.ASSIGN)
                .withPartitions(Arrays.stream(partitions).map(LogPartition::parse).toList()));
    }

    List<HistoryEvent> events() {
        return List.copyOf(events);
    }

    CheckResult check() {
        return HistoryChecker.standard().check(events);
    }
}

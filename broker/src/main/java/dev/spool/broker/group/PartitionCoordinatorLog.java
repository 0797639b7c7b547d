package dev.spool.broker.group;

import dev.spool.broker.coordinator.PartitionRecordLog;
import dev.spool.broker.coordinator.PartitionRecordLog.KeyValue;
import dev.spool.broker.partition.Partition;
import dev.spool.log.LogClock;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A {@code __consumer_offsets} partition as a {@link CoordinatorLog}: the records in Kafka's bytes
 * ({@link GroupRecordSerde}) on a {@link PartitionRecordLog}. Not thread-safe: owned by the coordinator thread.
 */
final class PartitionCoordinatorLog implements CoordinatorLog {

    private final PartitionRecordLog log;

    PartitionCoordinatorLog(Partition partition, int leaderEpoch, LogClock clock) {
        this.log = new PartitionRecordLog(partition, leaderEpoch, clock);
    }

    @Override
    public void append(List<CoordinatorRecord> records) throws IOException {
        List<KeyValue> bytes = new ArrayList<>(records.size());
        for (CoordinatorRecord record : records) {
            bytes.add(new KeyValue(GroupRecordSerde.key(record), GroupRecordSerde.value(record)));
        }
        log.append(bytes);
    }

    @Override
    public void replay(Consumer<CoordinatorRecord> consumer) throws IOException {
        log.replay((key, value) -> {
            CoordinatorRecord read = GroupRecordSerde.read(key, value);
            if (read != null) {
                consumer.accept(read);
            }
        });
    }

    @Override
    public String toString() {
        return "PartitionCoordinatorLog(" + log + ")";
    }
}

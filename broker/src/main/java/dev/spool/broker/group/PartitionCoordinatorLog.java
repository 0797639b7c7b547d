package dev.spool.broker.group;

import dev.spool.broker.coordinator.PartitionRecordLog;
import dev.spool.broker.coordinator.PartitionRecordLog.KeyValue;
import dev.spool.broker.partition.Partition;
import dev.spool.log.LogClock;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

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
        log.append(bytes(records));
    }

    @Override
    public boolean appendTransactional(List<CoordinatorRecord> records, long producerId, short producerEpoch)
            throws IOException {
        return log.appendTransactional(bytes(records), producerId, producerEpoch);
    }

    private static List<KeyValue> bytes(List<CoordinatorRecord> records) {
        List<KeyValue> bytes = new ArrayList<>(records.size());
        for (CoordinatorRecord record : records) {
            bytes.add(new KeyValue(GroupRecordSerde.key(record), GroupRecordSerde.value(record)));
        }
        return bytes;
    }

    @Override
    public void replay(TransactionalReplay replay) throws IOException {
        log.replay(new PartitionRecordLog.TransactionalRecordConsumer() {
            @Override
            public void record(long producerId, ByteBuffer key, ByteBuffer value) {
                replay.record(producerId, GroupRecordSerde.read(key, value));
            }

            @Override
            public void marker(long producerId, boolean commit) {
                replay.marker(producerId, commit);
            }
        });
    }

    @Override
    public String toString() {
        return "PartitionCoordinatorLog(" + log + ")";
    }
}

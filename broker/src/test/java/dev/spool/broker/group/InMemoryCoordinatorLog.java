package dev.spool.broker.group;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link CoordinatorLog} in memory that keeps each record as the bytes {@link GroupRecordSerde}
 * writes, so replay goes through the same serde as the broker; appends can be made to fail. Not
 * thread-safe.
 */
final class InMemoryCoordinatorLog implements CoordinatorLog {

    private final List<ByteBuffer[]> records = new ArrayList<>();
    /** The producer of each record's transaction, or -1. */
    private final List<Long> producers = new ArrayList<>();
    private boolean failAppends;

    void failAppends(boolean fail) {
        this.failAppends = fail;
    }

    int size() {
        return records.size();
    }

    /** Appends a record as another writer (Kafka) wrote it: its key and value bytes, the value null for a tombstone. */
    void appendBytes(byte[] key, byte[] value) {
        records.add(new ByteBuffer[] {ByteBuffer.wrap(key), value == null ? null : ByteBuffer.wrap(value)});
        producers.add(-1L);
    }

    @Override
    public void append(List<CoordinatorRecord> batch) throws IOException {
        appendTransactional(batch, -1, (short) -1);
    }

    @Override
    public boolean appendTransactional(List<CoordinatorRecord> batch, long producerId, short producerEpoch)
            throws IOException {
        if (failAppends) {
            throw new IOException("disk full (test)");
        }
        for (CoordinatorRecord record : batch) {
            byte[] value = GroupRecordSerde.value(record);
            records.add(new ByteBuffer[] {ByteBuffer.wrap(GroupRecordSerde.key(record)),
                value == null ? null : ByteBuffer.wrap(value)});
            producers.add(producerId);
        }
        return true;
    }

    @Override
    public void replay(TransactionalReplay replay) {
        for (int i = 0; i < records.size(); i++) {
            replay.record(producers.get(i), GroupRecordSerde.read(records.get(i)[0], records.get(i)[1]));
        }
    }
}

package dev.spool.broker.group;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A {@link CoordinatorLog} in memory that keeps each record as the bytes {@link GroupRecordSerde}
 * writes, so replay goes through the same serde as the broker; appends can be made to fail. Not
 * thread-safe.
 */
final class InMemoryCoordinatorLog implements CoordinatorLog {

    private final List<ByteBuffer[]> records = new ArrayList<>();
    private boolean failAppends;

    void failAppends(boolean fail) {
        this.failAppends = fail;
    }

    int size() {
        return records.size();
    }

    @Override
    public void append(List<CoordinatorRecord> batch) throws IOException {
        if (failAppends) {
            throw new IOException("disk full (test)");
        }
        for (CoordinatorRecord record : batch) {
            byte[] value = GroupRecordSerde.value(record);
            records.add(new ByteBuffer[] {ByteBuffer.wrap(GroupRecordSerde.key(record)),
                value == null ? null : ByteBuffer.wrap(value)});
        }
    }

    @Override
    public void replay(Consumer<CoordinatorRecord> consumer) {
        for (ByteBuffer[] record : records) {
            consumer.accept(GroupRecordSerde.read(record[0], record[1]));
        }
    }
}

package dev.spool.broker.group;

import dev.spool.broker.partition.Partition;
import dev.spool.log.FetchSlice;
import dev.spool.log.LogClock;
import dev.spool.log.PartitionLog;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchBuilder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Consumer;

/**
 * A {@code __consumer_offsets} partition as a {@link CoordinatorLog}: each append is one uncompressed
 * batch (no producer id, CreateTime = now), appended as leader with the partition's epoch; then the
 * high watermark moves (one broker: the only replica) and parked fetches are woken, the same steps
 * as a produce append. Only the coordinator writes here: Produce refuses internal topics. Not
 * thread-safe: owned by the coordinator thread.
 */
final class PartitionCoordinatorLog implements CoordinatorLog {

    private static final int READ_CHUNK_BYTES = 1 << 20;

    private final Partition partition;
    private final LogClock clock;

    PartitionCoordinatorLog(Partition partition, LogClock clock) {
        this.partition = partition;
        this.clock = clock;
    }

    @Override
    public void append(List<CoordinatorRecord> records) throws IOException {
        if (records.isEmpty()) {
            return;
        }
        long nowMs = clock.nowMs();
        RecordBatchBuilder builder = new RecordBatchBuilder(CompressionType.NONE);
        for (CoordinatorRecord record : records) {
            builder.append(nowMs, GroupRecordSerde.key(record), GroupRecordSerde.value(record));
        }
        PartitionLog log = partition.log();
        log.appendAsLeader(builder.build(), partition.leaderEpoch());
        log.updateHighWatermark(log.logEndOffset());
        partition.notifyAppended();
    }

    @Override
    public void replay(Consumer<CoordinatorRecord> consumer) throws IOException {
        PartitionLog log = partition.log();
        long offset = log.logStartOffset();
        RecordBatch batch = new RecordBatch();
        int chunkBytes = READ_CHUNK_BYTES;
        while (offset < log.logEndOffset()) {
            FetchSlice slice = log.read(offset, chunkBytes);
            if (slice.isEmpty()) {
                break;
            }
            ByteBuffer bytes = slice.readFully();
            int position = 0;
            while (true) {
                int size = RecordBatch.sizeAt(bytes, position);
                if (size < 0 || position + size > bytes.limit()) {
                    break;
                }
                batch.wrap(bytes, position);
                if (!batch.isControl()) {
                    for (Record record : batch.records()) {
                        if (record.offset() >= offset) {
                            CoordinatorRecord read = GroupRecordSerde.read(record.key(), record.value());
                            if (read != null) {
                                consumer.accept(read);
                            }
                        }
                    }
                }
                offset = batch.nextOffset();
                position += size;
            }
            // A batch larger than the chunk: read again with room for it.
            chunkBytes = position == 0 ? chunkBytes * 2 : READ_CHUNK_BYTES;
        }
    }

    @Override
    public String toString() {
        return "PartitionCoordinatorLog(" + partition + ")";
    }
}

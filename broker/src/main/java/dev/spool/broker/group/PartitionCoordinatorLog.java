package dev.spool.broker.group;

import dev.spool.broker.partition.Partition;
import dev.spool.log.BatchScanner;
import dev.spool.log.LogClock;
import dev.spool.log.PartitionLog;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatchBuilder;
import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;

/**
 * A {@code __consumer_offsets} partition as a {@link CoordinatorLog}: each append is one uncompressed
 * batch (no producer id, CreateTime = now), appended as leader with the partition's epoch; then the
 * high watermark moves (when the leader alone is in sync) and parked fetches are woken, the same steps
 * as a produce append. Only the coordinator writes here: Produce refuses internal topics. Not
 * thread-safe: owned by the coordinator thread.
 */
final class PartitionCoordinatorLog implements CoordinatorLog {


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
        // Committed at once when the leader is alone in sync; else the runtime holds the answers until it is.
        log.appendAsLeader(builder.build(), partition.leaderEpoch(), partition.commitsOnAppend());
        partition.notifyAppended();
    }

    @Override
    public void replay(Consumer<CoordinatorRecord> consumer) throws IOException {
        long startOffset = partition.log().logStartOffset();
        BatchScanner.forEachBatch(partition.log(), startOffset, batch -> {
            if (batch.isControl()) {
                return;
            }
            for (Record record : batch.records()) {
                if (record.offset() >= startOffset) {
                    CoordinatorRecord read = GroupRecordSerde.read(record.key(), record.value());
                    if (read != null) {
                        consumer.accept(read);
                    }
                }
            }
        });
    }

    @Override
    public String toString() {
        return "PartitionCoordinatorLog(" + partition + ")";
    }
}

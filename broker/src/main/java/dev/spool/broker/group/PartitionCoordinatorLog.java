package dev.spool.broker.group;

import dev.spool.broker.partition.LeadershipMovedException;
import dev.spool.broker.partition.Partition;
import dev.spool.log.BatchScanner;
import dev.spool.log.LogClock;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatchBuilder;
import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;

/**
 * A {@code __consumer_offsets} partition as a {@link CoordinatorLog}: each append is one uncompressed
 * batch (no producer id, CreateTime = now), appended as leader in the epoch the shard was loaded for, and
 * refused once that leadership is over (the shard is then being unloaded); then the
 * high watermark moves (when the leader alone is in sync) and parked fetches are woken, the same steps
 * as a produce append. Only the coordinator writes here: Produce refuses internal topics. Not
 * thread-safe: owned by the coordinator thread.
 */
final class PartitionCoordinatorLog implements CoordinatorLog {


    private final Partition partition;
    private final int leaderEpoch;
    private final LogClock clock;

    PartitionCoordinatorLog(Partition partition, int leaderEpoch, LogClock clock) {
        this.partition = partition;
        this.leaderEpoch = leaderEpoch;
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
        partition.withAssignment(assignment -> {
            if (assignment.leaderEpoch() != leaderEpoch) {
                throw new LeadershipMovedException(partition + " is no longer led in epoch " + leaderEpoch);
            }
            // Committed at once when the leader is alone in sync; else the runtime holds the answers until it is.
            partition.log().appendAsLeader(builder.build(), leaderEpoch, partition.commitsOnAppend());
            return null;
        });
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

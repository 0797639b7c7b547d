package dev.spool.broker.coordinator;

import dev.spool.broker.partition.LeadershipMovedException;
import dev.spool.broker.partition.Partition;
import dev.spool.log.BatchScanner;
import dev.spool.log.AppendInfo;
import dev.spool.log.LogClock;
import dev.spool.log.PartitionLog;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatchBuilder;
import dev.spool.log.record.RecordBatchLayout;
import dev.spool.log.record.TxnMarker;
import dev.spool.protocol.types.MessageParseException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The partition of an internal topic a coordinator shard keeps its records in ({@code __consumer_offsets},
 * {@code __transaction_state}): each append is one uncompressed batch (no producer id, CreateTime = now), appended
 * as leader in the epoch the shard was loaded for, and refused once that leadership is over (the shard is then
 * being unloaded); then the high watermark moves (when the leader alone is in sync) and parked fetches are woken,
 * the same steps as a produce append. Only coordinators write here: Produce refuses internal topics. Not
 * thread-safe: owned by the coordinator thread.
 */
public final class PartitionRecordLog {

    /** One record's bytes; a null value is a tombstone. */
    public record KeyValue(byte[] key, byte[] value) {
    }

    /** What a replay does with each record. */
    @FunctionalInterface
    public interface RecordConsumer {
        void accept(ByteBuffer key, ByteBuffer value);
    }

    /** What a replay does with each record and each transaction marker, for a log with transactional batches. */
    public interface TransactionalRecordConsumer {
        /** A record; {@code producerId} is its transaction's producer, or -1 outside a transaction. */
        void record(long producerId, ByteBuffer key, ByteBuffer value);

        /** The producer's transaction ended, committed or aborted. */
        void marker(long producerId, boolean commit);
    }

    private final Partition partition;
    private final int leaderEpoch;
    private final LogClock clock;

    public PartitionRecordLog(Partition partition, int leaderEpoch, LogClock clock) {
        this.partition = partition;
        this.leaderEpoch = leaderEpoch;
        this.clock = clock;
    }

    /** The leader epoch the shard was loaded for: a transaction coordinator's epoch. */
    public int leaderEpoch() {
        return leaderEpoch;
    }

    /** Appends the records as one batch; returns once they are in the log. */
    public void append(List<KeyValue> records) throws IOException {
        if (!records.isEmpty()) {
            write(batchOf(records, new RecordBatchBuilder(CompressionType.NONE)), false);
        }
    }

    /**
     * Appends the records as one transactional batch of producer {@code producerId} at {@code producerEpoch} (a
     * group coordinator's transactional offset commits): they take effect when the producer's COMMIT marker follows.
     * False, with nothing written, when the partition knows a newer epoch of the producer (a fenced zombie).
     */
    public boolean appendTransactional(List<KeyValue> records, long producerId, short producerEpoch)
            throws IOException {
        return records.isEmpty() || write(batchOf(records, new RecordBatchBuilder(CompressionType.NONE)
                .producer(producerId, producerEpoch, RecordBatchLayout.NO_SEQUENCE).transactional(true)), true);
    }

    private ByteBuffer batchOf(List<KeyValue> records, RecordBatchBuilder builder) {
        long nowMs = clock.nowMs();
        for (KeyValue record : records) {
            builder.append(nowMs, record.key(), record.value());
        }
        return builder.build();
    }

    /** Whether the batch was written (a producer's batch may be refused: see {@link #appendTransactional}). */
    private boolean write(ByteBuffer batch, boolean onProducersBehalf) throws IOException {
        AppendInfo info = partition.withAssignment(assignment -> {
            if (assignment.leaderEpoch() != leaderEpoch) {
                throw new LeadershipMovedException(partition + " is no longer led in epoch " + leaderEpoch);
            }
            // Committed at once when the leader is alone in sync; else the runtime holds the answers until it is.
            PartitionLog log = partition.log();
            return onProducersBehalf ? log.appendAsCoordinator(batch, leaderEpoch, partition.commitsOnAppend())
                    : log.appendAsLeader(batch, leaderEpoch, partition.commitsOnAppend());
        });
        partition.notifyAppended();
        return info.appended();
    }

    /** Feeds every record from the log start, oldest first, to {@code consumer} (markers are skipped). */
    public void replay(RecordConsumer consumer) throws IOException {
        replay(new TransactionalRecordConsumer() {
            @Override
            public void record(long producerId, ByteBuffer key, ByteBuffer value) {
                consumer.accept(key, value);
            }

            @Override
            public void marker(long producerId, boolean commit) {
            }
        });
    }

    /** Feeds every record and transaction marker from the log start, oldest first, to {@code consumer}. */
    public void replay(TransactionalRecordConsumer consumer) throws IOException {
        long startOffset = partition.log().logStartOffset();
        BatchScanner.forEachBatch(partition.log(), startOffset, batch -> {
            if (TxnMarker.isMarker(batch)) {
                consumer.marker(batch.producerId(), TxnMarker.of(batch).commit());
                return;
            }
            if (batch.isControl()) {
                return;
            }
            long producerId = batch.isTransactional() ? batch.producerId() : -1;
            for (Record record : batch.records()) {
                if (record.offset() >= startOffset) {
                    try {
                        consumer.record(producerId, record.key(), record.value());
                    } catch (MessageParseException | IllegalStateException e) {
                        // The load fails: say which record, so that it can be found with kafka-dump-log.
                        throw new IllegalStateException("Cannot replay the record at offset " + record.offset()
                                + " of " + partition.topicPartition() + ": " + e.getMessage(), e);
                    }
                }
            }
        });
    }

    @Override
    public String toString() {
        return "PartitionRecordLog(" + partition + ")";
    }
}

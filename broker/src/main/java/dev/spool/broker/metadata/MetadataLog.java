package dev.spool.broker.metadata;

import dev.spool.log.BatchScanner;
import dev.spool.log.PartitionLog;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchBuilder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code __cluster_metadata} log of a single broker: one partition of the same storage engine as
 * every topic, whose records are {@link MetadataRecordSerde} values with null keys. Each change is
 * one batch, fsynced before it counts, so a restart replays exactly the acknowledged changes.
 * Not thread-safe: owned by the metadata thread.
 */
public final class MetadataLog implements AutoCloseable {

    public static final String TOPIC = "__cluster_metadata";

    private final PartitionLog log;

    public MetadataLog(PartitionLog log) {
        this.log = log;
    }

    /** The directory of the log, where snapshots are kept too. */
    public java.nio.file.Path dir() {
        return log.dir();
    }

    /** Forgets the records before {@code offset}, which a snapshot covers. */
    public void deleteRecordsBefore(long offset) throws IOException {
        log.deleteRecordsBefore(Math.min(offset, log.logEndOffset()));
    }

    /** Appends the records of one change as one batch and fsyncs it. Returns the offset of the last record. */
    public long append(List<VersionedRecord> records, long nowMs) throws IOException {
        long lastOffset = log.appendAsLeader(encode(records, nowMs), 0).lastOffset();
        log.flush();
        // The only replica: what is durable here is committed.
        log.updateHighWatermark(log.logEndOffset());
        return lastOffset;
    }

    /**
     * Appends a batch a Raft quorum committed ({@link #encode}d), at the next offset, with the Raft term as
     * its leader epoch, without an fsync: the quorum's own log is the durable copy. Returns its last offset.
     */
    public long appendCommitted(ByteBuffer batch, int term) throws IOException {
        long lastOffset = log.appendAsLeader(batch, term).lastOffset();
        log.updateHighWatermark(log.logEndOffset());
        return lastOffset;
    }

    /**
     * Appends batches fetched from a controller as they came (offsets and leader epochs kept), without an fsync: a
     * controller holds them, and a broker that loses its tail fetches it again. Returns the last offset.
     */
    public long appendFetched(ByteBuffer batches) throws IOException {
        long lastOffset = log.appendAsFollower(batches).lastOffset();
        log.updateHighWatermark(log.logEndOffset());
        return lastOffset;
    }

    /** The offset the next record will have. */
    public long logEndOffset() {
        return log.logEndOffset();
    }

    /** The partition log under this metadata log (what Fetch on {@code __cluster_metadata} reads). */
    public PartitionLog partitionLog() {
        return log;
    }

    /** Forgets every record and starts again at {@code offset}: the quorum's log (or its snapshot) rebuilds it. */
    public void startAt(long offset) throws IOException {
        log.truncateFullyAndStartAt(offset);
    }

    /** One change as one Kafka record batch (base offset 0, uncompressed, null keys): what the logs store. */
    public static ByteBuffer encode(List<VersionedRecord> records, long nowMs) {
        RecordBatchBuilder builder = new RecordBatchBuilder(CompressionType.NONE);
        for (VersionedRecord record : records) {
            builder.append(nowMs, null, bytesOf(MetadataRecordSerde.serialize(record)));
        }
        return builder.build();
    }

    /** The remaining bytes of {@code buffer}, as the batch builder takes keys and values. */
    static byte[] bytesOf(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    /** The records of one {@link #encode}d batch. */
    public static List<VersionedRecord> decode(ByteBuffer batch) {
        List<VersionedRecord> records = new ArrayList<>();
        for (Record record : new RecordBatch().wrap(batch, batch.position()).records()) {
            records.add(MetadataRecordSerde.deserialize(record.value()));
        }
        return records;
    }

    /** Every record after {@code afterOffset}, in order, grouped by batch, each group with its last offset. */
    public void replay(long afterOffset, ChangeConsumer consumer) throws IOException {
        BatchScanner.forEachBatch(log, afterOffset + 1, batch -> {
            List<VersionedRecord> records = new ArrayList<>();
            for (Record record : batch.records()) {
                records.add(MetadataRecordSerde.deserialize(record.value()));
            }
            consumer.accept(records, batch.lastOffset());
        });
    }

    /** Receives one replayed change. */
    @FunctionalInterface
    public interface ChangeConsumer {
        void accept(List<VersionedRecord> records, long lastOffset);
    }

    @Override
    public void close() throws IOException {
        log.close();
    }
}

package dev.spool.log.cleaner;

import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchBuilder;
import dev.spool.log.record.RecordBatchLayout;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Not thread-safe: one per cleaner thread. Decides what of one batch survives a cleaning pass:
 *
 * <ul>
 *   <li>a record without a key goes (compacted topics need keys; the broker rejects them on produce);</li>
 *   <li>a record whose key has a later offset in the {@link OffsetMap} goes;</li>
 *   <li>a tombstone (null value) stays until its batch's delete horizon (KIP-534, attribute bit 6) has
 *       passed; a batch that keeps a tombstone and has no horizon yet gets one: now + delete.retention.ms;</li>
 *   <li>a batch of an aborted transaction goes whole ({@link #dropAborted}); a transaction marker stays as long as
 *       a batch of its transaction does, and then as a tombstone does ({@link #filterMarker}): a delete horizon
 *       first, removal once it passed, so that a reader who read the transaction's data before the cleaning still
 *       finds its end (KIP-534).</li>
 * </ul>
 *
 * A batch that keeps every record and needs no horizon is copied byte for byte; otherwise it is rebuilt
 * with the same codec, base offset, last offset, leader epoch, producer id, epoch and base sequence.
 * A batch that keeps nothing disappears, unless it is the last batch of its producer: then its header
 * stays with no records, so the producer's sequence survives for idempotence (as Kafka does).
 */
final class BatchFilter {
    /** What the filter did with a batch. */
    enum Outcome { COPIED, REBUILT, EMPTIED, REMOVED }

    private final List<Record> retained = new ArrayList<>();
    private ByteBuffer output;
    private int recordsRead;
    private int recordsRetained;
    private long keptTombstoneHorizonMs;

    /**
     * Filters {@code batch} against {@code map}; {@link #output()} then holds the bytes to write (for
     * COPIED, REBUILT and EMPTIED).
     */
    Outcome filter(RecordBatch batch, OffsetMap map, long nowMs, long deleteRetentionMs, boolean lastOfProducer) {
        retained.clear();
        recordsRead = 0;
        recordsRetained = 0;
        keptTombstoneHorizonMs = RecordBatchLayout.NO_TIMESTAMP;
        if (batch.isControl()) {
            return copy(batch);
        }
        boolean keepsTombstone = false;
        long horizonMs = batch.deleteHorizonMs();
        boolean horizonPassed = batch.hasDeleteHorizon() && nowMs >= horizonMs;
        List<Record> records = batch.records();
        recordsRead = records.size();
        for (Record record : records) {
            if (record.key() == null || map.get(record.key()) > record.offset()) {
                continue;
            }
            if (record.value() == null) {
                if (horizonPassed) {
                    continue;
                }
                keepsTombstone = true;
            }
            retained.add(record);
        }
        recordsRetained = retained.size();
        boolean needsHorizon = keepsTombstone && !batch.hasDeleteHorizon();
        long newHorizonMs = needsHorizon ? saturatedAdd(nowMs, deleteRetentionMs) : horizonMs;
        if (keepsTombstone) {
            keptTombstoneHorizonMs = newHorizonMs;
        }
        if (retained.size() == records.size() && !needsHorizon) {
            return copy(batch);
        }
        if (retained.isEmpty()) {
            if (lastOfProducer && batch.producerId() != RecordBatchLayout.NO_PRODUCER_ID) {
                output = emptyHeader(batch);
                return Outcome.EMPTIED;
            }
            return Outcome.REMOVED;
        }
        output = rebuild(batch, newHorizonMs);
        return Outcome.REBUILT;
    }

    /**
     * A transaction marker: kept as it is while a batch of its transaction is kept ({@code transactionKept}) or while
     * it is its producer's last batch (the producer's epoch lives on in it); else it gets a delete horizon,
     * {@code deleteRetentionMs} from now, and goes at the first cleaning after that.
     */
    Outcome filterMarker(RecordBatch batch, boolean transactionKept, boolean lastOfProducer, long nowMs,
                         long deleteRetentionMs) {
        retained.clear();
        recordsRead = 0;
        recordsRetained = 0;
        keptTombstoneHorizonMs = RecordBatchLayout.NO_TIMESTAMP;
        if (transactionKept || lastOfProducer) {
            return copy(batch);
        }
        if (batch.hasDeleteHorizon() && nowMs >= batch.deleteHorizonMs()) {
            recordsRead = batch.recordCount();
            return Outcome.REMOVED;
        }
        if (batch.hasDeleteHorizon()) {
            keptTombstoneHorizonMs = batch.deleteHorizonMs();
            return copy(batch);
        }
        keptTombstoneHorizonMs = saturatedAdd(nowMs, deleteRetentionMs);
        List<Record> records = batch.records();
        retained.addAll(records);
        recordsRead = records.size();
        recordsRetained = records.size();
        output = rebuild(batch, keptTombstoneHorizonMs);
        return Outcome.REBUILT;
    }

    /** A batch of an aborted transaction: nothing of it is kept (its header, emptied, if it is its producer's last). */
    Outcome dropAborted(RecordBatch batch, boolean lastOfProducer) {
        retained.clear();
        recordsRead = batch.recordCount();
        recordsRetained = 0;
        keptTombstoneHorizonMs = RecordBatchLayout.NO_TIMESTAMP;
        if (lastOfProducer) {
            output = emptyHeader(batch);
            return Outcome.EMPTIED;
        }
        return Outcome.REMOVED;
    }

    /** The bytes to write for the last batch filtered (valid until the next call). */
    ByteBuffer output() {
        return output;
    }

    /** Records the last batch held (0 for control batches, which are not decoded). */
    int recordsRead() {
        return recordsRead;
    }

    /**
     * The delete horizon of the last batch if it keeps a tombstone or is a marker waiting to go, else -1: when a
     * cleaning can drop it.
     */
    long keptTombstoneHorizonMs() {
        return keptTombstoneHorizonMs;
    }

    /** Records the last batch kept. */
    int recordsRetained() {
        return recordsRetained;
    }

    private Outcome copy(RecordBatch batch) {
        ByteBuffer view = batch.buffer().duplicate();
        view.limit(batch.startIndex() + batch.sizeInBytes()).position(batch.startIndex());
        output = view.slice();
        recordsRead = Math.max(recordsRead, batch.recordCount());
        recordsRetained = batch.recordCount();
        return Outcome.COPIED;
    }

    private ByteBuffer rebuild(RecordBatch batch, long horizonMs) {
        RecordBatchBuilder builder = new RecordBatchBuilder(batch.compressionType())
                .baseOffset(batch.baseOffset())
                .partitionLeaderEpoch(batch.partitionLeaderEpoch())
                .producer(batch.producerId(), batch.producerEpoch(), batch.baseSequence())
                .transactional(batch.isTransactional())
                .control(batch.isControl());
        if (batch.isLogAppendTime()) {
            builder.logAppendTime(batch.maxTimestamp());
        }
        if (horizonMs != RecordBatchLayout.NO_TIMESTAMP) {
            builder.deleteHorizon(horizonMs);
        }
        for (Record record : retained) {
            builder.appendWithOffset(record.offset(), record.timestamp(), record.key(), record.value(), record.headers());
        }
        builder.lastOffsetAtLeast(batch.lastOffset());
        return builder.build();
    }

    /** The header of {@code batch} with no records: uncompressed, same offsets, producer and timestamps. */
    private static ByteBuffer emptyHeader(RecordBatch batch) {
        ByteBuffer header = ByteBuffer.allocate(RecordBatchLayout.HEADER_SIZE_BYTES);
        ByteBuffer source = batch.buffer().duplicate();
        source.limit(batch.startIndex() + RecordBatchLayout.HEADER_SIZE_BYTES).position(batch.startIndex());
        header.put(source).flip();
        int attributes = batch.attributes() & ~RecordBatchLayout.COMPRESSION_CODEC_MASK
                & ~RecordBatchLayout.DELETE_HORIZON_FLAG_MASK;
        header.putInt(RecordBatchLayout.BATCH_LENGTH_OFFSET,
                RecordBatchLayout.HEADER_SIZE_BYTES - RecordBatchLayout.LOG_OVERHEAD_BYTES);
        header.putShort(RecordBatchLayout.ATTRIBUTES_OFFSET, (short) (attributes | CompressionType.NONE.id));
        header.putInt(RecordBatchLayout.RECORD_COUNT_OFFSET, 0);
        new RecordBatch().wrap(header, 0).writeChecksum();
        return header;
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }
}

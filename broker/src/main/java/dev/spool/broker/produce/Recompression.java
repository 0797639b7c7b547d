package dev.spool.broker.produce;

import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchBuilder;
import java.nio.ByteBuffer;

/**
 * Stateless: a topic's {@code compression.type} other than {@code producer} stores every batch in that
 * codec, as Kafka does: a produced batch in another codec is decoded and built again, keeping its
 * records (offset deltas, timestamps, keys, values, headers) and its producer id, epoch and first
 * sequence, so that idempotence sees the same batch.
 */
final class Recompression {

    private Recompression() {
    }

    /** Whether {@code batch} must be built again to be stored under {@code finalCompression} (null: as produced). */
    static boolean needed(RecordBatch batch, CompressionType finalCompression) {
        return finalCompression != null && batch.compressionType() != finalCompression;
    }

    /** {@code batch}, a validated producer batch (base offset 0), built again in {@code codec}. */
    static ByteBuffer rebuild(RecordBatch batch, CompressionType codec) {
        RecordBatchBuilder builder = new RecordBatchBuilder(codec)
                .producer(batch.producerId(), batch.producerEpoch(), batch.baseSequence());
        for (Record record : batch.records()) {
            builder.appendWithOffset(record.offset(), record.timestamp(), record.key(), record.value(), record.headers());
        }
        return builder.build();
    }
}

package dev.spool.broker.produce;

import dev.spool.log.LogConfig;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchBuilder;
import java.nio.ByteBuffer;
import java.util.concurrent.Semaphore;

/**
 * Thread-safe: a topic's {@code compression.type} other than {@code producer} stores every batch in that
 * codec, as Kafka does: a produced batch in another codec is decoded and built again, keeping its
 * records (offset deltas, timestamps, keys, values, headers) and its producer id, epoch and first
 * sequence, so that idempotence sees the same batch.
 *
 * <p>Design note: a rebuild holds the batch's records inflated in memory (the validator's inflation
 * limit bounds them: 64 MiB, or 64 times the batch), about three times over while it builds, where
 * validation streams them through a small window. One rebuild runs at a time in the whole broker, so
 * that the io threads together cannot hold more than one such batch: a decompression bomb on a
 * recompressing topic costs time, not the heap.
 */
final class Recompression {

    private static final Semaphore ONE_AT_A_TIME = new Semaphore(1);

    private Recompression() {
    }

    /** Whether appends under {@code config} compress (any compression.type but producer and uncompressed). */
    static boolean compresses(LogConfig config) {
        return config.finalCompression != null && config.finalCompression != CompressionType.NONE;
    }

    /** Whether {@code batch} must be built again to be stored under {@code finalCompression} (null: as produced). */
    static boolean needed(RecordBatch batch, CompressionType finalCompression) {
        return finalCompression != null && batch.compressionType() != finalCompression;
    }

    /**
     * {@code batch}, a validated producer batch (base offset 0), built again in {@code config}'s
     * compression.type at its level (compression.gzip.level, compression.lz4.level, compression.zstd.level).
     */
    static ByteBuffer rebuild(RecordBatch batch, LogConfig config) {
        ONE_AT_A_TIME.acquireUninterruptibly();
        try {
            CompressionType codec = config.finalCompression;
            RecordBatchBuilder builder = new RecordBatchBuilder(codec).compressionLevel(config.compressionLevel(codec))
                    .producer(batch.producerId(), batch.producerEpoch(), batch.baseSequence());
            for (Record record : batch.records()) {
                builder.appendWithOffset(record.offset(), record.timestamp(), record.key(), record.value(),
                        record.headers());
            }
            return builder.build();
        } finally {
            ONE_AT_A_TIME.release();
        }
    }
}

package dev.spool.log;

import dev.spool.log.record.RecordBatch;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Walks the batches of a partition log in offset order, for the logs the broker replays into state
 * (cluster metadata, group coordinators). Reads whole chunks through {@link PartitionLog#read} and
 * hands each batch to the visitor as a flyweight valid only during the call. Thread-safe (static);
 * a scan sees the log as of its reads.
 */
public final class BatchScanner {

    private static final int CHUNK_BYTES = 1 << 20;

    /** Receives one batch; the flyweight is reused for the next one. */
    @FunctionalInterface
    public interface BatchVisitor {
        void visit(RecordBatch batch) throws IOException;
    }

    private BatchScanner() {
    }

    /** Every batch whose last offset is at or after {@code fromOffset}, up to the log end offset. */
    public static void forEachBatch(PartitionLog log, long fromOffset, BatchVisitor visitor) throws IOException {
        long offset = Math.max(log.logStartOffset(), fromOffset);
        RecordBatch batch = new RecordBatch();
        while (offset < log.logEndOffset()) {
            // At least one whole batch comes back, however large, so the scan always moves on.
            FetchSlice slice = log.read(offset, CHUNK_BYTES);
            if (slice.isEmpty()) {
                return;
            }
            ByteBuffer bytes = slice.readFully();
            int position = 0;
            while (true) {
                int size = RecordBatch.sizeAt(bytes, position);
                if (size < 0 || position + size > bytes.limit()) {
                    break;
                }
                batch.wrap(bytes, position);
                if (batch.lastOffset() >= fromOffset) {
                    visitor.visit(batch);
                }
                offset = batch.nextOffset();
                position += size;
            }
            if (position == 0) {
                throw new IOException("the batch at offset " + offset + " of " + log.dir() + " is torn");
            }
        }
    }
}

package dev.spool.log.segment;

import dev.spool.log.record.BatchValidation;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchLayout;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Not thread-safe: reads whole batches one after another from a region of a segment file into a
 * reusable buffer, validating each (recovery, index rebuild, timestamp search, tests). Never changes the
 * channel's own position.
 */
public final class BatchFileReader {
    private static final int INITIAL_BUFFER_BYTES = 64 * 1024;

    private final FileChannel channel;
    private final long endPosition;
    private final RecordBatch batch = new RecordBatch();
    private ByteBuffer buffer = ByteBuffer.allocate(INITIAL_BUFFER_BYTES);
    /** File position of buffer index 0. */
    private long bufferFilePosition;
    private long nextPosition;
    private long batchPosition = -1;

    public BatchFileReader(FileChannel channel, long startPosition, long endPosition) {
        this.channel = channel;
        this.endPosition = endPosition;
        this.nextPosition = startPosition;
        this.bufferFilePosition = startPosition;
        buffer.limit(0);
    }

    /**
     * Reads the next batch. Returns null at a clean end (no bytes left), {@link BatchValidation#VALID}
     * with {@link #batch()} positioned on it, or the first problem found (then reading should stop:
     * {@link #batchPosition()} is where the bad bytes start).
     */
    public BatchValidation next() throws IOException {
        batchPosition = nextPosition;
        long remaining = endPosition - nextPosition;
        if (remaining <= 0) {
            return null;
        }
        if (remaining < RecordBatchLayout.LOG_OVERHEAD_BYTES) {
            return BatchValidation.TRUNCATED;
        }
        if (!fill(RecordBatchLayout.LOG_OVERHEAD_BYTES)) {
            return BatchValidation.TRUNCATED;
        }
        int start = (int) (nextPosition - bufferFilePosition);
        int length = buffer.getInt(start + RecordBatchLayout.BATCH_LENGTH_OFFSET);
        if (length < RecordBatchLayout.HEADER_SIZE_BYTES - RecordBatchLayout.LOG_OVERHEAD_BYTES) {
            return BatchValidation.INVALID_LENGTH;
        }
        long size = RecordBatchLayout.LOG_OVERHEAD_BYTES + (long) length;
        if (size > remaining || !fill((int) size)) {
            return BatchValidation.TRUNCATED;
        }
        start = (int) (nextPosition - bufferFilePosition);
        ByteBuffer view = buffer.duplicate();
        view.limit(start + (int) size);
        batch.wrap(view, start);
        BatchValidation validation = batch.validate();
        if (validation.isValid()) {
            nextPosition += size;
        }
        return validation;
    }

    /** The batch returned VALID by the last {@link #next()}; its bytes stay valid until the next call. */
    public RecordBatch batch() {
        return batch;
    }

    /** File position of the batch (or of the problem) found by the last {@link #next()}. */
    public long batchPosition() {
        return batchPosition;
    }

    /** Makes sure {@code bytes} bytes from {@code nextPosition} are in the buffer; false if the file ends first. */
    private boolean fill(int bytes) throws IOException {
        int start = (int) (nextPosition - bufferFilePosition);
        if (buffer.limit() - start >= bytes) {
            return true;
        }
        // Move the unread bytes to the front (into a larger buffer if the batch needs one), then read on.
        ByteBuffer target = buffer.capacity() < bytes
                ? ByteBuffer.allocate(Math.max(bytes, buffer.capacity() * 2)) : buffer;
        buffer.position(start);
        if (target == buffer) {
            buffer.compact();
        } else {
            target.put(buffer);
        }
        bufferFilePosition = nextPosition;
        target.limit((int) Math.min(target.capacity(), endPosition - bufferFilePosition));
        while (target.position() < bytes) {
            int read = channel.read(target, bufferFilePosition + target.position());
            if (read <= 0) {
                break;
            }
        }
        target.flip();
        buffer = target;
        return buffer.limit() >= bytes;
    }
}

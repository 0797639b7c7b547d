package dev.spool.log;

import dev.spool.log.record.RecordBatch;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Walks the whole record batches of what a log read returned, or of a whole log from an offset to its
 * end: the loop every test that checks stored batches needs. A partial last batch, as a read cut by its
 * byte limit leaves, is not visited. Stateless; the log must not be closed during a walk.
 */
public final class WholeBatches {

    /** Told of each whole batch (a flyweight, valid during the call only) and of the first offset of its read. */
    @FunctionalInterface
    public interface Visitor {
        void visit(RecordBatch batch, long fromOffset);
    }

    private WholeBatches() {
    }

    /**
     * Visits each whole batch of {@code bytes} from its position on, with {@code fromOffset}; returns the
     * offset after the last batch visited, or {@code fromOffset} if none was.
     */
    public static long forEach(ByteBuffer bytes, long fromOffset, Visitor visitor) {
        long next = fromOffset;
        RecordBatch batch = new RecordBatch();
        int position = bytes.position();
        while (RecordBatch.sizeAt(bytes, position) > 0 && position + RecordBatch.sizeAt(bytes, position) <= bytes.limit()) {
            batch.wrap(bytes, position);
            visitor.visit(batch, fromOffset);
            next = Math.max(next, batch.nextOffset());
            position += batch.sizeInBytes();
        }
        return next;
    }

    /**
     * Visits every whole batch of {@code log} from the one holding {@code fromOffset} to the log end, read
     * through {@link PartitionLog#read} 64 KiB at a time; the first batch of a read may start below its
     * {@code fromOffset}.
     */
    public static void forEachInLog(PartitionLog log, long fromOffset, Visitor visitor) throws IOException {
        long next = fromOffset;
        while (next < log.logEndOffset()) {
            FetchSlice slice = log.read(next, 64 * 1024);
            if (slice.isEmpty()) {
                break;
            }
            long after = forEach(slice.readFully(), next, visitor);
            if (after == next) {
                break;
            }
            // past the last batch, not just its last record: compaction leaves batches ending in gaps
            next = after;
        }
    }
}

package dev.spool.broker.coordinator;

import java.util.PriorityQueue;

/**
 * A shard's answers held until the records written before them are committed: each waits for the high
 * watermark to reach the log end offset it was taken at. Not thread-safe: owned by the shard's thread.
 */
final class CommitWaits {

    private record Wait(long offset, long sequence, Runnable onCommitted, Runnable onLost) {
    }

    private final PriorityQueue<Wait> waits = new PriorityQueue<>((a, b) -> a.offset != b.offset
            ? Long.compare(a.offset, b.offset) : Long.compare(a.sequence, b.sequence));
    private long sequence;

    /** Holds {@code onCommitted} until the high watermark reaches {@code offset}. */
    void add(long offset, Runnable onCommitted, Runnable onLost) {
        waits.add(new Wait(offset, sequence++, onCommitted, onLost));
    }

    boolean isEmpty() {
        return waits.isEmpty();
    }

    /** Runs, in the order they were written, the answers whose records are now below {@code highWatermark}. */
    void committedUpTo(long highWatermark) {
        while (!waits.isEmpty() && waits.peek().offset <= highWatermark) {
            waits.poll().onCommitted.run();
        }
    }

    /** The shard is gone before these were committed: each hears that instead. */
    void lose() {
        while (!waits.isEmpty()) {
            waits.poll().onLost.run();
        }
    }
}

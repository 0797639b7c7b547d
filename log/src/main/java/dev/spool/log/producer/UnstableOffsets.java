package dev.spool.log.producer;

import java.util.Arrays;

/**
 * Immutable: where the transactions of a partition that may still be unstable lie, published by the log after
 * each transactional append for readers that take no lock. A transaction is unstable while it is open or while
 * its marker is at or above the high watermark (not yet replicated); the last stable offset is the first offset of
 * the oldest unstable one, or the high watermark.
 */
public final class UnstableOffsets {

    /** No transaction open or recently ended. */
    public static final UnstableOffsets NONE = new UnstableOffsets(new long[0], new long[0]);

    /** First offsets, ascending. */
    private final long[] firstOffsets;
    /** The marker offsets of the same transactions, {@link Long#MAX_VALUE} while open. */
    private final long[] lastOffsets;

    UnstableOffsets(long[] firstOffsets, long[] lastOffsets) {
        this.firstOffsets = firstOffsets;
        this.lastOffsets = lastOffsets;
    }

    /** The last stable offset given the high watermark {@code highWatermark}. */
    public long lastStableOffset(long highWatermark) {
        for (int i = 0; i < firstOffsets.length && firstOffsets[i] < highWatermark; i++) {
            if (lastOffsets[i] >= highWatermark) {
                return firstOffsets[i];
            }
        }
        return highWatermark;
    }

    public boolean isEmpty() {
        return firstOffsets.length == 0;
    }

    @Override
    public String toString() {
        return "UnstableOffsets(first=" + Arrays.toString(firstOffsets) + ", last=" + Arrays.toString(lastOffsets) + ")";
    }
}

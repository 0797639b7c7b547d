package dev.spool.log.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Not thread-safe for writers (owned by the partition's append lock); lookups may run concurrently with
 * appends and see the entries committed so far.
 *
 * <p>The sparse time index of one segment ({@code NNNNNNNNNNNNNNNNNNNN.timeindex}), byte-identical to
 * Kafka's. Timestamps strictly increase from entry to entry: an entry is only added when the segment's
 * largest timestamp so far grows, and names the last offset of the batch that holds that timestamp.
 *
 * <pre>
 *  0                                   8                 12
 *  +-----------------------------------+-----------------+
 *  | timestamp int64 (ms)              | relativeOffset  |   relativeOffset = offset - segment base offset
 *  |                                   | int32           |
 *  +-----------------------------------+-----------------+
 * </pre>
 */
public final class TimeIndex extends SparseIndex {
    public static final int ENTRY_SIZE_BYTES = 12;

    public TimeIndex(Path path, long baseOffset, int maxIndexBytes, boolean preallocate) throws IOException {
        super(path, baseOffset, ENTRY_SIZE_BYTES, maxIndexBytes, preallocate);
    }

    @Override
    public long keyAt(ByteBuffer buffer, int slot) {
        return buffer.getLong(slot * ENTRY_SIZE_BYTES);
    }

    private long offsetAt(ByteBuffer buffer, int slot) {
        return baseOffset + buffer.getInt(slot * ENTRY_SIZE_BYTES + 8);
    }

    /**
     * Adds an entry if {@code timestampMs} is larger than the last entry's (Kafka never writes two entries
     * with one timestamp). Returns whether it did.
     */
    public boolean maybeAppend(long timestampMs, long offset) {
        int entries = file.entries();
        if (entries > 0 && timestampMs <= lastTimestamp()) {
            return false;
        }
        if (entries > 0 && offset < lastOffset()) {
            throw new IllegalArgumentException("Time index " + file.path() + ": offset " + offset
                    + " is before the last entry's offset " + lastOffset());
        }
        if (file.isFull()) {
            throw new IllegalStateException("Time index " + file.path() + " is full (" + entries + " entries)");
        }
        ByteBuffer buffer = file.buffer();
        buffer.putLong(entries * ENTRY_SIZE_BYTES, timestampMs);
        buffer.putInt(entries * ENTRY_SIZE_BYTES + 8, relativeOffset(offset));
        file.commitEntry();
        return true;
    }

    /**
     * Where to start looking for the first record with a timestamp >= {@code timestampMs}: the offset of
     * the last entry whose timestamp is < the target (every batch before it is older), or the base offset.
     */
    public long lookupOffsetBefore(long timestampMs) {
        ByteBuffer buffer = file.buffer();
        int slot = IndexSearch.largestLowerBoundSlot(buffer, file.entries(), timestampMs - 1, this);
        return slot < 0 ? baseOffset : offsetAt(buffer, slot);
    }

    /** Drops every entry whose offset is >= {@code offset}. */
    public void truncateTo(long offset) {
        ByteBuffer buffer = file.buffer();
        int keep = file.entries();
        while (keep > 0 && offsetAt(buffer, keep - 1) >= offset) {
            keep--;
        }
        file.truncateToEntries(keep);
    }

    /** The timestamp of entry {@code slot} (tools and checks). */
    public long entryTimestamp(int slot) {
        return keyAt(file.buffer(), slot);
    }

    /** The absolute offset of entry {@code slot} (tools and checks). */
    public long entryOffset(int slot) {
        return offsetAt(file.buffer(), slot);
    }

    /** The last entry's timestamp, or -1 when empty. */
    public long lastTimestamp() {
        int entries = file.entries();
        return entries == 0 ? -1L : keyAt(file.buffer(), entries - 1);
    }

    /** The last entry's offset, or the base offset when empty. */
    public long lastOffset() {
        int entries = file.entries();
        return entries == 0 ? baseOffset : offsetAt(file.buffer(), entries - 1);
    }

    /** Whole entries, timestamps strictly increasing, offsets non-decreasing and not below the base. */
    public void sanityCheck() {
        checkWholeEntries(ENTRY_SIZE_BYTES);
        ByteBuffer buffer = file.buffer();
        long previousTimestamp = Long.MIN_VALUE;
        long previousOffset = baseOffset;
        for (int slot = 0; slot < file.entries(); slot++) {
            long timestamp = keyAt(buffer, slot);
            long offset = offsetAt(buffer, slot);
            if (timestamp <= previousTimestamp || offset < previousOffset) {
                throw new CorruptIndexException("Time index " + file.path() + " entry " + slot + " (timestamp "
                        + timestamp + ", offset " + offset + ") does not follow (timestamp " + previousTimestamp
                        + ", offset " + previousOffset + ")");
            }
            previousTimestamp = timestamp;
            previousOffset = offset;
        }
    }
}

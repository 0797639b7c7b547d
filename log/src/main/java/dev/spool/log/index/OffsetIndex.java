package dev.spool.log.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Not thread-safe for writers (owned by the partition's append lock); lookups may run concurrently with
 * appends and see the entries committed so far.
 *
 * <p>The sparse offset index of one segment ({@code NNNNNNNNNNNNNNNNNNNN.index}), byte-identical to
 * Kafka's: entries sorted by offset, one every {@code index.interval.bytes} of log, each naming the
 * last offset of a batch and the file position where that batch starts.
 *
 * <pre>
 *  0                 4                 8
 *  +-----------------+-----------------+
 *  | relativeOffset  | position        |   relativeOffset = offset - segment base offset
 *  | int32           | int32           |   position = byte position of the batch in the .log file
 *  +-----------------+-----------------+
 * </pre>
 */
public final class OffsetIndex extends SparseIndex {
    public static final int ENTRY_SIZE_BYTES = 8;

    /**
     * Opens or creates the index; {@code preallocate} maps {@code maxIndexBytes} for appending (the active
     * segment), otherwise the file is mapped at its length, every whole entry of which counts.
     */
    public OffsetIndex(Path path, long baseOffset, int maxIndexBytes, boolean preallocate) throws IOException {
        super(path, baseOffset, ENTRY_SIZE_BYTES, maxIndexBytes, preallocate);
    }

    @Override
    public long keyAt(ByteBuffer buffer, int slot) {
        return baseOffset + buffer.getInt(slot * ENTRY_SIZE_BYTES);
    }

    private static int positionAt(ByteBuffer buffer, int slot) {
        return buffer.getInt(slot * ENTRY_SIZE_BYTES + 4);
    }

    /** Adds an entry; {@code offset} must exceed the last entry's and fit in 32 bits relative to the base. */
    public void append(long offset, int position) {
        int entries = file.entries();
        if (file.isFull()) {
            throw new IllegalStateException("Offset index " + file.path() + " is full (" + entries + " entries)");
        }
        if (entries > 0 && offset <= lastOffset()) {
            throw new IllegalArgumentException("Offset " + offset + " is not after the last offset " + lastOffset()
                    + " of " + file.path());
        }
        ByteBuffer buffer = file.buffer();
        buffer.putInt(entries * ENTRY_SIZE_BYTES, relativeOffset(offset));
        buffer.putInt(entries * ENTRY_SIZE_BYTES + 4, position);
        file.commitEntry();
    }

    /**
     * The file position of the batch to start scanning from to find {@code targetOffset}: the position of
     * the last entry whose offset is <= the target, or 0 if there is none.
     */
    public int lookupPosition(long targetOffset) {
        ByteBuffer buffer = file.buffer();
        int slot = IndexSearch.largestLowerBoundSlot(buffer, file.entries(), targetOffset, this);
        return slot < 0 ? 0 : positionAt(buffer, slot);
    }

    /** The offset of the last entry <= {@code targetOffset}, or the base offset if there is none. */
    public long lookupOffset(long targetOffset) {
        ByteBuffer buffer = file.buffer();
        int slot = IndexSearch.largestLowerBoundSlot(buffer, file.entries(), targetOffset, this);
        return slot < 0 ? baseOffset : keyAt(buffer, slot);
    }

    /** Drops every entry whose offset is >= {@code offset}. */
    public void truncateTo(long offset) {
        file.truncateToEntries(IndexSearch.smallestUpperBoundSlot(file.buffer(), file.entries(), offset, this));
    }

    /** The absolute offset of entry {@code slot} (tools and checks). */
    public long entryOffset(int slot) {
        return keyAt(file.buffer(), slot);
    }

    /** The file position of entry {@code slot} (tools and checks). */
    public int entryPosition(int slot) {
        return positionAt(file.buffer(), slot);
    }

    /** The last entry's offset, or the base offset when empty. */
    public long lastOffset() {
        int entries = file.entries();
        return entries == 0 ? baseOffset : keyAt(file.buffer(), entries - 1);
    }

    /** The last entry's position, or 0 when empty. */
    public int lastPosition() {
        int entries = file.entries();
        return entries == 0 ? 0 : positionAt(file.buffer(), entries - 1);
    }

    /**
     * Checks what a torn or stale file would break: whole entries, offsets strictly increasing and
     * positions non-decreasing between the first and last entries, the last position inside the log.
     */
    public void sanityCheck(long logSizeBytes) {
        int entries = file.entries();
        checkWholeEntries(ENTRY_SIZE_BYTES);
        if (entries == 0) {
            return;
        }
        ByteBuffer buffer = file.buffer();
        long previousOffset = -1;
        int previousPosition = -1;
        for (int slot = 0; slot < entries; slot++) {
            long offset = keyAt(buffer, slot);
            int position = positionAt(buffer, slot);
            if (offset <= previousOffset || position < previousPosition || position >= logSizeBytes) {
                throw new CorruptIndexException("Index " + file.path() + " entry " + slot + " (offset " + offset
                        + ", position " + position + ") does not follow (offset " + previousOffset + ", position "
                        + previousPosition + ") or lies past the log size " + logSizeBytes);
            }
            previousOffset = offset;
            previousPosition = position;
        }
    }
}

package dev.spool.log.index;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Not thread-safe for writers (owned by the partition's append lock): what the offset and time indexes
 * share, the life cycle of their memory-mapped file (preallocate, trim, resize, flush, rename, close).
 */
public abstract class SparseIndex implements IndexSearch.KeyReader {
    final long baseOffset;
    final MappedIndexFile file;

    SparseIndex(Path path, long baseOffset, int entrySizeBytes, int maxIndexBytes, boolean preallocate)
            throws IOException {
        this.baseOffset = baseOffset;
        this.file = new MappedIndexFile(path, entrySizeBytes, maxIndexBytes, preallocate);
    }

    int relativeOffset(long offset) {
        long relative = offset - baseOffset;
        if (relative < 0 || relative > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("Offset " + offset + " does not fit relative to base " + baseOffset
                    + " in " + file.path());
        }
        return (int) relative;
    }

    void checkWholeEntries(int entrySizeBytes) {
        if (file.lengthBytes() % entrySizeBytes != 0) {
            throw new CorruptIndexException("Index " + file.path() + " length " + file.lengthBytes()
                    + " is not a multiple of " + entrySizeBytes);
        }
    }

    public long baseOffset() {
        return baseOffset;
    }

    public int entries() {
        return file.entries();
    }

    public boolean isFull() {
        return file.isFull();
    }

    public Path path() {
        return file.path();
    }

    /** Drops every entry. */
    public void reset() {
        file.truncateToEntries(0);
    }

    /** Remaps the file at {@code maxIndexBytes} (rounded down to whole entries) so it can take appends again. */
    public void resize(int maxIndexBytes) throws IOException {
        file.resize(maxIndexBytes);
    }

    /** Cuts the preallocated file to its entries, as Kafka's tools expect of a segment that is not active. */
    public void trimToEntries() throws IOException {
        file.trimToEntries();
    }

    public void flush() {
        file.flush();
    }

    public void renameTo(Path target) throws IOException {
        file.renameTo(target);
    }

    public void close() {
        file.close();
    }

    public void deleteIfExists() throws IOException {
        file.deleteIfExists();
    }
}

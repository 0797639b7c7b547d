package dev.spool.log.index;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.RandomAccessFile;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Not thread-safe for writers (owned by the partition's append lock); readers may call {@link #buffer()}
 * and {@link #entries()} concurrently and see a prefix of the entries.
 *
 * <p>The file behind a sparse index: fixed-size entries, memory-mapped. An index being written is
 * preallocated to its maximum size (so the file is longer than its entries); {@link #trimToEntries()}
 * cuts it to exactly its entries when the segment stops being active, which is what Kafka's tools
 * expect of a closed segment: the number of entries of an index opened from disk is its length
 * divided by the entry size.
 */
final class MappedIndexFile {
    private final int entrySizeBytes;
    private Path path;
    private volatile MappedByteBuffer buffer;
    private volatile int entries;
    private volatile long lengthBytes;
    private int maxEntries;
    private boolean closed;

    MappedIndexFile(Path path, int entrySizeBytes, int maxIndexBytes, boolean preallocate) throws IOException {
        this.path = path;
        this.entrySizeBytes = entrySizeBytes;
        if (!preallocate) {
            // An inactive segment's index is mapped on first use, as Kafka's lazy indexes are: a broker with thousands
            // of partitions, most of them idle, then opens them without a mapping (and a page) per index.
            if (!Files.exists(path)) {
                Files.createFile(path);
            }
            this.lengthBytes = Files.size(path);
            this.entries = (int) (lengthBytes / entrySizeBytes);
            this.maxEntries = entries;
            return;
        }
        boolean existed = Files.exists(path);
        try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
            long length = existed ? file.length() : 0;
            this.entries = (int) (length / entrySizeBytes);
            long mappedLength = Math.max(roundDown(maxIndexBytes), entries * (long) entrySizeBytes);
            file.setLength(mappedLength);
            map(file, mappedLength);
        }
    }

    private synchronized void map(RandomAccessFile file, long length) throws IOException {
        if (closed) {
            throw new IllegalStateException("Index " + path + " is closed");
        }
        // The old mapping is left to the GC, not unmapped: a concurrent reader may still hold it
        // (it only reads committed entries, which every new length keeps).
        buffer = file.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, length);
        lengthBytes = length;
        maxEntries = (int) (length / entrySizeBytes);
    }

    /** Maps an inactive segment's index on its first use: its whole entries, read and written in place. */
    private synchronized MappedByteBuffer mapOnFirstUse() {
        if (buffer == null) {
            try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
                map(file, entries * (long) entrySizeBytes);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot map index " + path, e);
            }
        }
        return buffer;
    }

    private int roundDown(int bytes) {
        return bytes / entrySizeBytes * entrySizeBytes;
    }

    /** The mapped entries; absolute reads only (the buffer is shared by readers). */
    ByteBuffer buffer() {
        MappedByteBuffer mapped = buffer;
        return mapped != null ? mapped : mapOnFirstUse();
    }

    int entries() {
        return entries;
    }

    int maxEntries() {
        return maxEntries;
    }

    boolean isFull() {
        return entries >= maxEntries;
    }

    Path path() {
        return path;
    }

    long lengthBytes() {
        return lengthBytes;
    }

    /** Publishes one more entry, whose bytes the caller has just written at slot {@link #entries()}. */
    void commitEntry() {
        entries = entries + 1;
    }

    /**
     * Keeps the first {@code count} entries. The bytes after them are left as they are, as Kafka leaves them:
     * nothing reads past {@link #entries()}, appends overwrite them, and a trim cuts them off the file. Zeroing
     * them instead touched every page of a preallocated index (10 MiB by default), which made crash recovery
     * cost time and resident memory in proportion to the index size rather than to the data.
     */
    void truncateToEntries(int count) {
        entries = Math.max(0, Math.min(count, entries));
    }

    /** Resizes the file (and its mapping) to {@code maxIndexBytes} rounded down to whole entries, keeping entries. */
    void resize(int maxIndexBytes) throws IOException {
        long length = Math.max(roundDown(maxIndexBytes), entries * (long) entrySizeBytes);
        try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
            file.setLength(length);
            map(file, length);
        }
    }

    /** Cuts the file to exactly its entries (done on roll and close); an index not mapped yet stays so. */
    void trimToEntries() throws IOException {
        try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
            long length = entries * (long) entrySizeBytes;
            file.setLength(length);
            if (buffer != null) {
                map(file, length);
            } else {
                lengthBytes = length;
            }
        }
    }

    /** Writes the mapped pages out; an index never mapped has nothing unwritten. */
    void flush() {
        MappedByteBuffer mapped = buffer;
        if (mapped != null) {
            mapped.force();
        }
    }

    void renameTo(Path target) throws IOException {
        Files.move(path, target, StandardCopyOption.ATOMIC_MOVE);
        path = target;
    }

    /** Unmaps now; only once no reader can use this index (segment closed, or deleted after file.delete.delay.ms). */
    synchronized void close() {
        closed = true;
        MappedByteBuffer old = buffer;
        buffer = null;
        unmap(old);
    }

    void deleteIfExists() throws IOException {
        close();
        Files.deleteIfExists(path);
    }

    private static final Object UNSAFE;
    private static final Method INVOKE_CLEANER;

    static {
        // Design note: a mapping is otherwise released only when the GC collects the buffer, which keeps
        // deleted index files (and their address space) alive; sun.misc.Unsafe#invokeCleaner (JDK 9+,
        // module jdk.unsupported) releases it deterministically, as Kafka also does.
        Object unsafe;
        Method cleaner;
        try {
            Class<?> type = Class.forName("sun.misc.Unsafe");
            Field field = type.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            unsafe = field.get(null);
            cleaner = type.getMethod("invokeCleaner", ByteBuffer.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        UNSAFE = unsafe;
        INVOKE_CLEANER = cleaner;
    }

    private static void unmap(MappedByteBuffer mapped) {
        if (mapped == null) {
            return;
        }
        try {
            INVOKE_CLEANER.invoke(UNSAFE, mapped);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot unmap index buffer", e);
        }
    }
}

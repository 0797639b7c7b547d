package dev.spool.log.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Thread-safe: appends and truncations come from the owning log's lock holder, reads from any thread (they see a
 * copy-on-write list). Kafka's aborted-transaction index of one segment, {@code <base offset>.txnindex}: an entry
 * for each transaction whose ABORT marker lies in the segment, in marker order, each 34 bytes, big-endian:
 *
 * <pre>
 *  0         2             10            18           26                 34
 *  +---------+-------------+-------------+------------+------------------+
 *  | version | producerId  | firstOffset | lastOffset | lastStableOffset |
 *  | int16=0 | int64       | int64       | int64      | int64            |
 *  +---------+-------------+-------------+------------+------------------+
 * </pre>
 *
 * The one place this layout is written down. Most segments never see an abort, so the file is created by the
 * first entry, and read (then kept in memory) on first use; aborts are rare, so the entries are few.
 */
public final class TransactionIndex {

    public static final int ENTRY_SIZE_BYTES = 34;
    private static final short VERSION = 0;

    private Path path;
    /** Null until read; afterwards replaced, never changed. */
    private volatile List<AbortedTxn> entries;
    private FileChannel channel;
    private boolean closed;

    public TransactionIndex(Path path) {
        this.path = path;
    }

    public synchronized Path path() {
        return path;
    }

    /** The entries, oldest first (read from the file the first time). */
    public List<AbortedTxn> entries() throws IOException {
        List<AbortedTxn> read = entries;
        if (read == null) {
            synchronized (this) {
                if (entries == null) {
                    entries = readFile();
                }
                read = entries;
            }
        }
        return read;
    }

    /** Whether the segment holds no abort (reads the file on first use). */
    public boolean isEmpty() throws IOException {
        return entries().isEmpty();
    }

    /**
     * Appends {@code txn}, whose marker must lie after every entry's; an entry already there (a replay of the
     * log after a restart meets the markers it indexed before) is not written again.
     */
    public synchronized void append(AbortedTxn txn) throws IOException {
        List<AbortedTxn> current = entries();
        if (!current.isEmpty()) {
            AbortedTxn last = current.get(current.size() - 1);
            if (txn.lastOffset() <= last.lastOffset()) {
                for (AbortedTxn indexed : current) {
                    if (indexed.lastOffset() == txn.lastOffset()) {
                        return;
                    }
                }
                throw new IllegalArgumentException("Aborted transaction " + txn + " does not follow " + last
                        + " in " + path);
            }
        }
        ByteBuffer entry = ByteBuffer.allocate(ENTRY_SIZE_BYTES).putShort(VERSION).putLong(txn.producerId())
                .putLong(txn.firstOffset()).putLong(txn.lastOffset()).putLong(txn.lastStableOffset()).flip();
        FileChannel file = channel();
        long position = (long) current.size() * ENTRY_SIZE_BYTES;
        while (entry.hasRemaining()) {
            position += file.write(entry, position);
        }
        List<AbortedTxn> next = new ArrayList<>(current.size() + 1);
        next.addAll(current);
        next.add(txn);
        entries = List.copyOf(next);
    }

    /** Drops the entries whose marker is at or after {@code offset} (the log was cut there). */
    public synchronized void truncateTo(long offset) throws IOException {
        List<AbortedTxn> current = entries();
        int keep = 0;
        while (keep < current.size() && current.get(keep).lastOffset() < offset) {
            keep++;
        }
        if (keep == current.size()) {
            return;
        }
        channel().truncate((long) keep * ENTRY_SIZE_BYTES);
        entries = List.copyOf(current.subList(0, keep));
    }

    /** Drops every entry (the segment was emptied and starts again). */
    public synchronized void reset() throws IOException {
        truncateTo(Long.MIN_VALUE);
    }

    /**
     * Adds to {@code into} each transaction aborted in this segment that overlaps [{@code fromOffset},
     * {@code upToOffset}): its marker at or after fromOffset and its first record below upToOffset. Returns
     * whether the search is complete: an entry's last stable offset reached upToOffset, so no later segment can
     * hold a transaction that began below it.
     */
    public boolean collect(long fromOffset, long upToOffset, List<AbortedTxn> into) throws IOException {
        for (AbortedTxn txn : entries()) {
            if (txn.lastOffset() >= fromOffset && txn.firstOffset() < upToOffset) {
                into.add(txn);
            }
            if (txn.lastStableOffset() >= upToOffset) {
                return true;
            }
        }
        return false;
    }

    /** fsyncs what was appended. */
    public synchronized void flush() throws IOException {
        if (channel != null && !closed) {
            channel.force(true);
        }
    }

    /** Renames the file (if there is one); later appends go to the new name. */
    public synchronized void renameTo(Path target) throws IOException {
        try {
            Files.move(path, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (NoSuchFileException e) {
            // no abort was ever indexed here: nothing to rename
        }
        path = target;
    }

    public synchronized void deleteIfExists() throws IOException {
        close();
        Files.deleteIfExists(path);
    }

    public synchronized void close() throws IOException {
        closed = true;
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }

    private FileChannel channel() throws IOException {
        if (closed) {
            throw new IOException("Transaction index " + path + " is closed");
        }
        if (channel == null) {
            channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
        }
        return channel;
    }

    private List<AbortedTxn> readFile() throws IOException {
        if (!Files.exists(path)) {
            return List.of();
        }
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(path));
        int count = bytes.remaining() / ENTRY_SIZE_BYTES;
        if (bytes.remaining() % ENTRY_SIZE_BYTES != 0) {
            // A torn last entry (a crash while it was written): its marker is replayed and indexed again.
            try (FileChannel file = FileChannel.open(path, StandardOpenOption.WRITE)) {
                file.truncate((long) count * ENTRY_SIZE_BYTES);
            }
        }
        List<AbortedTxn> read = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            short version = bytes.getShort();
            if (version != VERSION) {
                throw new CorruptIndexException("Transaction index " + path + " entry " + i + " has version "
                        + version + ", expected " + VERSION);
            }
            read.add(new AbortedTxn(bytes.getLong(), bytes.getLong(), bytes.getLong(), bytes.getLong()));
        }
        return List.copyOf(read);
    }
}

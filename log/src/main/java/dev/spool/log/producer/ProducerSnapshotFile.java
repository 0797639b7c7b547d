package dev.spool.log.producer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * Stateless: Kafka's producer state snapshot file, {@code <20-digit offset>.snapshot} beside the
 * segments of a partition, holding each producer's state as of that offset (every batch below it
 * applied). The one place this layout is written down:
 *
 * <pre>
 *  0         2              6           10
 *  +---------+--------------+-----------+------------------------------+
 *  | version | crc          | count     | count entries of 46 bytes    |
 *  | int16=1 | uint32       | int32     |                              |
 *  +---------+--------------+-----------+------------------------------+
 *  entry:
 *  0             8       10             14            22            26           34             38
 *  +-------------+-------+--------------+-------------+-------------+------------+--------------+------------------+
 *  | producerId  | epoch | lastSequence | lastOffset  | offsetDelta | timestamp  | coordinator  | currentTxnFirst  |
 *  | int64       | int16 | int32        | int64       | int32       | int64      | epoch int32  | offset int64     |
 *  +-------------+-------+--------------+-------------+-------------+------------+--------------+------------------+
 * </pre>
 *
 * <p>All big-endian. The CRC is CRC-32C of bytes [6, end). {@code offsetDelta} is last minus first
 * sequence (and offset) of the producer's last batch; {@code timestamp} that batch's max timestamp;
 * {@code currentTxnFirstOffset} -1 when no transaction is open. A file is written to a {@code .tmp}
 * sibling, fsynced and renamed, so a crash leaves either the whole file or none.
 */
public final class ProducerSnapshotFile {

    public static final String SUFFIX = ".snapshot";
    public static final short VERSION = 1;
    static final int CRC_OFFSET = 2;
    static final int COUNT_OFFSET = 6;
    static final int ENTRIES_OFFSET = 10;
    static final int ENTRY_SIZE_BYTES = 46;
    private static final int OFFSET_DIGITS = 20;

    /** One producer in a snapshot. Immutable. */
    public record Entry(long producerId, short epoch, int lastSequence, long lastOffset, int offsetDelta,
                        long timestampMs, int coordinatorEpoch, long currentTxnFirstOffset) {
    }

    private ProducerSnapshotFile() {
    }

    /** {@code dir/<offset as 20 digits>.snapshot}. */
    public static Path path(Path dir, long offset) {
        return dir.resolve(String.format("%0" + OFFSET_DIGITS + "d", offset) + SUFFIX);
    }

    /** The offset a snapshot file name carries, or -1 if the name is not a snapshot file's. */
    public static long offsetOf(Path file) {
        String name = file.getFileName().toString();
        if (name.length() != OFFSET_DIGITS + SUFFIX.length() || !name.endsWith(SUFFIX)) {
            return -1;
        }
        try {
            return Long.parseLong(name.substring(0, OFFSET_DIGITS));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The snapshot files of {@code dir} by offset. */
    public static TreeMap<Long, Path> list(Path dir) throws IOException {
        TreeMap<Long, Path> files = new TreeMap<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, "*" + SUFFIX)) {
            for (Path file : stream) {
                long offset = offsetOf(file);
                if (offset >= 0) {
                    files.put(offset, file);
                }
            }
        }
        return files;
    }

    public static ByteBuffer encode(List<Entry> entries) {
        ByteBuffer buffer = ByteBuffer.allocate(ENTRIES_OFFSET + entries.size() * ENTRY_SIZE_BYTES);
        buffer.putShort(VERSION).putInt(0).putInt(entries.size());
        for (Entry entry : entries) {
            buffer.putLong(entry.producerId()).putShort(entry.epoch()).putInt(entry.lastSequence())
                    .putLong(entry.lastOffset()).putInt(entry.offsetDelta()).putLong(entry.timestampMs())
                    .putInt(entry.coordinatorEpoch()).putLong(entry.currentTxnFirstOffset());
        }
        buffer.putInt(CRC_OFFSET, (int) crc(buffer, buffer.position()));
        return buffer.flip();
    }

    /** Decodes a whole snapshot file's bytes; {@code source} names it in errors. */
    public static List<Entry> decode(ByteBuffer buffer, Path source) throws IOException {
        if (buffer.remaining() < ENTRIES_OFFSET) {
            throw new IOException("Producer snapshot " + source + " has " + buffer.remaining()
                    + " bytes, fewer than its " + ENTRIES_OFFSET + "-byte header");
        }
        short version = buffer.getShort(0);
        if (version != VERSION) {
            throw new IOException("Producer snapshot " + source + " has version " + version + ", expected " + VERSION);
        }
        long stored = Integer.toUnsignedLong(buffer.getInt(CRC_OFFSET));
        long computed = crc(buffer, buffer.limit());
        if (stored != computed) {
            throw new IOException("Producer snapshot " + source + " has CRC " + stored + " but its bytes give "
                    + computed);
        }
        int count = buffer.getInt(COUNT_OFFSET);
        if (count < 0 || (long) ENTRIES_OFFSET + (long) count * ENTRY_SIZE_BYTES != buffer.limit()) {
            throw new IOException("Producer snapshot " + source + " announces " + count + " entries in "
                    + buffer.limit() + " bytes");
        }
        List<Entry> entries = new ArrayList<>(count);
        buffer.position(ENTRIES_OFFSET);
        for (int i = 0; i < count; i++) {
            entries.add(new Entry(buffer.getLong(), buffer.getShort(), buffer.getInt(), buffer.getLong(),
                    buffer.getInt(), buffer.getLong(), buffer.getInt(), buffer.getLong()));
        }
        return entries;
    }

    /** CRC-32C of bytes [6, endIndex). */
    private static long crc(ByteBuffer buffer, int endIndex) {
        CRC32C crc = new CRC32C();
        ByteBuffer covered = buffer.duplicate();
        covered.limit(endIndex).position(COUNT_OFFSET);
        crc.update(covered);
        return crc.getValue();
    }

    /** Writes the snapshot of {@code offset} atomically (temp file, fsync, rename). */
    public static Path write(Path dir, long offset, List<Entry> entries) throws IOException {
        Path target = path(dir, offset);
        Path temp = target.resolveSibling(target.getFileName() + ".tmp");
        ByteBuffer bytes = encode(entries);
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(true);
        }
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return target;
    }

    public static List<Entry> read(Path file) throws IOException {
        return decode(ByteBuffer.wrap(Files.readAllBytes(file)), file);
    }
}

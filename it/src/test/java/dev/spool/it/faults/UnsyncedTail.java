package dev.spool.it.faults;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Stateless: damages what a stopped broker wrote after its last fsync, as a power cut may leave it. The recovery
 * point a broker checkpoints ({@code recovery-point-offset-checkpoint}) is the offset below which its log was
 * fsynced; the batches from there on were only in the page cache, so a power cut may cut them mid-batch, zero them
 * or leave garbage in them, and may leave the index files' tails garbled (indexes are preallocated and never trimmed
 * after a crash). Used by the single-broker power-loss test and by the fault schedule's power-loss fault.
 */
public final class UnsyncedTail {

    /** What a power cut leaves of the unsynced bytes. */
    public enum Damage { CUT_MID_BATCH, ZEROED, GARBLED }

    private static final int BATCH_HEADER_BYTES = 12;
    private static final String METADATA_LOG_PREFIX = "__cluster_metadata";

    private UnsyncedTail() {
    }

    /**
     * Damages, in each partition of the stopped broker's {@code logDir}, the last segment from the first batch at or
     * past the partition's recovery point (0 when none was checkpointed yet: the broker then trusts nothing), and
     * garbles its indexes' tails; returns one line per partition damaged (those with nothing unsynced are left
     * alone). The metadata log is left alone: Raft fsyncs before it acknowledges, so a power cut cannot undo it.
     */
    public static List<String> damageEveryPartition(Path logDir, Random random) throws IOException {
        List<String> done = new ArrayList<>();
        Map<String, Long> recoveryPoints = recoveryPoints(logDir);
        for (String partitionName : partitionDirectories(logDir)) {
            Path partitionDir = logDir.resolve(partitionName);
            Path segment = lastSegment(partitionDir);
            if (segment == null) {
                continue;
            }
            long size = Files.size(segment);
            long unsyncedFrom = positionOfFirstBatchFrom(segment, recoveryPoints.getOrDefault(partitionName, 0L));
            if (unsyncedFrom >= size) {
                continue;
            }
            Damage damage = Damage.values()[random.nextInt(Damage.values().length)];
            String what = damage(damage, random, segment, unsyncedFrom, size);
            String base = segment.getFileName().toString().replace(".log", "");
            garbleIndexTail(partitionDir.resolve(base + ".index"), random);
            garbleIndexTail(partitionDir.resolve(base + ".timeindex"), random);
            done.add(partitionName + ": " + what);
        }
        return done;
    }

    /** Damages {@code segment}'s bytes from {@code from} (the first unsynced batch) to {@code size} as {@code damage}. */
    public static String damage(Damage damage, Random random, Path segment, long from, long size) throws IOException {
        long at = from + random.nextInt((int) (size - from));
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            switch (damage) {
                case CUT_MID_BATCH -> {
                    long cut = Math.max(from + 1, at);
                    channel.truncate(cut);
                    return "cut at byte " + cut + " of " + size + " (unsynced from " + from + ")";
                }
                case ZEROED -> {
                    channel.write(ByteBuffer.allocate((int) (size - at)), at);
                    return "zeroed from byte " + at + " of " + size + " (unsynced from " + from + ")";
                }
                default -> {
                    byte[] garbage = new byte[1 + random.nextInt(64)];
                    random.nextBytes(garbage);
                    long end = Math.min(size, at + garbage.length);
                    channel.write(ByteBuffer.wrap(garbage, 0, (int) (end - at)), at);
                    return "garbled bytes " + at + ".." + end + " of " + size + " (unsynced from " + from + ")";
                }
            }
        }
    }

    /** Garbles the index bytes from the middle of the file on (the index was never trimmed: a crash). */
    public static void garbleIndexTail(Path index, Random random) throws IOException {
        if (!Files.exists(index)) {
            return;
        }
        long size = Files.size(index);
        try (FileChannel channel = FileChannel.open(index, StandardOpenOption.WRITE)) {
            byte[] garbage = new byte[(int) Math.min(4096, size / 2)];
            random.nextBytes(garbage);
            channel.write(ByteBuffer.wrap(garbage), size / 2);
        }
    }

    /** The recovery point of each partition, by partition directory name ({@code topic-partition}). */
    public static Map<String, Long> recoveryPoints(Path logDir) throws IOException {
        Map<String, Long> points = new LinkedHashMap<>();
        Path checkpoint = logDir.resolve("recovery-point-offset-checkpoint");
        if (!Files.exists(checkpoint)) {
            return points;
        }
        for (String line : Files.readAllLines(checkpoint)) {
            String[] fields = line.trim().split(" ");
            if (fields.length == 3) {
                points.put(fields[0] + "-" + fields[1], Long.parseLong(fields[2]));
            }
        }
        return points;
    }

    /** The file position of the first batch whose base offset is at least {@code offset}. */
    public static long positionOfFirstBatchFrom(Path segment, long offset) throws IOException {
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.READ)) {
            ByteBuffer header = ByteBuffer.allocate(BATCH_HEADER_BYTES);
            long position = 0;
            while (position + BATCH_HEADER_BYTES <= channel.size()) {
                header.clear();
                channel.read(header, position);
                if (header.getLong(0) >= offset) {
                    return position;
                }
                position += BATCH_HEADER_BYTES + header.getInt(8);
            }
            return position;
        }
    }

    /** The names of the partition directories under {@code logDir}, the metadata log's excepted. */
    private static List<String> partitionDirectories(Path logDir) throws IOException {
        try (Stream<Path> files = Files.list(logDir)) {
            return files.filter(Files::isDirectory).map(dir -> dir.getFileName().toString())
                    .filter(name -> name.matches(".+-\\d+") && !name.startsWith(METADATA_LOG_PREFIX)).sorted().toList();
        }
    }

    /** The segment with the highest base offset (the active one, the only one that may hold unsynced batches). */
    private static Path lastSegment(Path partitionDir) throws IOException {
        if (!Files.isDirectory(partitionDir)) {
            return null;
        }
        try (Stream<Path> files = Files.list(partitionDir)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".log")).sorted().reduce((a, b) -> b)
                    .orElse(null);
        }
    }
}

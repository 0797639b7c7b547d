package dev.spool.it.reliability;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Stateless: what a power cut may leave of a stopped broker's log dir. Only what was written after the last
 * fsync is at risk, and the broker's recovery point (checkpointed in {@code recovery-point-offset-checkpoint},
 * every offset below it fsynced) bounds it from below: past it, a segment may end mid-batch, read as zeros (blocks
 * allocated, data never written) or hold garbage; an index, never trimmed by a clean shutdown, may hold garbage
 * anywhere in its tail. Call only on the files of a process that is not running.
 */
public final class PowerCut {

    /** How the unsynced tail of a segment is damaged. */
    public enum Damage { CUT_MID_BATCH, ZEROED, GARBLED }

    private static final String RECOVERY_POINTS = "recovery-point-offset-checkpoint";
    /** A batch starts with its base offset (8 bytes) and its length after these 12 bytes (4 bytes). */
    private static final int BATCH_LENGTH_PREFIX = 12;

    private PowerCut() {
    }

    /**
     * Damages the unsynced tail of every partition log under {@code dataDir} (the last segment from its first batch
     * at or past the partition's recovery point, 0 when it has none checkpointed yet) with a damage drawn from
     * {@code random}, and garbles the tail of that segment's indexes. The metadata log is left alone (Raft keeps
     * its own). Answers what was done, one line per partition.
     */
    public static List<String> damageUnsyncedTails(Path dataDir, Random random) throws IOException {
        Map<String, Long> recoveryPoints = recoveryPoints(dataDir);
        List<String> done = new ArrayList<>();
        for (Path partitionDir : partitionDirs(dataDir)) {
            String name = partitionDir.getFileName().toString();
            Path segment = lastSegment(partitionDir);
            if (segment == null) {
                continue;
            }
            long from = positionOfFirstBatchFrom(segment, recoveryPoints.getOrDefault(name, 0L));
            long size = Files.size(segment);
            if (from >= size) {
                continue; // everything in it was synced
            }
            Damage damage = Damage.values()[random.nextInt(Damage.values().length)];
            done.add(name + ": " + damage(damage, random, segment, from, size));
            String base = segment.getFileName().toString().replace(".log", "");
            for (String index : List.of(base + ".index", base + ".timeindex")) {
                garbleIndexTail(partitionDir.resolve(index), random);
            }
        }
        return done;
    }

    /** Damages {@code segment} (of {@code size} bytes) somewhere past byte {@code from}; says how. */
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

    /** The checkpointed recovery point of each partition, by its directory name (topic-partition). */
    public static Map<String, Long> recoveryPoints(Path dataDir) throws IOException {
        Map<String, Long> points = new HashMap<>();
        Path file = dataDir.resolve(RECOVERY_POINTS);
        if (!Files.exists(file)) {
            return points;
        }
        for (String line : Files.readAllLines(file)) {
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
            ByteBuffer header = ByteBuffer.allocate(BATCH_LENGTH_PREFIX);
            long position = 0;
            while (position + BATCH_LENGTH_PREFIX <= channel.size()) {
                header.clear();
                channel.read(header, position);
                if (header.getLong(0) >= offset) {
                    return position;
                }
                position += BATCH_LENGTH_PREFIX + header.getInt(8);
            }
            return position;
        }
    }

    private static List<Path> partitionDirs(Path dataDir) throws IOException {
        try (Stream<Path> entries = Files.list(dataDir)) {
            return entries.filter(Files::isDirectory)
                    .filter(dir -> dir.getFileName().toString().matches(".+-\\d+"))
                    .filter(dir -> !dir.getFileName().toString().startsWith("__cluster_metadata"))
                    .sorted().toList();
        }
    }

    /** The active segment: the one with the highest base offset (file names are zero-padded base offsets). */
    private static Path lastSegment(Path partitionDir) throws IOException {
        try (Stream<Path> files = Files.list(partitionDir)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".log")).max(Path::compareTo)
                    .orElse(null);
        }
    }
}

package dev.spool.log;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Thread-safe (writes are serialized on this object; each replaces the file atomically): Kafka's text
 * checkpoint files ({@code recovery-point-offset-checkpoint}, {@code log-start-offset-checkpoint},
 * {@code replication-offset-checkpoint}, {@code leader-epoch-checkpoint}).
 *
 * <pre>
 * 0                      version, always 0
 * 2                      number of entry lines
 * my-topic 0 1234        entries: space-separated fields
 * my-topic 1 99          (topic partition offset, or epoch startOffset for the leader epoch file)
 * </pre>
 *
 * A write goes to {@code <name>.tmp}, is fsynced, then renamed over the file, so a reader sees the old
 * or the new content, never half of one.
 */
public final class CheckpointFile {
    private static final int VERSION = 0;
    private final Path path;

    public CheckpointFile(Path path) {
        this.path = path;
    }

    public Path path() {
        return path;
    }

    /** Replaces the file with these entry lines (each already space-separated). */
    public synchronized void write(List<String> entries) throws IOException {
        StringBuilder text = new StringBuilder();
        text.append(VERSION).append('\n').append(entries.size()).append('\n');
        for (String entry : entries) {
            text.append(entry).append('\n');
        }
        Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
        Files.write(tmp, text.toString().getBytes(StandardCharsets.UTF_8));
        try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * The entries split into fields, each line with exactly {@code fieldsPerLine} fields; empty when the
     * file does not exist. A malformed file throws an IOException naming the file, line and content.
     */
    public synchronized List<String[]> read(int fieldsPerLine) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(path, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return List.of();
        }
        if (lines.size() < 2 || !lines.get(0).trim().equals(Integer.toString(VERSION))) {
            throw new IOException("Checkpoint " + path + " has no version " + VERSION + " header: " + lines);
        }
        int count;
        try {
            count = Integer.parseInt(lines.get(1).trim());
        } catch (NumberFormatException e) {
            throw new IOException("Checkpoint " + path + " has a bad entry count '" + lines.get(1) + "'", e);
        }
        if (count < 0 || lines.size() < 2 + count) {
            throw new IOException("Checkpoint " + path + " announces " + count + " entries but has "
                    + (lines.size() - 2) + " lines");
        }
        List<String[]> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String[] fields = lines.get(2 + i).trim().split("\\s+");
            if (fields.length != fieldsPerLine) {
                throw new IOException("Checkpoint " + path + " line " + (3 + i) + " '" + lines.get(2 + i)
                        + "' does not have " + fieldsPerLine + " fields");
            }
            entries.add(fields);
        }
        return entries;
    }
}

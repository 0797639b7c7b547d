package dev.spool.log.cleaner;

import dev.spool.log.CheckpointFile;
import dev.spool.log.TopicPartition;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Thread-safe (synchronized): the first dirty offset of each compacted partition, kept in
 * {@code cleaner-offset-checkpoint} in every log directory in Kafka's checkpoint format (version 0,
 * count, then "topic partition offset" lines; see {@link CheckpointFile}).
 */
final class CleanerCheckpoints {
    static final String FILE_NAME = "cleaner-offset-checkpoint";

    private final Map<Path, CheckpointFile> files = new HashMap<>();
    private final Map<Path, Map<TopicPartition, Long>> offsets = new HashMap<>();

    /** Reads the file of each log directory (missing files are empty). */
    CleanerCheckpoints(List<Path> logDirs) throws IOException {
        for (Path logDir : logDirs) {
            CheckpointFile file = new CheckpointFile(logDir.resolve(FILE_NAME));
            Map<TopicPartition, Long> entries = new HashMap<>();
            for (String[] fields : file.read(3)) {
                try {
                    entries.put(new TopicPartition(fields[0], Integer.parseInt(fields[1])), Long.parseLong(fields[2]));
                } catch (NumberFormatException e) {
                    throw new IOException("Bad entry '" + String.join(" ", fields) + "' in " + file.path(), e);
                }
            }
            files.put(logDir, file);
            offsets.put(logDir, entries);
        }
    }

    /** The checkpointed first dirty offset of a partition in {@code logDir}, or -1. */
    synchronized long get(Path logDir, TopicPartition partition) {
        Map<TopicPartition, Long> entries = offsets.get(logDir);
        return entries == null ? -1 : entries.getOrDefault(partition, -1L);
    }

    /** Records and writes a partition's new first dirty offset. */
    synchronized void update(Path logDir, TopicPartition partition, long firstDirtyOffset) throws IOException {
        offsets.computeIfAbsent(logDir, dir -> new HashMap<>()).put(partition, firstDirtyOffset);
        write(logDir);
    }

    /** Forgets a deleted partition. */
    synchronized void remove(Path logDir, TopicPartition partition) throws IOException {
        Map<TopicPartition, Long> entries = offsets.get(logDir);
        if (entries != null && entries.remove(partition) != null) {
            write(logDir);
        }
    }

    private void write(Path logDir) throws IOException {
        CheckpointFile file = files.computeIfAbsent(logDir, dir -> new CheckpointFile(dir.resolve(FILE_NAME)));
        List<String> lines = new ArrayList<>();
        offsets.get(logDir).forEach((partition, offset) ->
                lines.add(partition.topic() + " " + partition.partition() + " " + offset));
        file.write(lines);
    }
}

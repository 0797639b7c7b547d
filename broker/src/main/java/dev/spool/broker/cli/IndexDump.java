package dev.spool.broker.cli;

import dev.spool.log.LogFileNames;
import dev.spool.log.index.OffsetIndex;
import dev.spool.log.index.TimeIndex;
import dev.spool.log.record.BatchValidation;
import dev.spool.log.segment.BatchFileReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

/**
 * Not thread-safe: prints the entries of an offset or time index and checks each against the segment file beside
 * it: an offset index entry must name the last offset of the batch that starts at its position, a time index
 * entry the last offset of a batch whose max timestamp is its timestamp, and both must grow. The index is read
 * from a private copy through the log module's {@link OffsetIndex} / {@link TimeIndex} (which map their file
 * read-write), so the original, perhaps a running broker's, is never touched. The unused, zero-filled tail of a
 * preallocated (active) index is not printed.
 */
final class IndexDump {

    private final PrintWriter out;

    IndexDump(PrintWriter out) {
        this.out = out;
    }

    /** Prints and checks an offset index; false when an entry does not match the segment. */
    boolean dumpOffsetIndex(Path file) throws IOException {
        long baseOffset = LogFileNames.baseOffsetOf(file.getFileName().toString(), LogFileNames.INDEX_SUFFIX);
        Path log = file.resolveSibling(LogFileNames.name(baseOffset, LogFileNames.LOG_SUFFIX));
        Path copy = copyOf(file);
        OffsetIndex index = new OffsetIndex(copy, baseOffset, (int) Files.size(copy), false);
        int mismatches = 0;
        try (FileChannel channel = Files.exists(log) ? FileChannel.open(log, StandardOpenOption.READ) : null) {
            long previousOffset = -1;
            for (int slot = 0; slot < index.entries(); slot++) {
                long offset = index.entryOffset(slot);
                int position = index.entryPosition(slot);
                if (slot > 0 && offset == baseOffset && position == 0) {
                    break;
                }
                out.println("offset: " + offset + " position: " + position);
                String problem = offset <= previousOffset ? "offset does not grow (previous " + previousOffset + ")"
                        : channel == null ? null : batchProblem(channel, position, offset);
                if (problem != null) {
                    out.println("Index mismatch in " + file + ": entry offset " + offset + " position " + position
                            + ": " + problem);
                    mismatches++;
                }
                previousOffset = offset;
            }
        } finally {
            index.close();
            Files.deleteIfExists(copy);
        }
        return summary(file, log, mismatches);
    }

    /** Prints and checks a time index; false when an entry does not match the segment. */
    boolean dumpTimeIndex(Path file) throws IOException {
        long baseOffset = LogFileNames.baseOffsetOf(file.getFileName().toString(), LogFileNames.TIME_INDEX_SUFFIX);
        Path log = file.resolveSibling(LogFileNames.name(baseOffset, LogFileNames.LOG_SUFFIX));
        Map<Long, Long> maxTimestampByLastOffset = Files.exists(log) ? maxTimestamps(log) : null;
        Path copy = copyOf(file);
        TimeIndex index = new TimeIndex(copy, baseOffset, (int) Files.size(copy), false);
        int mismatches = 0;
        try {
            long previousTimestamp = Long.MIN_VALUE;
            long previousOffset = -1;
            for (int slot = 0; slot < index.entries(); slot++) {
                long timestamp = index.entryTimestamp(slot);
                long offset = index.entryOffset(slot);
                if (slot > 0 && timestamp == 0 && offset == baseOffset) {
                    break;
                }
                out.println("timestamp: " + timestamp + " offset: " + offset);
                Long batchMaxTimestamp = maxTimestampByLastOffset == null ? null : maxTimestampByLastOffset.get(offset);
                String problem = timestamp < previousTimestamp || offset < previousOffset ? "entries do not grow"
                        : maxTimestampByLastOffset == null ? null
                        : batchMaxTimestamp == null ? "no batch in the segment ends at this offset"
                        : batchMaxTimestamp != timestamp ? "the batch ending there has max timestamp " + batchMaxTimestamp
                        : null;
                if (problem != null) {
                    out.println("Index mismatch in " + file + ": entry timestamp " + timestamp + " offset " + offset
                            + ": " + problem);
                    mismatches++;
                }
                previousTimestamp = timestamp;
                previousOffset = offset;
            }
        } finally {
            index.close();
            Files.deleteIfExists(copy);
        }
        return summary(file, log, mismatches);
    }

    private boolean summary(Path file, Path log, int mismatches) {
        if (!Files.exists(log)) {
            out.println("Not verified: no segment file " + log.getFileName() + " beside " + file.getFileName());
        } else {
            out.println(mismatches == 0 ? "Index verified against " + log.getFileName()
                    : mismatches + " index entries do not match " + log.getFileName());
        }
        return mismatches == 0;
    }

    /** Why the batch at {@code position} does not end at {@code offset}, or null when it does. */
    private static String batchProblem(FileChannel channel, int position, long offset) throws IOException {
        BatchFileReader reader = new BatchFileReader(channel, position, channel.size());
        BatchValidation validation = reader.next();
        if (validation == null) {
            return "position is at or past the end of the segment (" + channel.size() + " bytes)";
        }
        if (!validation.isValid()) {
            return "no valid batch at that position (" + validation + ")";
        }
        long lastOffset = reader.batch().lastOffset();
        return lastOffset == offset ? null : "the batch there ends at offset " + lastOffset;
    }

    /** The max timestamp of every valid batch of the segment, by its last offset. */
    private static Map<Long, Long> maxTimestamps(Path log) throws IOException {
        Map<Long, Long> result = new HashMap<>();
        try (FileChannel channel = FileChannel.open(log, StandardOpenOption.READ)) {
            BatchFileReader reader = new BatchFileReader(channel, 0, channel.size());
            BatchValidation validation;
            while ((validation = reader.next()) != null && validation.isValid()) {
                result.put(reader.batch().lastOffset(), reader.batch().maxTimestamp());
            }
        }
        return result;
    }

    private static Path copyOf(Path index) throws IOException {
        Path copy = Files.createTempFile("spool-dump-", LogFileNames.INDEX_SUFFIX);
        Files.copy(index, copy, StandardCopyOption.REPLACE_EXISTING);
        return copy;
    }
}

package dev.spool.log;

import dev.spool.log.segment.LogSegment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Not thread-safe: called once while a partition is opened, before anyone else can see it.
 *
 * <p>Turns a partition directory into segments: removes what an interrupted deletion or compaction
 * left ({@code .deleted}, {@code .cleaned}, {@code .tmp} files; {@code .swap} files are completed),
 * opens every {@code .log} file in offset order, and, unless the last shutdown was clean, scans and
 * validates every segment from the one holding the recovery point on, truncating at the first torn
 * or invalid batch and deleting any segment after it.
 */
final class LogLoader {
    private static final Logger LOG = LoggerFactory.getLogger(LogLoader.class);

    /** The segments found, and where the log ends. */
    record Loaded(TreeMap<Long, LogSegment> segments, long logEndOffset, boolean recovered) {
    }

    private LogLoader() {
    }

    static Loaded load(Path dir, LogConfig config, LogClock clock, LogLoadOptions options) throws IOException {
        Files.createDirectories(dir);
        List<Long> baseOffsets = cleanDirectoryAndListSegments(dir);
        TreeMap<Long, LogSegment> segments = new TreeMap<>();
        long recoverFrom = Long.MAX_VALUE;
        if (!options.hadCleanShutdown()) {
            recoverFrom = 0;
            for (long base : baseOffsets) {
                if (base <= options.recoveryPoint()) {
                    recoverFrom = base;
                }
            }
        }
        boolean recovered = false;
        for (int i = 0; i < baseOffsets.size(); i++) {
            long base = baseOffsets.get(i);
            boolean last = i == baseOffsets.size() - 1;
            boolean recover = base >= recoverFrom;
            long sizeBefore = Files.size(LogFileNames.logFile(dir, base));
            LogSegment segment = LogSegment.open(dir, base, config, last, recover);
            segments.put(base, segment);
            recovered |= recover;
            if (recover && segment.sizeInBytes() < sizeBefore && !last) {
                deleteSegmentsAfter(dir, baseOffsets.subList(i + 1, baseOffsets.size()), segment);
                segment.resizeIndexes(config.segmentIndexBytes);
                break;
            }
        }
        if (segments.isEmpty()) {
            long base = Math.max(0, options.logStartOffset());
            segments.put(base, LogSegment.create(dir, base, config, clock.nowMs()));
        }
        LogSegment active = segments.lastEntry().getValue();
        long logEndOffset = Math.max(active.baseOffset(), active.readNextOffset());
        if (recovered) {
            // Validated bytes may still sit in the page cache only: make them durable before the
            // recovery point moves past them, or an OS crash could hide a torn tail from the next recovery.
            for (LogSegment segment : segments.tailMap(recoverFrom, true).values()) {
                segment.flush();
            }
        }
        return new Loaded(segments, logEndOffset, recovered);
    }

    private static void deleteSegmentsAfter(Path dir, List<Long> later, LogSegment truncated) throws IOException {
        for (long base : later) {
            LOG.warn("Deleting segment {} after the truncated {}", LogFileNames.logFile(dir, base), truncated.logPath());
            Files.deleteIfExists(LogFileNames.logFile(dir, base));
            Files.deleteIfExists(LogFileNames.offsetIndexFile(dir, base));
            Files.deleteIfExists(LogFileNames.timeIndexFile(dir, base));
        }
    }

    private static List<Long> cleanDirectoryAndListSegments(Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            stream.forEach(files::add);
        }
        // Complete swaps first (a .swap is a finished compaction output waiting for its rename).
        for (Path file : files) {
            String name = file.getFileName().toString();
            if (name.endsWith(LogFileNames.SWAP_SUFFIX)) {
                Path target = file.resolveSibling(name.substring(0, name.length() - LogFileNames.SWAP_SUFFIX.length()));
                LOG.info("Completing interrupted swap {} -> {}", file, target);
                Files.move(file, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        List<Long> baseOffsets = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path file : stream) {
                String name = file.getFileName().toString();
                if (name.endsWith(LogFileNames.DELETED_SUFFIX) || name.endsWith(LogFileNames.CLEANED_SUFFIX)
                        || name.endsWith(".tmp")) {
                    LOG.info("Removing leftover {}", file);
                    Files.deleteIfExists(file);
                    continue;
                }
                long base = LogFileNames.baseOffsetOf(name, LogFileNames.LOG_SUFFIX);
                if (base >= 0) {
                    baseOffsets.add(base);
                }
            }
        }
        baseOffsets.sort(null);
        removeOrphanIndexes(dir, files, baseOffsets);
        return baseOffsets;
    }

    private static void removeOrphanIndexes(Path dir, List<Path> files, List<Long> baseOffsets) throws IOException {
        for (Path file : files) {
            String name = file.getFileName().toString();
            long base = Math.max(LogFileNames.baseOffsetOf(name, LogFileNames.INDEX_SUFFIX),
                    LogFileNames.baseOffsetOf(name, LogFileNames.TIME_INDEX_SUFFIX));
            if (base >= 0 && !baseOffsets.contains(base)) {
                LOG.info("Removing index {} whose log file is missing", file);
                Files.deleteIfExists(dir.resolve(name));
            }
        }
    }
}

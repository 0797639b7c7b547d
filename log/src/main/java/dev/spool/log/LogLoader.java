package dev.spool.log;

import dev.spool.log.producer.ProducerSnapshotFile;
import dev.spool.log.record.BatchValidation;
import dev.spool.log.segment.BatchFileReader;
import dev.spool.log.segment.LogSegment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
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

    /**
     * The segments found, where the log ends, and the offsets of the producer snapshots found beside them
     * (listed with the segments, so that the producer state never lists the directory).
     */
    record Loaded(TreeMap<Long, LogSegment> segments, long logEndOffset, List<Long> producerSnapshotOffsets) {
    }

    private LogLoader() {
    }

    static Loaded load(Path dir, LogConfig config, LogClock clock, LogLoadOptions options) throws IOException {
        Files.createDirectories(dir);
        List<Long> producerSnapshotOffsets = new ArrayList<>();
        List<Long> baseOffsets = cleanDirectoryAndListSegments(dir, producerSnapshotOffsets);
        TreeMap<Long, LogSegment> segments = new TreeMap<>();
        long recoverFrom = Long.MAX_VALUE;
        if (!options.hadCleanShutdown()) {
            recoverFrom = 0;
            for (long base : baseOffsets) {
                if (base <= options.recoveryPoint()) {
                    recoverFrom = base;
                }
            }
            deleteSnapshotsAbove(dir, recoverFrom, producerSnapshotOffsets);
        }
        for (int i = 0; i < baseOffsets.size(); i++) {
            long base = baseOffsets.get(i);
            boolean last = i == baseOffsets.size() - 1;
            boolean recover = base >= recoverFrom;
            long sizeBefore = Files.size(LogFileNames.logFile(dir, base));
            LogSegment segment = LogSegment.open(dir, base, config, last, recover);
            segments.put(base, segment);
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
        // Nothing is flushed here: the validated bytes may sit in the page cache only, so the recovery point
        // stays where it was (PartitionLog.open) and the next unclean start validates them again, until a
        // flush moves it. An fsync per recovered partition made start-up cost grow with the partition count.
        return new Loaded(segments, logEndOffset, producerSnapshotOffsets);
    }

    private static void deleteSegmentsAfter(Path dir, List<Long> later, LogSegment truncated) throws IOException {
        for (long base : later) {
            LOG.warn("Deleting segment {} after the truncated {}", LogFileNames.logFile(dir, base), truncated.logPath());
            Files.deleteIfExists(LogFileNames.logFile(dir, base));
            Files.deleteIfExists(LogFileNames.offsetIndexFile(dir, base));
            Files.deleteIfExists(LogFileNames.timeIndexFile(dir, base));
            Files.deleteIfExists(LogFileNames.txnIndexFile(dir, base));
        }
    }

    /**
     * After a crash, the producer snapshots above the segment recovery starts in go: the aborted-transaction
     * index of a segment not yet flushed may have lost entries its log kept, and the replay of the producer
     * state from an older snapshot (at its first use) indexes every ABORT marker of the recovered segments again.
     */
    private static void deleteSnapshotsAbove(Path dir, long offset, List<Long> snapshotOffsets) throws IOException {
        for (Iterator<Long> it = snapshotOffsets.iterator(); it.hasNext(); ) {
            long snapshot = it.next();
            if (snapshot > offset) {
                Files.deleteIfExists(ProducerSnapshotFile.path(dir, snapshot));
                it.remove();
            }
        }
    }

    /** The segments' base offsets, in order; the producer snapshots' offsets are added to {@code snapshotOffsets}. */
    private static List<Long> cleanDirectoryAndListSegments(Path dir, List<Long> snapshotOffsets) throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            stream.forEach(files::add);
        }
        // Complete swaps first: a .log.swap is a finished, fsynced compaction output; the segments it
        // replaces are those whose base offsets it covers (PartitionLog.replaceSegments makes them).
        for (Path file : files) {
            String name = file.getFileName().toString();
            if (name.endsWith(LogFileNames.LOG_SUFFIX + LogFileNames.SWAP_SUFFIX)) {
                completeSwap(dir, file);
            }
        }
        List<Long> baseOffsets = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path file : stream) {
                String name = file.getFileName().toString();
                if (name.endsWith(LogFileNames.DELETED_SUFFIX) || name.endsWith(LogFileNames.CLEANED_SUFFIX)
                        || name.endsWith(LogFileNames.SWAP_SUFFIX) || name.endsWith(".tmp")) {
                    LOG.info("Removing leftover {}", file);
                    Files.deleteIfExists(file);
                    continue;
                }
                long base = LogFileNames.baseOffsetOf(name, LogFileNames.LOG_SUFFIX);
                if (base >= 0) {
                    baseOffsets.add(base);
                }
                long snapshotOffset = ProducerSnapshotFile.offsetOf(file);
                if (snapshotOffset >= 0) {
                    snapshotOffsets.add(snapshotOffset);
                }
            }
        }
        baseOffsets.sort(null);
        removeOrphanIndexes(dir, files, baseOffsets);
        return baseOffsets;
    }

    /**
     * Finishes a compaction swap cut short by a crash: deletes every segment whose base offset lies in
     * [swap base, swap end) (the ones it replaces; some may already be {@code .deleted}), drops the indexes
     * at the swap's base (old or new: they are rebuilt from the log) and renames the swap to its final name.
     */
    private static void completeSwap(Path dir, Path swap) throws IOException {
        String name = swap.getFileName().toString();
        long base = LogFileNames.baseOffsetOf(name.substring(0, name.length() - LogFileNames.SWAP_SUFFIX.length()),
                LogFileNames.LOG_SUFFIX);
        if (base < 0) {
            throw new IOException("Cannot parse the base offset of swap file " + swap);
        }
        long endOffset = nextOffsetOf(swap, base);
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, "*" + LogFileNames.LOG_SUFFIX)) {
            for (Path file : stream) {
                long replaced = LogFileNames.baseOffsetOf(file.getFileName().toString(), LogFileNames.LOG_SUFFIX);
                if (replaced == base || (replaced > base && replaced < endOffset)) {
                    LOG.info("Swap {} replaces {}", swap, file);
                    Files.delete(file);
                    Files.deleteIfExists(LogFileNames.offsetIndexFile(dir, replaced));
                    Files.deleteIfExists(LogFileNames.timeIndexFile(dir, replaced));
                    if (replaced != base) {
                        Files.deleteIfExists(LogFileNames.txnIndexFile(dir, replaced));
                    }
                }
            }
        }
        Files.deleteIfExists(LogFileNames.offsetIndexFile(dir, base));
        Files.deleteIfExists(LogFileNames.timeIndexFile(dir, base));
        // The cleaned segment's aborted transactions (those of every segment it replaces) are renamed before its log.
        Path txnSwap = dir.resolve(LogFileNames.txnIndexFile(dir, base).getFileName() + LogFileNames.SWAP_SUFFIX);
        if (Files.exists(txnSwap)) {
            Files.move(txnSwap, LogFileNames.txnIndexFile(dir, base), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        }
        Path target = LogFileNames.logFile(dir, base);
        LOG.info("Completing interrupted swap {} -> {} (offsets up to {})", swap, target, endOffset - 1);
        Files.move(swap, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The offset after the last valid batch of a segment file, or {@code base} if it holds none. */
    private static long nextOffsetOf(Path logFile, long base) throws IOException {
        try (FileChannel channel = FileChannel.open(logFile, StandardOpenOption.READ)) {
            BatchFileReader reader = new BatchFileReader(channel, 0, channel.size());
            long next = base;
            while (reader.next() == BatchValidation.VALID) {
                next = reader.batch().nextOffset();
            }
            return next;
        }
    }

    private static void removeOrphanIndexes(Path dir, List<Path> files, List<Long> baseOffsets) throws IOException {
        for (Path file : files) {
            String name = file.getFileName().toString();
            long base = Math.max(LogFileNames.baseOffsetOf(name, LogFileNames.INDEX_SUFFIX),
                    Math.max(LogFileNames.baseOffsetOf(name, LogFileNames.TIME_INDEX_SUFFIX),
                            LogFileNames.baseOffsetOf(name, LogFileNames.TXN_INDEX_SUFFIX)));
            if (base >= 0 && !baseOffsets.contains(base)) {
                LOG.info("Removing index {} whose log file is missing", file);
                Files.deleteIfExists(dir.resolve(name));
            }
        }
    }
}

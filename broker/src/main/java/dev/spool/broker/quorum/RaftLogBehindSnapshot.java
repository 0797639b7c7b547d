package dev.spool.broker.quorum;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.raftlog.segmented.LogSegment;
import org.apache.ratis.server.raftlog.segmented.LogSegmentPath;
import org.apache.ratis.util.SizeInBytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A voter's Raft log that ends before the snapshot beside it: its tail was lost after the snapshot covering it was
 * written (Ratis snapshots at a clean stop; a disk that lost what it had acknowledged). Ratis recovers such a log
 * into a follower that holds the snapshot's entries as committed but not the entry before the leader's next one,
 * and answers the leader "already have it" and "missing the one before" in turn for ever. Every entry the log
 * still holds is in the snapshot, so the log is dropped before Ratis starts and the voter goes on from the
 * snapshot, as a voter that installed it does.
 */
final class RaftLogBehindSnapshot {

    private static final Logger LOG = LoggerFactory.getLogger(RaftLogBehindSnapshot.class);
    private static final String OPEN_PREFIX = "log_inprogress_";
    private static final String CLOSED_PREFIX = "log_";

    private RaftLogBehindSnapshot() {
    }

    /**
     * Deletes the Raft log segments in {@code currentDir} (Ratis' {@code current} directory) when its last valid
     * entry is below {@code snapshotIndex}; returns whether it did. Entries are read as Ratis reads them under
     * {@code properties}.
     */
    static boolean dropIfBehind(Path currentDir, long snapshotIndex, RaftProperties properties) throws IOException {
        List<LogSegmentPath> segments = segmentsIn(currentDir);
        if (segments.isEmpty()) {
            return false;
        }
        // Ratis reads no entry larger than its appender's buffer limit.
        SizeInBytes maxEntrySize = RaftServerConfigKeys.Log.Appender.bufferByteLimit(properties);
        long lastIndex = lastIndexOf(segments.get(segments.size() - 1), maxEntrySize);
        if (lastIndex >= snapshotIndex) {
            return false;
        }
        LOG.warn("The Raft log in {} ends at index {}, before its snapshot at {}: its tail was lost after the "
                + "snapshot was written; dropping the log, the voter goes on from the snapshot", currentDir,
                lastIndex, snapshotIndex);
        for (LogSegmentPath segment : segments) {
            Files.delete(segment.getPath());
        }
        return true;
    }

    /** The segments in {@code dir}, oldest first. */
    private static List<LogSegmentPath> segmentsIn(Path dir) throws IOException {
        List<LogSegmentPath> segments = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return segments;
        }
        try (Stream<Path> files = Files.list(dir)) {
            files.map(LogSegmentPath::matchLogSegment).filter(Objects::nonNull).forEach(segments::add);
        }
        segments.sort(Comparator.comparingLong(RaftLogBehindSnapshot::startOf));
        return segments;
    }

    /**
     * The index of the last entry of {@code segment} that reads back whole: a closed segment's name says it; an
     * open one is read up to its first torn or corrupt entry, as Ratis reads it.
     */
    private static long lastIndexOf(LogSegmentPath segment, SizeInBytes maxEntrySize) throws IOException {
        String name = segment.getPath().getFileName().toString();
        if (!name.startsWith(OPEN_PREFIX)) {
            return Long.parseLong(name.substring(name.indexOf('-') + 1));
        }
        int entries = LogSegment.readSegmentFile(segment.getPath().toFile(), segment.getStartEnd(), maxEntrySize,
                RaftServerConfigKeys.Log.CorruptionPolicy.WARN_AND_RETURN, null, null);
        return startOf(segment) + entries - 1;
    }

    private static long startOf(LogSegmentPath segment) {
        String name = segment.getPath().getFileName().toString();
        if (name.startsWith(OPEN_PREFIX)) {
            return Long.parseLong(name.substring(OPEN_PREFIX.length()));
        }
        return Long.parseLong(name.substring(CLOSED_PREFIX.length(), name.indexOf('-')));
    }
}

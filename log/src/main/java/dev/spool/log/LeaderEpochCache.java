package dev.spool.log;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Thread-safe (synchronized): which leader epoch started at which offset in one partition, persisted
 * after every change in the partition's {@code leader-epoch-checkpoint} ({@link CheckpointFile} lines
 * "epoch startOffset"). Replication uses it to find where a follower's log diverges.
 */
public final class LeaderEpochCache {
    public static final String FILE_NAME = "leader-epoch-checkpoint";

    private final CheckpointFile file;
    private final TreeMap<Integer, Long> startOffsets = new TreeMap<>();

    public LeaderEpochCache(Path partitionDir) throws IOException {
        this.file = new CheckpointFile(partitionDir.resolve(FILE_NAME));
        for (String[] fields : file.read(2)) {
            try {
                startOffsets.put(Integer.parseInt(fields[0]), Long.parseLong(fields[1]));
            } catch (NumberFormatException e) {
                throw new IOException("Bad entry '" + String.join(" ", fields) + "' in " + file.path(), e);
            }
        }
    }

    /** Records that {@code epoch} starts at {@code startOffset}, if it is newer than the latest known epoch. */
    public synchronized void maybeAssign(int epoch, long startOffset) throws IOException {
        if (!isNew(epoch)) {
            return;
        }
        // An epoch cannot start before an earlier one's start: drop entries it supersedes.
        startOffsets.values().removeIf(offset -> offset >= startOffset);
        startOffsets.put(epoch, startOffset);
        persist();
    }

    /** Whether {@link #maybeAssign} would record {@code epoch} (and write the checkpoint file). */
    public synchronized boolean isNew(int epoch) {
        return epoch >= 0 && (startOffsets.isEmpty() || epoch > startOffsets.lastKey());
    }

    /** The latest epoch, or -1. */
    public synchronized int latestEpoch() {
        return startOffsets.isEmpty() ? -1 : startOffsets.lastKey();
    }

    /** The epoch of the leader that wrote {@code offset}, or -1 if unknown. */
    public synchronized int epochForOffset(long offset) {
        int epoch = -1;
        for (Map.Entry<Integer, Long> entry : startOffsets.entrySet()) {
            if (entry.getValue() <= offset) {
                epoch = entry.getKey();
            }
        }
        return epoch;
    }

    /**
     * The end offset of {@code epoch} for OffsetsForLeaderEpoch: the start of the next larger epoch, or
     * {@code logEndOffset} if it is the latest; -1 if the epoch is before every known one.
     */
    public synchronized long endOffsetFor(int epoch, long logEndOffset) {
        Map.Entry<Integer, Long> higher = startOffsets.higherEntry(epoch);
        if (startOffsets.floorKey(epoch) == null) {
            return -1;
        }
        return higher == null ? logEndOffset : higher.getValue();
    }

    /** Drops epochs starting at or after {@code endOffset} (the log was truncated there). */
    public synchronized void truncateFromEnd(long endOffset) throws IOException {
        if (startOffsets.values().removeIf(offset -> offset >= endOffset)) {
            persist();
        }
    }

    /** The log now starts at {@code startOffset}: the epoch covering it starts there, older ones go. */
    public synchronized void truncateFromStart(long startOffset) throws IOException {
        Map.Entry<Integer, Long> covering = null;
        for (Map.Entry<Integer, Long> entry : startOffsets.entrySet()) {
            if (entry.getValue() <= startOffset) {
                covering = entry;
            }
        }
        if (covering == null || covering.getValue() == startOffset && covering.getKey().equals(startOffsets.firstKey())) {
            return;
        }
        int epoch = covering.getKey();
        startOffsets.headMap(epoch, true).clear();
        startOffsets.put(epoch, startOffset);
        persist();
    }

    /** The offset {@code epoch} starts at in this log, or -1 if it has no entry (no batch of it, or truncated). */
    public synchronized long startOffsetOf(int epoch) {
        Long start = startOffsets.get(epoch);
        return start == null ? -1 : start;
    }

    public synchronized Map<Integer, Long> entries() {
        return new TreeMap<>(startOffsets);
    }

    private void persist() throws IOException {
        List<String> lines = new ArrayList<>();
        startOffsets.forEach((epoch, offset) -> lines.add(epoch + " " + offset));
        file.write(lines);
    }
}

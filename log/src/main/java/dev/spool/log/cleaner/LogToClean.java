package dev.spool.log.cleaner;

import dev.spool.log.LogConfig;
import dev.spool.log.PartitionLog;
import dev.spool.log.TopicPartition;
import dev.spool.log.segment.LogSegment;

import java.io.IOException;
import java.util.List;

/**
 * Immutable: a compacted log as the cleaner sees it when choosing what to clean. Offsets below
 * {@code firstDirtyOffset} were cleaned before (the clean section); {@code [firstDirtyOffset,
 * firstUncleanableOffset)} is the dirty section a cleaning deduplicates. The uncleanable tail starts at
 * the active segment, at the first segment reaching past the last stable offset (a transaction still open or not yet
 * replicated may yet abort: none of its records may displace a committed one), or at the first segment holding a
 * record younger than {@code min.compaction.lag.ms}, whichever comes first. Choosing reads the log's producer state,
 * loading it if needed (on the cleaner's thread).
 */
public record LogToClean(TopicPartition partition, PartitionLog log, long firstDirtyOffset,
                         long firstUncleanableOffset, long cleanBytes, long dirtyBytes, boolean overdue,
                         boolean tombstonesExpired) {

    /**
     * The sections of {@code log} given the checkpointed first dirty offset ({@code -1} if none; reset to
     * the log start when it lies outside the log, e.g. after truncation or DeleteRecords).
     */
    public static LogToClean of(TopicPartition partition, PartitionLog log, long checkpointedDirtyOffset, long nowMs)
            throws IOException {
        return of(partition, log, checkpointedDirtyOffset, Long.MAX_VALUE, nowMs);
    }

    /**
     * As {@link #of(TopicPartition, PartitionLog, long, long)}, knowing the earliest delete horizon of
     * the tombstones the last cleaning kept: once it has passed, the log is worth cleaning again.
     */
    public static LogToClean of(TopicPartition partition, PartitionLog log, long checkpointedDirtyOffset,
                                long earliestTombstoneHorizonMs, long nowMs) throws IOException {
        LogConfig config = log.config();
        List<LogSegment> segments = log.segments();
        long logStart = log.logStartOffset();
        long firstDirty = checkpointedDirtyOffset < logStart || checkpointedDirtyOffset > log.logEndOffset()
                ? logStart : checkpointedDirtyOffset;
        log.loadProducerState();
        long lastStable = log.lastStableOffset();
        long firstUncleanable = segments.get(segments.size() - 1).baseOffset();
        long cleanBytes = 0;
        long dirtyBytes = 0;
        boolean overdue = false;
        for (int i = 0; i < segments.size() - 1; i++) {
            LogSegment segment = segments.get(i);
            long end = segments.get(i + 1).baseOffset();
            if (end <= firstDirty) {
                cleanBytes += segment.sizeInBytes();
                continue;
            }
            boolean tooYoung = config.minCompactionLagMs > 0
                    && segment.maxTimestampSoFar() > nowMs - config.minCompactionLagMs;
            if (end > lastStable || tooYoung) {
                firstUncleanable = segment.baseOffset();
                break;
            }
            if (dirtyBytes == 0 && config.maxCompactionLagMs != Long.MAX_VALUE && segment.firstBatchTimestamp() >= 0
                    && segment.firstBatchTimestamp() < nowMs - config.maxCompactionLagMs) {
                overdue = true;
            }
            dirtyBytes += segment.sizeInBytes();
        }
        firstUncleanable = Math.max(firstUncleanable, firstDirty);
        return new LogToClean(partition, log, firstDirty, firstUncleanable, cleanBytes, dirtyBytes, overdue,
                nowMs >= earliestTombstoneHorizonMs && cleanBytes > 0);
    }

    /** Dirty bytes over all cleanable bytes (0 when there are none). */
    public double dirtyRatio() {
        long total = cleanBytes + dirtyBytes;
        return total == 0 ? 0 : (double) dirtyBytes / total;
    }

    /**
     * Whether the log should be cleaned now: dirty beyond min.cleanable.dirty.ratio, past
     * max.compaction.lag.ms, or holding tombstones whose delete horizon has passed.
     */
    public boolean isCleanable() {
        boolean dirty = firstUncleanableOffset > firstDirtyOffset && dirtyBytes > 0
                && (overdue || dirtyRatio() > log.config().minCleanableDirtyRatio);
        return dirty || tombstonesExpired;
    }
}

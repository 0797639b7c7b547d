package dev.spool.log;

import dev.spool.log.segment.LogSegment;

import java.io.IOException;
import java.util.List;

/**
 * Stateless (each predicate it makes is for one retention pass on one thread): Kafka's rules for how
 * many of a log's oldest segments a retention pass may delete.
 */
final class RetentionPolicy {

    /** Whether a segment (with its successor, null for the active segment) breaches the rule. */
    @FunctionalInterface
    interface SegmentPredicate {
        boolean test(LogSegment segment, LogSegment next) throws IOException;
    }

    private RetentionPolicy() {
    }

    /** retention.ms: the segment's largest timestamp (or mtime, if it has none) is older than this. */
    static SegmentPredicate olderThan(long nowMs, long retentionMs) {
        return (segment, next) -> nowMs - segment.largestTimestampForRetention() > retentionMs;
    }

    /** retention.bytes: oldest segments go while what remains still holds at least retentionBytes. */
    static SegmentPredicate beyondSize(long totalBytes, long retentionBytes) {
        long[] excessBytes = {totalBytes - retentionBytes};
        return (segment, next) -> {
            if (excessBytes[0] - segment.sizeInBytes() < 0) {
                return false;
            }
            excessBytes[0] -= segment.sizeInBytes();
            return true;
        };
    }

    /** DeleteRecords: every offset of the segment is below the log start offset. */
    static SegmentPredicate belowLogStart(long logStartOffset) {
        return (segment, next) -> next != null && next.baseOffset() <= logStartOffset;
    }

    /**
     * How many segments, oldest first, may go: stops at the first that does not breach the rule, at the
     * first not wholly below the high watermark, and at an empty active segment.
     */
    static int deletableCount(List<LogSegment> segments, long logEndOffset, long highWatermark,
                              SegmentPredicate predicate) throws IOException {
        int count = 0;
        for (int i = 0; i < segments.size(); i++) {
            LogSegment segment = segments.get(i);
            LogSegment next = i + 1 < segments.size() ? segments.get(i + 1) : null;
            long upperBound = next == null ? logEndOffset : next.baseOffset();
            boolean emptyActive = next == null && segment.sizeInBytes() == 0;
            if (emptyActive || upperBound > highWatermark || !predicate.test(segment, next)) {
                break;
            }
            count++;
        }
        return count;
    }
}

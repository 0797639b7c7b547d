package dev.spool.log.cleaner;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Thread-safe: running totals of the log cleaner and figures of its last cleaning, for the metrics
 * issue to publish (Kafka's kafka.log:type=LogCleaner figures: max-clean-time-secs,
 * cleaner-recopy-percent, max-buffer-utilization-percent, plus bytes and records).
 */
public final class CleanerStats {
    private final AtomicLong cleanings = new AtomicLong();
    private final AtomicLong passes = new AtomicLong();
    private final AtomicLong bytesRead = new AtomicLong();
    private final AtomicLong bytesWritten = new AtomicLong();
    private final AtomicLong recordsRead = new AtomicLong();
    private final AtomicLong recordsRetained = new AtomicLong();
    private final AtomicLong abortedCleanings = new AtomicLong();
    private final AtomicLong failedCleanings = new AtomicLong();
    private volatile long lastCleanTimeMs;
    private volatile long maxCleanTimeMs;
    private volatile double lastDirtyRatio;
    private volatile double maxDirtyRatio;
    private volatile double lastBufferUtilization;

    /** Records one finished cleaning of one log. */
    void onCleaned(CleaningResult result) {
        cleanings.incrementAndGet();
        passes.addAndGet(result.passes());
        bytesRead.addAndGet(result.bytesRead());
        bytesWritten.addAndGet(result.bytesWritten());
        recordsRead.addAndGet(result.recordsRead());
        recordsRetained.addAndGet(result.recordsRetained());
        lastCleanTimeMs = result.elapsedMs();
        lastDirtyRatio = result.dirtyRatio();
        lastBufferUtilization = result.bufferUtilization();
        synchronized (this) {
            maxCleanTimeMs = Math.max(maxCleanTimeMs, result.elapsedMs());
            maxDirtyRatio = Math.max(maxDirtyRatio, result.dirtyRatio());
        }
    }

    void onAborted() {
        abortedCleanings.incrementAndGet();
    }

    void onFailed() {
        failedCleanings.incrementAndGet();
    }

    /** Logs cleaned since start (a log cleaned in several passes counts once per pick). */
    public long cleanings() {
        return cleanings.get();
    }

    /** Offset-map passes over dirty sections (more than cleanings when a dirty section did not fit). */
    public long passes() {
        return passes.get();
    }

    /** Bytes of segments read and rewritten. */
    public long bytesRead() {
        return bytesRead.get();
    }

    /** Bytes of compacted segments written. */
    public long bytesWritten() {
        return bytesWritten.get();
    }

    public long recordsRead() {
        return recordsRead.get();
    }

    public long recordsRetained() {
        return recordsRetained.get();
    }

    /** Cleanings given up because the log changed under them (retention, truncation, deletion, shutdown). */
    public long abortedCleanings() {
        return abortedCleanings.get();
    }

    /** Cleanings that failed with an error (logged); the log is retried after the backoff. */
    public long failedCleanings() {
        return failedCleanings.get();
    }

    /** Written / read bytes over all cleanings (Kafka's cleaner-recopy-percent / 100); 1.0 before any. */
    public double recopyRatio() {
        long read = bytesRead.get();
        return read == 0 ? 1.0 : (double) bytesWritten.get() / read;
    }

    public long lastCleanTimeMs() {
        return lastCleanTimeMs;
    }

    public long maxCleanTimeMs() {
        return maxCleanTimeMs;
    }

    /** Dirty ratio of the log when it was picked last. */
    public double lastDirtyRatio() {
        return lastDirtyRatio;
    }

    public double maxDirtyRatio() {
        return maxDirtyRatio;
    }

    /** Fraction of the offset map's capacity the last pass used. */
    public double lastBufferUtilization() {
        return lastBufferUtilization;
    }

    @Override
    public String toString() {
        return "CleanerStats(cleanings=" + cleanings() + ", passes=" + passes() + ", bytesRead=" + bytesRead()
                + ", bytesWritten=" + bytesWritten() + ", recopyRatio=" + recopyRatio() + ", maxCleanTimeMs="
                + maxCleanTimeMs + ", aborted=" + abortedCleanings() + ", failed=" + failedCleanings() + ")";
    }
}

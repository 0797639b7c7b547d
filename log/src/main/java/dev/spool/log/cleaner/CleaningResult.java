package dev.spool.log.cleaner;

/**
 * Immutable: what one cleaning of one log did; {@code nextDirtyOffset} is where the next cleaning's
 * dirty section starts (written to cleaner-offset-checkpoint).
 */
public record CleaningResult(long nextDirtyOffset, int passes, long bytesRead, long bytesWritten, long recordsRead,
                             long recordsRetained, long elapsedMs, double dirtyRatio, double bufferUtilization) {
}

package dev.spool.log.cleaner;

/**
 * Immutable: what one cleaning of one log did; {@code nextDirtyOffset} is where the next cleaning's
 * dirty section starts (written to cleaner-offset-checkpoint); {@code earliestTombstoneHorizonMs} is the
 * earliest delete horizon of the tombstones it kept (Long.MAX_VALUE if none): from then on a cleaning
 * can drop them even if nothing new was written.
 */
public record CleaningResult(long nextDirtyOffset, int passes, long bytesRead, long bytesWritten, long recordsRead,
                             long recordsRetained, long elapsedMs, double dirtyRatio, double bufferUtilization,
                             long earliestTombstoneHorizonMs) {
}

package dev.spool.log;

/**
 * Immutable: what the log directory's checkpoints and marker say about a partition when it is opened.
 *
 * @param recoveryPoint     offset below which everything was fsynced (recovery-point-offset-checkpoint)
 * @param logStartOffset    the log start offset (log-start-offset-checkpoint); raised to the first segment
 * @param hadCleanShutdown  whether the directory's {@code .kafka_cleanshutdown} marker was present
 */
public record LogLoadOptions(long recoveryPoint, long logStartOffset, boolean hadCleanShutdown) {
    /** Nothing known: every segment is scanned and validated. */
    public static final LogLoadOptions UNKNOWN = new LogLoadOptions(0, 0, false);
}

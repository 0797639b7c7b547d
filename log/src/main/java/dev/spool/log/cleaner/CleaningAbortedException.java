package dev.spool.log.cleaner;

/**
 * Immutable: a cleaning was given up because the log changed under it (segments deleted or truncated,
 * the log closed or deleted) or the cleaner is stopping. Nothing was swapped in for the group at hand;
 * its {@code .cleaned} files are removed.
 */
final class CleaningAbortedException extends RuntimeException {
    CleaningAbortedException(String message) {
        super(message, null, false, false);
    }
}

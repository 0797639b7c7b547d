package dev.spool.log.cleaner;

/**
 * Immutable: the broker settings of the log cleaner, Kafka's names and defaults:
 * {@code log.cleaner.enable} (true), {@code log.cleaner.threads} (1),
 * {@code log.cleaner.dedupe.buffer.size} (134217728 bytes, shared by all threads) and
 * {@code log.cleaner.backoff.ms} (15000: the pause when no log needs cleaning).
 */
public record CleanerConfig(boolean enabled, int threads, long dedupeBufferSizeBytes, long backoffMs) {
    public static final CleanerConfig DEFAULTS = new CleanerConfig(true, 1, 128L * 1024 * 1024, 15_000);
    public static final CleanerConfig DISABLED = new CleanerConfig(false, 1, 128L * 1024 * 1024, 15_000);

    public CleanerConfig {
        if (threads < 1) {
            throw new IllegalArgumentException("log.cleaner.threads must be at least 1, not " + threads);
        }
        if (dedupeBufferSizeBytes / threads < OffsetMap.BYTES_PER_SLOT * 2L) {
            throw new IllegalArgumentException("log.cleaner.dedupe.buffer.size " + dedupeBufferSizeBytes
                    + " is too small for " + threads + " threads");
        }
        if (backoffMs < 0) {
            throw new IllegalArgumentException("log.cleaner.backoff.ms must not be negative: " + backoffMs);
        }
    }

    /** The offset map memory of one thread. */
    public long dedupeBytesPerThread() {
        return dedupeBufferSizeBytes / threads;
    }
}

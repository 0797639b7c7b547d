package dev.spool.log;

/**
 * Immutable: the answer to a ListOffsets lookup.
 *
 * @param timestampMs  the record's timestamp, or -1 for earliest/latest
 * @param offset       the offset, or -1 when no record matches
 * @param leaderEpoch  the leader epoch that wrote that offset, or -1 if unknown
 */
public record TimestampOffset(long timestampMs, long offset, int leaderEpoch) {
    /** ListOffsets' special timestamps (KIP-79, KIP-734). */
    public static final long LATEST_TIMESTAMP = -1L;
    public static final long EARLIEST_TIMESTAMP = -2L;
    public static final long MAX_TIMESTAMP = -3L;
    public static final long EARLIEST_LOCAL_TIMESTAMP = -4L;

    public static final TimestampOffset NOT_FOUND = new TimestampOffset(-1L, -1L, -1);

    public boolean found() {
        return offset >= 0;
    }
}

package dev.spool.broker.group;

/**
 * A committed offset as the coordinator keeps it: the position, the leader epoch of the last consumed
 * record (-1 unknown), the client's metadata string, when it was committed and, for OffsetCommit
 * v2-4 with a retention time, when it expires (-1 none). Immutable.
 */
record CommittedOffset(long offset, int leaderEpoch, String metadata, long commitTimestampMs,
                       long expireTimestampMs) {

    static final long NO_EXPIRY = -1L;
}

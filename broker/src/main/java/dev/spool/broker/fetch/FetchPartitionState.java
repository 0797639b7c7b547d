package dev.spool.broker.fetch;

import dev.spool.protocol.Errors;

/**
 * Not thread-safe: owned by one request, or by its session under the session's lock. What a fetcher asked of
 * one partition (fetch offset, max bytes, the leader epoch it knows) and, in a fetch session, what the last
 * response told it (high watermark, last stable offset, log start offset), so that an incremental response
 * leaves out the partitions where nothing changed (KIP-227).
 */
final class FetchPartitionState {

    /** Sent values before the first response: never equal to a real offset, so the partition is sent. */
    private static final long NOT_SENT = Long.MIN_VALUE;

    private final FetchPartitionKey key;
    private long fetchOffset;
    private int partitionMaxBytes;
    private int currentLeaderEpoch;
    /** A follower's: the epoch of the last batch it has, which the leader checks its log against (-1: none). */
    private final int lastFetchedEpoch;
    /** A follower's: where its log starts (-1 for a consumer). */
    private final long logStartOffset;
    private long sentHighWatermark = NOT_SENT;
    private long sentLastStableOffset = NOT_SENT;
    private long sentLogStartOffset = NOT_SENT;

    FetchPartitionState(FetchPartitionKey key, long fetchOffset, int partitionMaxBytes, int currentLeaderEpoch) {
        this(key, fetchOffset, partitionMaxBytes, currentLeaderEpoch, -1, -1);
    }

    FetchPartitionState(FetchPartitionKey key, long fetchOffset, int partitionMaxBytes, int currentLeaderEpoch,
                        int lastFetchedEpoch, long logStartOffset) {
        this.lastFetchedEpoch = lastFetchedEpoch;
        this.logStartOffset = logStartOffset;
        this.key = key;
        this.fetchOffset = fetchOffset;
        this.partitionMaxBytes = partitionMaxBytes;
        this.currentLeaderEpoch = currentLeaderEpoch;
    }

    FetchPartitionKey key() {
        return key;
    }

    long fetchOffset() {
        return fetchOffset;
    }

    int partitionMaxBytes() {
        return partitionMaxBytes;
    }

    int currentLeaderEpoch() {
        return currentLeaderEpoch;
    }

    int lastFetchedEpoch() {
        return lastFetchedEpoch;
    }

    long logStartOffset() {
        return logStartOffset;
    }

    /** A request of the session names this partition again, with what may have changed. */
    void update(long newFetchOffset, int newPartitionMaxBytes, int newCurrentLeaderEpoch) {
        this.fetchOffset = newFetchOffset;
        this.partitionMaxBytes = newPartitionMaxBytes;
        this.currentLeaderEpoch = newCurrentLeaderEpoch;
    }

    /**
     * Records what a response tells the fetcher of this partition; returns whether an incremental
     * response must include it: it has records or an error, or one of its offsets moved.
     */
    boolean recordSent(Errors error, int recordBytes, long highWatermark, long lastStableOffset, long logStartOffset) {
        boolean changed = error != Errors.NONE || recordBytes > 0 || highWatermark != sentHighWatermark
                || lastStableOffset != sentLastStableOffset || logStartOffset != sentLogStartOffset;
        sentHighWatermark = highWatermark;
        sentLastStableOffset = lastStableOffset;
        sentLogStartOffset = logStartOffset;
        return changed;
    }

    @Override
    public String toString() {
        return key + "@" + fetchOffset;
    }
}

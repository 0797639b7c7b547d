package dev.spool.broker.fetch;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Thread-safe: every method holds the session's lock, and callers that combine calls hold it too
 * ({@code synchronized (session)}). One incremental fetch session (KIP-227): the partitions a fetcher reads,
 * in the order they are served, and the epoch its next request must carry. Partitions that returned records
 * move to the back so that a response cut by {@code max.bytes} serves the others next time.
 */
final class FetchSession {

    /** The epoch of a request that opens a session (full request, session id 0). */
    static final int INITIAL_EPOCH = 0;
    /** The epoch of a request that closes its session, or fetches without one. */
    static final int FINAL_EPOCH = -1;

    private final int id;
    private final boolean usesTopicIds;
    private final Map<FetchPartitionKey, FetchPartitionState> partitions = new LinkedHashMap<>();
    private int nextEpoch = 1;
    private long lastUsedMs;

    FetchSession(int id, boolean usesTopicIds, List<FetchPartitionState> initial, long nowMs) {
        this.id = id;
        this.usesTopicIds = usesTopicIds;
        for (FetchPartitionState state : initial) {
            partitions.put(state.key(), state);
        }
        this.lastUsedMs = nowMs;
    }

    int id() {
        return id;
    }

    boolean usesTopicIds() {
        return usesTopicIds;
    }

    synchronized int nextEpoch() {
        return nextEpoch;
    }

    synchronized long lastUsedMs() {
        return lastUsedMs;
    }

    synchronized int size() {
        return partitions.size();
    }

    /** A request with the expected epoch arrived: the next one must carry the following epoch. */
    synchronized void advanceEpoch(long nowMs) {
        // Epochs wrap from Integer.MAX_VALUE to 1: 0 and -1 mean opening and closing a session.
        nextEpoch = nextEpoch == Integer.MAX_VALUE ? 1 : nextEpoch + 1;
        lastUsedMs = nowMs;
    }

    /** Adds a partition, or updates what is asked of one already in the session. */
    synchronized void upsert(FetchPartitionKey key, long fetchOffset, int partitionMaxBytes, int currentLeaderEpoch) {
        FetchPartitionState state = partitions.get(key);
        if (state == null) {
            partitions.put(key, new FetchPartitionState(key, fetchOffset, partitionMaxBytes, currentLeaderEpoch));
        } else {
            state.update(fetchOffset, partitionMaxBytes, currentLeaderEpoch);
        }
    }

    synchronized void forget(FetchPartitionKey key) {
        partitions.remove(key);
    }

    /** The partitions in serving order (a copy). */
    synchronized List<FetchPartitionState> partitions() {
        return new ArrayList<>(partitions.values());
    }

    /** Moves a partition that returned records behind the others. */
    synchronized void moveToBack(FetchPartitionKey key) {
        FetchPartitionState state = partitions.remove(key);
        if (state != null) {
            partitions.put(key, state);
        }
    }

    @Override
    public synchronized String toString() {
        return "FetchSession(" + id + ", epoch " + nextEpoch + ", " + partitions.size() + " partitions)";
    }
}

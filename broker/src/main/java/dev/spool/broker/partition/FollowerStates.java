package dev.spool.broker.partition;

import java.util.HashMap;
import java.util.Map;

/**
 * Thread-safe (its own lock): what a partition's leader knows of each follower from its fetches, as Kafka's
 * leader keeps it: the follower's log end offset (the offset it fetches from) and log start offset, when it last fetched, and when it
 * was last caught up, which is when it fetched from the leader's log end, or from where the log ended at its
 * previous fetch (it read everything there was then). The ISR shrinks by the last of these, and the high watermark
 * is the lowest log end offset in the ISR.
 *
 * <p>Each state belongs to the broker epoch the follower fetched with (KIP-903): a follower that restarted, perhaps
 * having lost the tail of its log in a power cut, starts from nothing, and until it fetches again the leader still
 * holds the old process's state, which the broker epoch tells apart from the new one's.
 */
public final class FollowerStates {

    /** One follower; immutable, replaced at each fetch. */
    public record FollowerState(long brokerEpoch, long logEndOffset, long logStartOffset, long lastFetchMs,
                                long lastCaughtUpMs, long leaderLogEndAtFetch) {
        static final FollowerState UNKNOWN = new FollowerState(-1, -1, -1, -1, -1, -1);
    }

    private final Map<Integer, FollowerState> followers = new HashMap<>();

    /**
     * Follower {@code replicaId}, in broker epoch {@code brokerEpoch} (-1 when its fetch version does not say), its
     * log starting at {@code logStartOffset}, fetched from {@code fetchOffset} at {@code nowMs}, the leader's log
     * ending at {@code leaderLogEnd}; whether its log start moved.
     */
    synchronized boolean onFetch(int replicaId, long brokerEpoch, long fetchOffset, long logStartOffset,
                                 long leaderLogEnd, long nowMs) {
        FollowerState previous = followers.getOrDefault(replicaId, FollowerState.UNKNOWN);
        if (previous.brokerEpoch() != brokerEpoch) {
            previous = FollowerState.UNKNOWN; // another process: what the last one fetched says nothing of its log
        }
        long caughtUp = fetchOffset >= leaderLogEnd ? nowMs
                : fetchOffset >= previous.leaderLogEndAtFetch() && previous.lastFetchMs() >= 0 ? previous.lastFetchMs()
                : previous.lastCaughtUpMs();
        followers.put(replicaId, new FollowerState(brokerEpoch, fetchOffset, logStartOffset, nowMs, caughtUp,
                leaderLogEnd));
        return logStartOffset != previous.logStartOffset();
    }

    synchronized FollowerState of(int replicaId) {
        return followers.getOrDefault(replicaId, FollowerState.UNKNOWN);
    }

    /**
     * Forgets what followers did under an earlier leadership: a new leader (or this one again, in a new epoch)
     * learns each follower's log end anew.
     */
    synchronized void reset() {
        followers.clear();
    }
}

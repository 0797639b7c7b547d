package dev.spool.broker.fetch;

import dev.spool.protocol.Errors;

/**
 * Thread-safe (stateless). The current-leader-epoch check of KIP-320 that Fetch (v9+), ListOffsets (v4+) and
 * OffsetForLeaderEpoch make before serving a partition: a client that knows an older epoch is fenced, one
 * that knows a newer epoch than this broker is ahead of it.
 */
final class LeaderEpochCheck {

    /** The epoch a client sends when it does not know one: no check. */
    static final int NO_EPOCH = -1;

    private LeaderEpochCheck() {
    }

    static Errors check(int requestedEpoch, int currentEpoch) {
        if (requestedEpoch == NO_EPOCH || requestedEpoch == currentEpoch) {
            return Errors.NONE;
        }
        return requestedEpoch < currentEpoch ? Errors.FENCED_LEADER_EPOCH : Errors.UNKNOWN_LEADER_EPOCH;
    }
}

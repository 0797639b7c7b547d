package dev.spool.log.producer;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Thread-safe: a network thread starts a verification without the log's lock, the log checks and forgets guards
 * under it. Per producer, the {@link VerificationGuard} of the question a leader is asking its transaction coordinator
 * about one partition, until the producer's transaction state in that partition changes.
 */
public final class TransactionVerifications {

    private final ConcurrentHashMap<Long, VerificationGuard> guards = new ConcurrentHashMap<>();

    /**
     * The guard for a batch of {@code producerId} about to be verified: the one already out, if any, so that
     * requests in flight together for the same transaction may each open it.
     */
    public VerificationGuard start(long producerId) {
        return guards.computeIfAbsent(producerId, id -> VerificationGuard.create());
    }

    /** Whether {@code guard} is the one out for {@code producerId} (never for the sentinels). */
    public boolean holds(long producerId, VerificationGuard guard) {
        return guards.get(producerId) == guard;
    }

    /**
     * The producer's transaction state in the partition changed: a verification under way no longer proves anything.
     */
    public void forget(long producerId) {
        guards.remove(producerId);
    }

    /** The log was truncated or emptied: no verification under way proves anything. */
    public void clear() {
        guards.clear();
    }
}

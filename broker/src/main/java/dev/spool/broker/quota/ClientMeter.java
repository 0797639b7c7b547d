package dev.spool.broker.quota;

/**
 * One client's quota of one kind, resolved once (its bound and the entity its usage is measured for) and used for
 * the checks of one request. Thread-safe: the usage it records is its manager's.
 */
public final class ClientMeter {

    private final ClientQuotaManager manager;
    private final ClientQuotaManager.Quota quota;

    ClientMeter(ClientQuotaManager manager, ClientQuotaManager.Quota quota) {
        this.manager = manager;
        this.quota = quota;
    }

    /**
     * Counts {@code value} against the quota and answers how long the client must wait (0: within its quota): the
     * time its quota takes to repay what it used beyond its credit, at most the whole window at once.
     */
    public long recordAndThrottleMs(double value, long nowMs) {
        return manager.recordAndThrottleMs(quota, value, nowMs);
    }

    /**
     * Whether the client is over its quota now (KIP-599's strict check before a partition mutation: one is refused
     * only once earlier ones have used up the credit).
     */
    public boolean exceeded(long nowMs) {
        return manager.exceeded(quota, nowMs);
    }

    /** Takes back usage counted for what was not delivered after all (a fetch answered empty). */
    public void unrecord(double value) {
        manager.unrecord(quota, value);
    }

    /**
     * The most the client may be given at once without going over its quota for the whole window: Kafka caps a
     * consumer's fetch by it, so that a response is never too big to ever be let through.
     */
    public double maxValueInWindow() {
        return quota.bound() * manager.burstSeconds();
    }
}

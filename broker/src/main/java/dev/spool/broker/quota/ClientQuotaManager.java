package dev.spool.broker.quota;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * One kind of client quota (a byte rate, the request time share) enforced for users and client ids. A client's
 * quota is the first of Kafka's eight entities that sets it: its user with its client id, its user with the
 * default client id, its user, the default user with its client id, the default user with the default client id,
 * the default user, its client id, the default client id. Usage is measured per the entity that matched, named
 * with the client's own names: a quota on a user is shared by all its client ids, a default quota applies to each
 * user (or client id) on its own. A client over its quota is told how long to wait for its usage to come back within
 * the quota ({@link ClientMeter#recordAndThrottleMs}, {@link TokenBucket}). The usage of clients idle for an hour is dropped.
 * Thread-safe.
 */
public final class ClientQuotaManager {

    private static final long IDLE_MS = 3_600_000;
    private static final int MAX_CACHED_CLIENTS = 10_000;

    /** A client's quota: its bound and the entity its usage is measured for. */
    record Quota(double bound, QuotaEntity meteredAs) {
    }

    private static final Quota NONE = new Quota(Double.MAX_VALUE, null);

    private final QuotaType type;
    private final Supplier<Map<QuotaEntity, Map<String, Double>>> quotas;
    private final int samples;
    private final long sampleMs;
    private final ConcurrentHashMap<QuotaEntity, TokenBucket> buckets = new ConcurrentHashMap<>();
    private final long maxThrottleMs;
    /** The quotas resolved by user and client id from one map of quotas: replaced whole when the quotas change. */
    private record Resolved(Map<QuotaEntity, Map<String, Double>> quotas,
                            ConcurrentHashMap<List<String>, Quota> byClient) {
    }

    private final AtomicReference<Resolved> resolved = new AtomicReference<>(
            new Resolved(Map.of(), new ConcurrentHashMap<>()));
    private volatile long lastSweepMs;

    /** {@code maxThrottleMs}: the longest a client is told to wait at once. */
    public ClientQuotaManager(QuotaType type, Supplier<Map<QuotaEntity, Map<String, Double>>> quotas, int samples,
                              long sampleMs, long maxThrottleMs) {
        this.maxThrottleMs = maxThrottleMs;
        this.type = type;
        this.quotas = quotas;
        this.samples = samples;
        this.sampleMs = sampleMs;
    }

    /**
     * The client's quota of this kind, resolved once for a request's checks, or null when none applies: nothing is
     * measured then.
     */
    public ClientMeter meter(String user, String clientId) {
        Quota quota = quotaOf(user, clientId);
        return quota == NONE ? null : new ClientMeter(this, quota);
    }

    /** See {@link ClientMeter#recordAndThrottleMs}. */
    long recordAndThrottleMs(Quota quota, double value, long nowMs) {
        TokenBucket bucket = buckets.computeIfAbsent(quota.meteredAs(),
                entity -> new TokenBucket(burstSeconds(), nowMs));
        sweepIdleBuckets(nowMs);
        return Math.min(bucket.spend(value, quota.bound(), nowMs), maxThrottleMs);
    }

    /** See {@link ClientMeter#exceeded}. */
    boolean exceeded(Quota quota, long nowMs) {
        TokenBucket bucket = buckets.get(quota.meteredAs());
        return bucket != null && bucket.inDebt(quota.bound(), nowMs);
    }

    /** See {@link ClientMeter#unrecord}. */
    void unrecord(Quota quota, double value) {
        TokenBucket bucket = buckets.get(quota.meteredAs());
        if (bucket != null) {
            bucket.refund(value);
        }
    }

    /** The credit a client starts with and may save up to, in seconds of its quota. */
    double burstSeconds() {
        return TokenBucket.burstSeconds(samples, sampleMs);
    }

    /** A client without a client id (null) is the client id "", as in Kafka. */
    private Quota quotaOf(String user, String clientIdOrNull) {
        Map<QuotaEntity, Map<String, Double>> current = quotas.get();
        if (current.isEmpty()) {
            return NONE;
        }
        String clientId = clientIdOrNull == null ? "" : clientIdOrNull;
        Resolved cache = resolved.get();
        if (cache.quotas() != current || cache.byClient().size() > MAX_CACHED_CLIENTS) {
            // Only ever a cache of the current quotas: one resolved from older ones is never kept.
            Resolved fresh = new Resolved(current, new ConcurrentHashMap<>());
            cache = resolved.compareAndSet(cache, fresh) ? fresh : resolved.get();
            if (cache.quotas() != current) {
                return resolve(current, user, clientId);
            }
        }
        return cache.byClient().computeIfAbsent(List.of(user, clientId), key -> resolve(current, user, clientId));
    }

    private Quota resolve(Map<QuotaEntity, Map<String, Double>> current, String user, String clientId) {
        Map<String, String> names = Map.of(QuotaEntity.USER, user, QuotaEntity.CLIENT_ID, clientId);
        for (QuotaEntity candidate : List.of(QuotaEntity.userAndClient(user, clientId),
                QuotaEntity.userAndClient(user, null), QuotaEntity.of(QuotaEntity.USER, user),
                QuotaEntity.userAndClient(null, clientId), QuotaEntity.userAndClient(null, null),
                QuotaEntity.of(QuotaEntity.USER, null), QuotaEntity.of(QuotaEntity.CLIENT_ID, clientId),
                QuotaEntity.of(QuotaEntity.CLIENT_ID, null))) {
            Double bound = current.getOrDefault(candidate, Map.of()).get(type.key);
            if (bound != null) {
                return new Quota(bound, candidate.namedAs(names));
            }
        }
        return NONE;
    }

    private void sweepIdleBuckets(long nowMs) {
        if (nowMs - lastSweepMs < sampleMs * samples) {
            return;
        }
        lastSweepMs = nowMs;
        buckets.values().removeIf(bucket -> nowMs - bucket.lastMs() > IDLE_MS);
    }
}

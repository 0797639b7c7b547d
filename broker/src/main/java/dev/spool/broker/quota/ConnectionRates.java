package dev.spool.broker.quota;

import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * How fast new connections may come, as Kafka limits it: {@code max.connection.creation.rate} over the whole broker
 * (a connection beyond it waits before it is served, as Kafka's acceptor waits before accepting it) and the
 * {@code connection_creation_rate} quota of the client's IP address, or of the default IP (a connection beyond it
 * is closed after the time the quota takes to allow it, as Kafka closes it). Both are per second, with the burst of
 * a quota window. Thread-safe.
 */
public final class ConnectionRates {

    private static final int MAX_TRACKED_ADDRESSES = 100_000;

    private final double brokerPerSecond;
    private final double burstSeconds;
    private final Supplier<Map<QuotaEntity, Map<String, Double>>> quotas;
    private final TokenBucket broker;
    private final ConcurrentHashMap<InetAddress, TokenBucket> byAddress = new ConcurrentHashMap<>();

    public ConnectionRates(double brokerPerSecond, int samples, long sampleMs,
                           Supplier<Map<QuotaEntity, Map<String, Double>>> quotas, long nowMs) {
        this.brokerPerSecond = brokerPerSecond;
        this.burstSeconds = Math.max(1, (samples - 1) * sampleMs / 1000.0);
        this.quotas = quotas;
        this.broker = new TokenBucket(burstSeconds, nowMs);
    }

    /** How long a new connection waits before it is served for the broker's rate (0: at once). */
    public long brokerDelayMs(long nowMs) {
        return brokerPerSecond >= Integer.MAX_VALUE ? 0 : broker.spend(1, brokerPerSecond, nowMs);
    }

    /**
     * 0 when a new connection from {@code address} is within its IP's quota (and counted), else how long until it
     * would be: the connection is then closed after that long and not counted.
     */
    public long addressThrottleMs(InetAddress address, long nowMs) {
        Map<QuotaEntity, Map<String, Double>> current = quotas.get();
        if (current.isEmpty()) {
            return 0;
        }
        Double perSecond = current.getOrDefault(QuotaEntity.of(QuotaEntity.IP, address.getHostAddress()), Map.of())
                .get(QuotaType.CONNECTION_CREATION_RATE.key);
        if (perSecond == null) {
            perSecond = current.getOrDefault(QuotaEntity.of(QuotaEntity.IP, null), Map.of())
                    .get(QuotaType.CONNECTION_CREATION_RATE.key);
        }
        if (perSecond == null) {
            return 0;
        }
        if (byAddress.size() > MAX_TRACKED_ADDRESSES) {
            byAddress.values().removeIf(bucket -> nowMs - bucket.lastMs() > burstSeconds * 1000);
        }
        TokenBucket bucket = byAddress.computeIfAbsent(address, key -> new TokenBucket(burstSeconds, nowMs));
        long throttleMs = bucket.spend(1, perSecond, nowMs);
        if (throttleMs > 0) {
            bucket.refund(1);
        }
        return throttleMs;
    }
}

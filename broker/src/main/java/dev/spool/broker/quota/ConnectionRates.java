package dev.spool.broker.quota;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * How fast new connections may come, as Kafka limits them: {@code max.connection.creation.rate} over the whole
 * broker (a connection beyond it waits before it is served, as Kafka's acceptor waits before accepting it) and the
 * {@code connection_creation_rate} quota of the client's IP address, or of the default IP (a connection beyond it
 * is closed after the time the quota takes to allow it, as Kafka closes it, and not counted). Both are per second,
 * with the credit of a quota window; as in Kafka, no connection waits longer than one sample. Thread-safe.
 */
public final class ConnectionRates {

    private static final int MAX_TRACKED_ADDRESSES = 100_000;

    /** The address quotas of one map of quotas, their entity names resolved to addresses (null: the default). */
    private record AddressQuotas(Map<QuotaEntity, Map<String, Double>> quotas, Map<InetAddress, Double> byAddress,
                                 Double byDefault) {
    }

    private final double brokerPerSecond;
    private final long sampleMs;
    private final double burstSeconds;
    private final Supplier<Map<QuotaEntity, Map<String, Double>>> quotas;
    private final TokenBucket broker;
    private final ConcurrentHashMap<InetAddress, TokenBucket> byAddress = new ConcurrentHashMap<>();
    private volatile AddressQuotas addressQuotas = new AddressQuotas(Map.of(), Map.of(), null);

    public ConnectionRates(double brokerPerSecond, int samples, long sampleMs,
                           Supplier<Map<QuotaEntity, Map<String, Double>>> quotas, long nowMs) {
        this.brokerPerSecond = brokerPerSecond;
        this.sampleMs = sampleMs;
        this.burstSeconds = TokenBucket.burstSeconds(samples, sampleMs);
        this.quotas = quotas;
        this.broker = new TokenBucket(burstSeconds, nowMs);
    }

    /** How long a new connection waits before it is served for the broker's rate (0: at once). */
    public long brokerDelayMs(long nowMs) {
        return brokerPerSecond >= Integer.MAX_VALUE ? 0 : Math.min(broker.spend(1, brokerPerSecond, nowMs), sampleMs);
    }

    /** A connection that waited for the broker's rate closed before it was served: it did not count. */
    public void brokerConnectionGone() {
        broker.refund(1);
    }

    /**
     * 0 when a new connection from {@code address} is within its IP's quota (and counted), else how long until it
     * would be, at most one sample: the connection is then closed after that long and not counted.
     */
    public long addressThrottleMs(InetAddress address, long nowMs) {
        Double perSecond = quotaOf(address);
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
        return Math.min(throttleMs, sampleMs);
    }

    private Double quotaOf(InetAddress address) {
        Map<QuotaEntity, Map<String, Double>> current = quotas.get();
        if (current.isEmpty()) {
            return null;
        }
        AddressQuotas resolved = addressQuotas;
        if (resolved.quotas() != current) {
            resolved = resolve(current);
            addressQuotas = resolved;
        }
        Double perSecond = resolved.byAddress().get(address);
        return perSecond != null ? perSecond : resolved.byDefault();
    }

    /** As Kafka: an IP entity's name is resolved to its address, so a host name or a short IPv6 form matches. */
    private static AddressQuotas resolve(Map<QuotaEntity, Map<String, Double>> current) {
        Map<InetAddress, Double> byAddress = new HashMap<>();
        Double byDefault = null;
        for (Map.Entry<QuotaEntity, Map<String, Double>> entry : current.entrySet()) {
            Map<String, String> parts = entry.getKey().parts();
            Double rate = entry.getValue().get(QuotaType.CONNECTION_CREATION_RATE.key);
            if (rate == null || parts.size() != 1 || !parts.containsKey(QuotaEntity.IP)) {
                continue;
            }
            String name = parts.get(QuotaEntity.IP);
            if (name == null) {
                byDefault = rate;
                continue;
            }
            try {
                byAddress.put(InetAddress.getByName(name), rate);
            } catch (UnknownHostException e) {
                // Checked when it was set; a name that no longer resolves limits no address.
            }
        }
        return new AddressQuotas(current, byAddress, byDefault);
    }
}

package dev.spool.broker.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The active controller's view of the brokers' sessions: when each was last heard from (its registration or
 * heartbeat). A broker silent for longer than {@code broker.session.timeout.ms} is due to be fenced. Kept in
 * memory only, as Kafka keeps it: a controller that becomes active gives every broker a full session from
 * then ({@link #restartAll}), so a broker is never fenced for the silence of a controller election. Thread-safe.
 */
public final class BrokerSessions {

    private final long sessionTimeoutMs;
    private final Map<Integer, Long> lastContactMs = new ConcurrentHashMap<>();

    public BrokerSessions(long sessionTimeoutMs) {
        this.sessionTimeoutMs = sessionTimeoutMs;
    }

    /** Broker {@code brokerId} was heard from at {@code nowMs}. */
    public void touch(int brokerId, long nowMs) {
        lastContactMs.put(brokerId, nowMs);
    }

    /** Starts a full session at {@code nowMs} for each of {@code brokerIds}, and forgets every other broker. */
    public void restartAll(Iterable<Integer> brokerIds, long nowMs) {
        lastContactMs.clear();
        for (int brokerId : brokerIds) {
            lastContactMs.put(brokerId, nowMs);
        }
    }

    /** Whether {@code brokerId} has not been heard from within the session timeout before {@code nowMs}. */
    public boolean isExpired(int brokerId, long nowMs) {
        Long last = lastContactMs.get(brokerId);
        return last != null && nowMs - last > sessionTimeoutMs;
    }

    /** Of {@code brokerIds}, those not heard from within the session timeout before {@code nowMs}. */
    public List<Integer> expired(Iterable<Integer> brokerIds, long nowMs) {
        List<Integer> expired = new ArrayList<>();
        for (int brokerId : brokerIds) {
            Long last = lastContactMs.get(brokerId);
            if (last == null) {
                lastContactMs.put(brokerId, nowMs); // registered under another controller: a session from now
            } else if (nowMs - last > sessionTimeoutMs) {
                expired.add(brokerId);
            }
        }
        return expired;
    }
}

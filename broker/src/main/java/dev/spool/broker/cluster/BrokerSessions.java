package dev.spool.broker.cluster;

import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The active controller's view of the brokers' sessions: when each was last heard from (its registration or
 * heartbeat). A broker silent for longer than {@code broker.session.timeout.ms} is due to be fenced. Kept in
 * memory only, as Kafka keeps it: a controller that becomes active gives every broker a full session from
 * then ({@link #restartAll}), so a broker is never fenced for the silence of a controller election. Thread-safe.
 *
 * <p>Design note: a session also ends when the connection a broker's heartbeats came on closes
 * ({@link #onConnectionClosed}), which Kafka's controller does not do. A broker process that dies (SIGKILL, a
 * crash) has its sockets closed by the kernel at once, so it is fenced, and its partitions get new leaders, in
 * well under a second instead of a whole session timeout. A live broker whose connection merely dropped is
 * fenced too, and unfenced by its next heartbeat once it has caught up: a short move of leadership, never a lost
 * record (elections keep to the ISR and the ELR). A broker cut off by the network keeps its connection open
 * until TCP gives up, so for that the session timeout still decides.
 */
public final class BrokerSessions {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerSessions.class);
    /** A time long before any session: an ended session is expired whatever the clock says. */
    private static final long ENDED = Long.MIN_VALUE / 2;

    private final long sessionTimeoutMs;
    private final Map<Integer, Long> lastContactMs = new ConcurrentHashMap<>();
    /** The connection each broker's last heartbeat came on (its address on the broker's side). */
    private final Map<Integer, SocketAddress> heartbeatConnections = new ConcurrentHashMap<>();
    /** The brokers given a session by {@link #restartAll} that have not been heard from since. */
    private final Set<Integer> notHeardSinceRestart = ConcurrentHashMap.newKeySet();

    public BrokerSessions(long sessionTimeoutMs) {
        this.sessionTimeoutMs = sessionTimeoutMs;
    }

    /** {@code broker.session.timeout.ms}. */
    public long sessionTimeoutMs() {
        return sessionTimeoutMs;
    }

    /** Broker {@code brokerId} was heard from at {@code nowMs}. */
    public void touch(int brokerId, long nowMs) {
        lastContactMs.put(brokerId, nowMs);
        notHeardSinceRestart.remove(brokerId);
    }

    /** Broker {@code brokerId}'s heartbeat came at {@code nowMs} on the connection from {@code peer}. */
    public void touch(int brokerId, long nowMs, SocketAddress peer) {
        touch(brokerId, nowMs);
        if (peer != null) {
            heartbeatConnections.put(brokerId, peer);
        }
    }

    /** A connection closed: the session of the broker whose heartbeats came on it ends now (see the class comment). */
    public void onConnectionClosed(SocketAddress peer) {
        if (peer == null || heartbeatConnections.isEmpty()) {
            return;
        }
        heartbeatConnections.forEach((brokerId, connection) -> {
            if (connection.equals(peer) && heartbeatConnections.remove(brokerId, connection)) {
                LOG.info("Broker {}'s heartbeat connection from {} closed: its session ends now", brokerId, peer);
                end(brokerId);
            }
        });
    }

    /** Broker {@code brokerId}'s session ends now: it is fenced at the next check unless a heartbeat comes first. */
    public void end(int brokerId) {
        lastContactMs.computeIfPresent(brokerId, (id, last) -> ENDED);
    }

    /**
     * Whether {@code brokerId} was given its session by {@link #restartAll} and has not been heard from since: all
     * this controller knows of it is that the last one counted it alive.
     */
    public boolean notHeardSinceRestart(int brokerId) {
        return notHeardSinceRestart.contains(brokerId);
    }

    /** Starts a full session at {@code nowMs} for each of {@code brokerIds}, and forgets every other broker. */
    public void restartAll(Iterable<Integer> brokerIds, long nowMs) {
        lastContactMs.clear();
        heartbeatConnections.clear();
        notHeardSinceRestart.clear();
        for (int brokerId : brokerIds) {
            lastContactMs.put(brokerId, nowMs);
            notHeardSinceRestart.add(brokerId);
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

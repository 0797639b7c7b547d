package dev.spool.broker.network;

/**
 * The limits the network layer enforces, with Kafka's setting names: {@code max.connections},
 * {@code max.connections.per.ip}, {@code connections.max.idle.ms} (0 or less: never closed for being
 * idle) and {@code queued.max.requests}. Immutable.
 */
public record NetworkLimits(int maxConnections, int maxConnectionsPerIp, long connectionsMaxIdleMs,
                            int queuedMaxRequests) {

    /** No limits: what tests that build a server directly get. */
    public static final NetworkLimits NONE = new NetworkLimits(Integer.MAX_VALUE, Integer.MAX_VALUE, 0,
            Integer.MAX_VALUE);
}

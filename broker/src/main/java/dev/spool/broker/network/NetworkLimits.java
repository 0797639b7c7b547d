package dev.spool.broker.network;

/**
 * The limits the network layer enforces, with Kafka's setting names: {@code max.connections},
 * {@code max.connections.per.ip}, {@code connections.max.idle.ms} (0 or less: never closed for being
 * idle), {@code queued.max.requests}, and the kernel's buffers of each connection,
 * {@code socket.send.buffer.bytes} and {@code socket.receive.buffer.bytes} (0 or less: the operating
 * system's default). Immutable.
 */
public record NetworkLimits(int maxConnections, int maxConnectionsPerIp, long connectionsMaxIdleMs,
                            int queuedMaxRequests, int sendBufferBytes, int receiveBufferBytes) {

    /** No limits and the operating system's buffers: what tests that build a server directly get. */
    public static final NetworkLimits NONE = new NetworkLimits(Integer.MAX_VALUE, Integer.MAX_VALUE, 0,
            Integer.MAX_VALUE, -1, -1);
}

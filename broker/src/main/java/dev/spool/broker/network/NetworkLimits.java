package dev.spool.broker.network;

import dev.spool.broker.config.BrokerConfig;

/**
 * The limits the network layer enforces, with Kafka's setting names: {@code max.connections},
 * {@code max.connections.per.ip}, {@code connections.max.idle.ms} (0 or less: never closed for being
 * idle), {@code queued.max.requests}, and the kernel's buffers of each connection,
 * {@code socket.send.buffer.bytes} and {@code socket.receive.buffer.bytes} (0 or less: the operating
 * system's default). Immutable.
 */
public record NetworkLimits(int maxConnections, int maxConnectionsPerIp, long connectionsMaxIdleMs,
                            int queuedMaxRequests, int sendBufferBytes, int receiveBufferBytes) {

    /**
     * max.connections, max.connections.per.ip, connections.max.idle.ms, queued.max.requests and the socket
     * buffer sizes of a broker's config.
     */
    public static NetworkLimits of(BrokerConfig config) {
        return new NetworkLimits(config.get(BrokerConfig.MAX_CONNECTIONS), config.get(BrokerConfig.MAX_CONNECTIONS_PER_IP),
                config.get(BrokerConfig.CONNECTIONS_MAX_IDLE_MS), config.get(BrokerConfig.QUEUED_MAX_REQUESTS),
                config.get(BrokerConfig.SOCKET_SEND_BUFFER_BYTES), config.get(BrokerConfig.SOCKET_RECEIVE_BUFFER_BYTES));
    }

    /** No limits and the operating system's buffers: what tests that build a server directly get. */
    public static final NetworkLimits NONE = new NetworkLimits(Integer.MAX_VALUE, Integer.MAX_VALUE, 0,
            Integer.MAX_VALUE, -1, -1);
}

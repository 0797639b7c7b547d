package dev.spool.broker.client;

import java.util.Objects;

/**
 * Immutable: how a {@link NodeConnection} talks to its node. The defaults are Kafka's for a broker's own
 * connections to other nodes; the broker builds one from its config (which owns the setting names) and hands
 * it down.
 *
 * @param clientId         the client id of every request header, e.g. {@code spool-node-3}: the receiving node
 *                         logs it and quotas are keyed by it
 * @param requestTimeoutMs how long a request written to the connection waits for its response before it fails
 *                         with a {@link java.util.concurrent.TimeoutException} and the connection is closed
 * @param connectTimeoutMs how long a TCP connect may take before it fails
 * @param maxResponseBytes the largest response frame accepted (size field excluded); a larger size closes the
 *                         connection before anything is allocated for it
 */
public record ClientSettings(String clientId, long requestTimeoutMs, int connectTimeoutMs, int maxResponseBytes) {

    /** Kafka's {@code controller.socket.timeout.ms} and {@code replica.socket.timeout.ms}: 30 s. */
    public static final long DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
    /** Kafka's {@code socket.connection.setup.timeout.ms}: 10 s. */
    public static final int DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
    /**
     * The default of {@code socket.request.max.bytes}, 100 MiB: no node answers with more (a fetch is bounded by
     * {@code replica.fetch.response.max.bytes}, 10 MiB), so a larger size field is a corrupt stream.
     */
    public static final int DEFAULT_MAX_RESPONSE_BYTES = 100 * 1024 * 1024;

    public ClientSettings {
        Objects.requireNonNull(clientId, "clientId");
        if (requestTimeoutMs <= 0) {
            throw new IllegalArgumentException("requestTimeoutMs must be > 0, got " + requestTimeoutMs);
        }
        if (connectTimeoutMs <= 0) {
            throw new IllegalArgumentException("connectTimeoutMs must be > 0, got " + connectTimeoutMs);
        }
        // The frame decoder's limit counts the size field too, and must stay an int.
        int largestAllowed = Integer.MAX_VALUE - ClientFrames.SIZE_FIELD_BYTES;
        if (maxResponseBytes <= 0 || maxResponseBytes > largestAllowed) {
            throw new IllegalArgumentException("maxResponseBytes must be in 1-" + largestAllowed + ", got "
                    + maxResponseBytes);
        }
    }

    /** The defaults, with this client id. */
    public static ClientSettings of(String clientId) {
        return new ClientSettings(clientId, DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT_MS,
                DEFAULT_MAX_RESPONSE_BYTES);
    }

    public ClientSettings withRequestTimeoutMs(long value) {
        return new ClientSettings(clientId, value, connectTimeoutMs, maxResponseBytes);
    }

    public ClientSettings withConnectTimeoutMs(int value) {
        return new ClientSettings(clientId, requestTimeoutMs, value, maxResponseBytes);
    }

    public ClientSettings withMaxResponseBytes(int value) {
        return new ClientSettings(clientId, requestTimeoutMs, connectTimeoutMs, value);
    }
}

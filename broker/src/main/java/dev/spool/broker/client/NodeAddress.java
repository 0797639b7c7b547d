package dev.spool.broker.client;

import java.util.Objects;

/**
 * Immutable: where a node listens, as its registration or {@code controller.quorum.bootstrap.servers} names it.
 * The host is kept as written and resolved on each connect, so a node that comes back under a new IP address
 * is found again.
 */
public record NodeAddress(String host, int port) {

    public NodeAddress {
        Objects.requireNonNull(host, "host");
        if (host.isEmpty()) {
            throw new IllegalArgumentException("Empty host in a node address with port " + port);
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("Port " + port + " of node address " + host + " is not in 1-65535");
        }
    }

    /** {@code host:port}, as in log lines and exception messages. */
    @Override
    public String toString() {
        return host + ":" + port;
    }
}

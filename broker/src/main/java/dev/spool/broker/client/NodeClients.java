package dev.spool.broker.client;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Thread-safe: a node's connections to the other nodes, one per address, made on first use and kept (each
 * reconnects by itself), so that everything a node sends one peer shares one connection, as in Kafka, where a
 * broker keeps one channel to its controller. {@link #close} closes the connections; the event loops stay with
 * whoever made them.
 */
public final class NodeClients implements AutoCloseable {

    private final ClientSettings settings;
    private final String listenerName;
    private final ChannelSecurity security;
    private final ClientEventLoops loops;
    /** Guarded by this. */
    private final Map<Channel, NodeConnection> connections = new HashMap<>();
    private boolean closed;

    public NodeClients(ClientSettings settings, ClientEventLoops loops) {
        this(settings, null, ChannelSecurity.PLAINTEXT, loops);
    }

    /**
     * Connections to the nodes' listener named {@code listenerName} (null: whichever the caller picks), secured by
     * {@code security}, as that listener speaks.
     */
    public NodeClients(ClientSettings settings, String listenerName, ChannelSecurity security,
                       ClientEventLoops loops) {
        this.settings = settings;
        this.listenerName = listenerName;
        this.security = security;
        this.loops = loops;
    }

    /** The listener of the other nodes these connections reach, or null when the caller picks it. */
    public String listenerName() {
        return listenerName;
    }

    /**
     * The connection to {@code address}, the same one every time until {@link #close}. Making it opens no socket:
     * that waits for the first send.
     *
     * @throws IllegalStateException after {@link #close}
     */
    public NodeConnection connection(NodeAddress address) {
        return connection(address, "");
    }

    /**
     * A connection of its own to {@code address} for {@code purpose}, the same one every time until {@link #close}:
     * a replica fetcher's, whose fetches wait at the leader and would hold up whatever else shared it.
     *
     * @throws IllegalStateException after {@link #close}
     */
    public synchronized NodeConnection connection(NodeAddress address, String purpose) {
        if (closed) {
            throw new IllegalStateException("Node clients are closed; no connection to " + address);
        }
        return connections.computeIfAbsent(new Channel(address, purpose),
                key -> new NodeConnection(address, settings, security, loops));
    }

    private record Channel(NodeAddress address, String purpose) {
    }

    /** Closes every connection, failing the requests in flight on them. Idempotent. */
    @Override
    public void close() {
        List<NodeConnection> open;
        synchronized (this) {
            closed = true;
            open = new ArrayList<>(connections.values());
            connections.clear();
        }
        for (NodeConnection connection : open) {
            connection.close();
        }
    }
}

package dev.spool.broker;

import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.config.Endpoint;
import dev.spool.broker.config.TlsSettings;
import dev.spool.broker.metrics.BrokerMetrics;
import dev.spool.broker.network.NetworkLimits;
import dev.spool.broker.network.NetworkServer;
import dev.spool.broker.network.ServerTls;
import dev.spool.broker.network.NetworkTransport;
import dev.spool.broker.network.RequestObserver;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The broker's last layer, what the outside reaches: the metrics endpoint and the listeners, bound only
 * once every layer below serves. Closed first: the listeners stop taking requests and drain the ones in
 * flight before anything they use closes. Immutable once started.
 */
final class NetworkLayer implements AutoCloseable {

    final List<Endpoint> bound;
    final List<Endpoint> advertised;
    private final Closer closer;

    private NetworkLayer(List<Endpoint> bound, List<Endpoint> advertised, Closer closer) {
        this.bound = bound;
        this.advertised = advertised;
        this.closer = closer;
    }

    /**
     * The TLS of each SSL listener, by listener name: built before anything starts, so that settings that do not
     * work stop start-up before a port opens or a file is written (ConfigException).
     */
    static Map<String, ServerTls> tlsOf(BrokerConfig config) {
        Map<String, ServerTls> tls = new HashMap<>();
        for (Endpoint listener : config.listeners()) {
            if (config.securityProtocolOf(listener).equals("SSL")) {
                tls.put(listener.listenerName(), ServerTls.of(TlsSettings.forListener(config, listener.listenerName())));
            }
        }
        return tls;
    }

    /**
     * Starts the metrics and binds every listener on {@code transport}, which the server owns from then on; the SSL
     * ones with {@code tls} ({@link #tlsOf}).
     */
    static NetworkLayer start(BrokerConfig config, StorageLayer storage, MetadataLayer metadata,
                              PartitionLayer partitions, CoordinatorLayer coordinators, ApiLayer apis,
                              NetworkTransport transport, Map<String, ServerTls> tls)
            throws IOException, InterruptedException {
        Closer closer = new Closer();
        try {
            BrokerMetrics metrics = closer.register(new BrokerMetrics(metadata.metadata::image,
                    partitions.partitions, coordinators.groups, storage.logs.cleaner().stats()));
            metadata.metadata.addListener(metrics);
            if (config.metricsListener() != null) {
                metrics.serve(config.metricsListener());
            }
            // The active controller ends a broker's session when its heartbeat connection closes (BrokerSessions).
            RequestObserver observer = metadata.sessions == null ? metrics.requests()
                    : metrics.requests().alsoOnConnectionClosed(metadata.sessions::onConnectionClosed);
            NetworkServer network = closer.register(new NetworkServer(apis.registry, apis.apiVersions,
                    config.socketRequestMaxBytes(), transport, observer, NetworkLimits.of(config)));
            List<Endpoint> bound = new ArrayList<>();
            for (Endpoint listener : config.listeners()) {
                ServerTls listenerTls = tls.get(listener.listenerName());
                bound.add(listenerTls != null ? network.bindTls(listener, listenerTls)
                        : network.bind(listener, config.securityProtocolOf(listener)));
            }
            return new NetworkLayer(List.copyOf(bound), advertisedEndpoints(config, bound), closer);
        } catch (IOException | RuntimeException | InterruptedException | Error e) {
            closer.close();
            throw e;
        }
    }

    /** advertised.listeners, or else the bound listeners (0.0.0.0 is where we listen, never where a client connects). */
    private static List<Endpoint> advertisedEndpoints(BrokerConfig config, List<Endpoint> bound) {
        List<Endpoint> advertised = config.advertisedListeners();
        if (!advertised.isEmpty()) {
            return advertised;
        }
        List<Endpoint> reachable = new ArrayList<>(bound.size());
        for (Endpoint endpoint : bound) {
            reachable.add(endpoint.host().isEmpty() || endpoint.host().equals("0.0.0.0")
                    ? endpoint.withHostOfThisMachine() : endpoint);
        }
        return List.copyOf(reachable);
    }

    @Override
    public void close() {
        closer.close();
    }
}

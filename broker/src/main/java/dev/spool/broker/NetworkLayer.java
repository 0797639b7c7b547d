package dev.spool.broker;

import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.config.Endpoint;
import dev.spool.broker.config.ListenerSasl;
import dev.spool.broker.config.SaslSettings;
import dev.spool.broker.config.TlsSettings;
import dev.spool.broker.metrics.BrokerMetrics;
import dev.spool.broker.network.NetworkLimits;
import dev.spool.broker.network.NetworkServer;
import dev.spool.broker.network.NetworkTransport;
import dev.spool.broker.network.RequestObserver;
import dev.spool.broker.network.ServerTls;
import dev.spool.broker.quota.ConnectionRates;
import dev.spool.broker.quota.QuotaWindow;
import dev.spool.broker.security.SaslExchanges;
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
            String protocol = config.securityProtocolOf(listener);
            if (protocol.equals("SSL") || protocol.equals("SASL_SSL")) {
                String name = listener.listenerName();
                tls.put(name, ServerTls.of(TlsSettings.forListener(config, name, protocol.equals("SASL_SSL"))));
            }
        }
        return tls;
    }

    /** The SASL settings of each SASL listener, by listener name; checked before anything starts, as {@link #tlsOf}. */
    static Map<String, ListenerSasl> saslOf(BrokerConfig config) {
        Map<String, ListenerSasl> sasl = new HashMap<>();
        for (Endpoint listener : config.listeners()) {
            String protocol = config.securityProtocolOf(listener);
            if (protocol.startsWith("SASL_")) {
                sasl.put(listener.listenerName(), SaslSettings.forListener(config, listener.listenerName(), protocol));
            }
        }
        return sasl;
    }

    /**
     * Starts the metrics and binds every listener on {@code transport}, which the server owns from then on; the SSL
     * ones with {@code tls} ({@link #tlsOf}), the SASL ones with {@code sasl} ({@link #saslOf}).
     */
    static NetworkLayer start(BrokerConfig config, StorageLayer storage, MetadataLayer metadata,
                              PartitionLayer partitions, CoordinatorLayer coordinators, ApiLayer apis,
                              NetworkTransport transport, Map<String, ServerTls> tls,
                              Map<String, ListenerSasl> sasl) throws IOException, InterruptedException {
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
            QuotaWindow window = QuotaWindow.clients(config);
            ConnectionRates connectionRates = new ConnectionRates(
                    config.get(BrokerConfig.MAX_CONNECTION_CREATION_RATE), window.samples(), window.sampleMs(),
                    () -> metadata.metadata.image().clientQuotas(), System.nanoTime() / 1_000_000);
            NetworkServer network = closer.register(new NetworkServer(apis.registry, apis.apiVersions,
                    config.socketRequestMaxBytes(), transport, observer, NetworkLimits.of(config), connectionRates,
                    config.cluster()::isControllerListener));
            List<Endpoint> bound = new ArrayList<>();
            for (Endpoint listener : config.listeners()) {
                ServerTls listenerTls = tls.get(listener.listenerName());
                ListenerSasl listenerSasl = sasl.get(listener.listenerName());
                if (listenerSasl != null) {
                    SaslExchanges exchanges = closer.register(SaslExchanges.of(listenerSasl,
                            (user, mechanism) -> metadata.metadata.image().scramCredential(user, mechanism),
                            System::currentTimeMillis));
                    bound.add(network.bindSasl(listener, listenerSasl, listenerTls, exchanges));
                } else if (listenerTls != null) {
                    bound.add(network.bindTls(listener, listenerTls));
                } else {
                    bound.add(network.bind(listener, config.securityProtocolOf(listener)));
                }
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

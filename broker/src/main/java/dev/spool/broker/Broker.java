package dev.spool.broker;

import dev.spool.broker.api.ApiRegistry;
import dev.spool.broker.api.ApiVersionsHandler;
import dev.spool.broker.api.ClusterHandler;
import dev.spool.broker.api.MetadataHandler;
import dev.spool.broker.cluster.ClusterView;
import dev.spool.broker.cluster.MetaProperties;
import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.config.Endpoint;
import dev.spool.broker.network.NetworkServer;
import dev.spool.protocol.message.ApiKey;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running broker: its identity, its API handlers and its listeners. Built by {@link #start},
 * stopped by {@link #close}. Thread-safe.
 */
public final class Broker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Broker.class);

    private final NetworkServer network;
    private final List<Endpoint> boundEndpoints;
    private final ClusterView cluster;

    private Broker(NetworkServer network, List<Endpoint> boundEndpoints, ClusterView cluster) {
        this.network = network;
        this.boundEndpoints = boundEndpoints;
        this.cluster = cluster;
    }

    public static Broker start(BrokerConfig config) throws IOException, InterruptedException {
        MetaProperties meta = MetaProperties.loadOrCreate(config.logDirs().get(0), config.nodeId());
        ApiRegistry registry = new ApiRegistry();
        ApiVersionsHandler apiVersions = new ApiVersionsHandler(registry);
        ClusterView[] view = new ClusterView[1];
        registry.register(ApiKey.API_VERSIONS, 0, ApiKey.API_VERSIONS.highestVersion, apiVersions)
                .register(ApiKey.METADATA, 0, ApiKey.METADATA.highestVersion, new MetadataHandler(() -> view[0]))
                .register(ApiKey.DESCRIBE_CLUSTER, 0, ApiKey.DESCRIBE_CLUSTER.highestVersion,
                        new ClusterHandler(() -> view[0]));
        NetworkServer network = new NetworkServer(registry, apiVersions, config.socketRequestMaxBytes(),
                config.numNetworkThreads());
        List<Endpoint> bound = new ArrayList<>();
        try {
            for (Endpoint listener : config.listeners()) {
                bound.add(network.bind(listener));
            }
        } catch (RuntimeException | InterruptedException e) {
            network.close();
            throw e;
        }
        Endpoint advertised = advertisedEndpoint(config, bound);
        view[0] = new ClusterView(meta.clusterId(), config.nodeId(),
                List.of(new ClusterView.BrokerNode(config.nodeId(), advertised, null)));
        LOG.info("Spool broker {} of cluster {} started, listening on {}, advertising {}", config.nodeId(),
                meta.clusterId(), bound, advertised);
        return new Broker(network, List.copyOf(bound), view[0]);
    }

    /** The endpoint clients are sent to: the first advertised listener, else the first bound one. */
    private static Endpoint advertisedEndpoint(BrokerConfig config, List<Endpoint> bound) {
        List<Endpoint> advertised = config.advertisedListeners();
        if (!advertised.isEmpty()) {
            return advertised.get(0);
        }
        Endpoint first = bound.get(0);
        // 0.0.0.0 is where we listen, never where a client can connect.
        return first.host().isEmpty() || first.host().equals("0.0.0.0") ? first.withHostOfThisMachine() : first;
    }

    public List<Endpoint> boundEndpoints() {
        return boundEndpoints;
    }

    public ClusterView cluster() {
        return cluster;
    }

    @Override
    public void close() {
        LOG.info("Spool broker shutting down");
        network.close();
        LOG.info("Spool broker stopped");
    }
}

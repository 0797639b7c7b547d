package dev.spool.broker;

import dev.spool.broker.cluster.ClusterView;
import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.config.BrokerConfigLayers;
import dev.spool.broker.config.Endpoint;
import dev.spool.broker.config.ListenerSecurity;
import dev.spool.broker.metadata.BrokerRegistration;
import dev.spool.broker.metadata.BrokerRegistrations;
import dev.spool.broker.metadata.MetadataLog;
import dev.spool.broker.metadata.MetadataManager;
import dev.spool.broker.metadata.TopicController;
import dev.spool.broker.metadata.TopicDefaults;
import dev.spool.broker.metadata.TopicEventLog;
import dev.spool.protocol.types.Uuid;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The broker's second layer: the cluster metadata (loaded from the metadata log before anything reads
 * it), the config layers every topic's settings resolve through, the topic controller that decides
 * creations and deletions, and the cluster view derived from the image's broker registrations. The
 * Raft quorum will replace the local metadata log here and nowhere else. Immutable once loaded.
 */
final class MetadataLayer implements AutoCloseable {

    final MetadataManager metadata;
    final BrokerConfigLayers configLayers;
    final TopicController topics;
    private final BrokerConfig config;
    private final String clusterId;

    private MetadataLayer(MetadataManager metadata, BrokerConfigLayers configLayers, TopicController topics,
                          BrokerConfig config, String clusterId) {
        this.metadata = metadata;
        this.configLayers = configLayers;
        this.topics = topics;
        this.config = config;
        this.clusterId = clusterId;
    }

    static MetadataLayer load(BrokerConfig config, StorageLayer storage) throws IOException {
        MetadataManager metadata = new MetadataManager(new MetadataLog(storage.metadataPartition), storage.clock,
                config.metadataSnapshotIntervalRecords());
        try {
            metadata.load();
            metadata.addListener(new TopicEventLog());
            TopicController topics = new TopicController(new TopicDefaults(config.numPartitions(),
                    config.defaultReplicationFactor(), config.logConfigDefaults()), storage::invalidTopicConfig);
            return new MetadataLayer(metadata, new BrokerConfigLayers(config), topics, config,
                    storage.meta.clusterId());
        } catch (IOException | RuntimeException | Error e) {
            metadata.close();
            throw e;
        }
    }

    /** The cluster as the image shows it now; this broker is in it once it has {@link #register}ed. */
    ClusterView cluster() {
        return ClusterView.of(clusterId, config.nodeId(), metadata.image());
    }

    /**
     * Registers this broker (a RegisterBrokerRecord with a new incarnation and its advertised listeners) and
     * returns its broker epoch; clients learn of the broker from the image from then on.
     */
    long register(List<Endpoint> advertised) throws IOException, InterruptedException {
        List<BrokerRegistration.Listener> listeners = new ArrayList<>(advertised.size());
        for (Endpoint endpoint : advertised) {
            listeners.add(new BrokerRegistration.Listener(endpoint.listenerName(), endpoint.host(), endpoint.port(),
                    ListenerSecurity.protocolId(config.securityProtocolOf(endpoint))));
        }
        try {
            return metadata.submit(image -> BrokerRegistrations.register(image, config.nodeId(), Uuid.randomUuid(),
                    listeners)).get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("Cannot register broker " + config.nodeId() + " in the metadata", e);
        }
    }

    @Override
    public void close() throws IOException {
        metadata.close();
    }
}

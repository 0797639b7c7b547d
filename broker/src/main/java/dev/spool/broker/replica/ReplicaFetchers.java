package dev.spool.broker.replica;

import dev.spool.broker.client.NodeAddress;
import dev.spool.broker.client.NodeClients;
import dev.spool.broker.cluster.ClusterView;
import dev.spool.broker.metadata.BrokerRegistration;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.MetadataListener;
import dev.spool.broker.partition.Partition;
import dev.spool.broker.partition.PartitionManager;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The follower side of this broker's partitions (Kafka's replica fetcher manager), kept in step with the metadata
 * image: a partition hosted here whose leader is another broker is fetched by that broker's
 * {@link ReplicaFetcher}, and moves to another fetcher when its leadership moves, or stops being fetched when this
 * broker leads it (or it has no leader). Runs after the partition manager on each image. Thread-safe.
 */
public final class ReplicaFetchers implements MetadataListener, AutoCloseable {

    private final int nodeId;
    private final PartitionManager partitions;
    private final NodeClients clients;
    private final Supplier<MetadataImage> image;
    private final ReplicaFetchSettings settings;
    private final Map<Integer, ReplicaFetcher> fetchers = new HashMap<>();
    private boolean closed;

    public ReplicaFetchers(int nodeId, PartitionManager partitions, NodeClients clients, Supplier<MetadataImage> image,
                           ReplicaFetchSettings settings) {
        this.nodeId = nodeId;
        this.partitions = partitions;
        this.clients = clients;
        this.image = image;
        this.settings = settings;
    }

    @Override
    public synchronized void onImage(MetadataImage previous, MetadataImage current) {
        if (closed) {
            return;
        }
        for (Partition partition : partitions.all()) {
            int leader = partition.assignment().leader();
            for (Map.Entry<Integer, ReplicaFetcher> fetcher : fetchers.entrySet()) {
                if (fetcher.getKey() != leader) {
                    fetcher.getValue().unfollow(partition.topicPartition());
                }
            }
            if (leader >= 0 && leader != nodeId) {
                fetchers.computeIfAbsent(leader, source -> new ReplicaFetcher(nodeId, source, clients,
                        this::addressOf, this::brokerEpoch, settings)).follow(partition);
            }
        }
    }

    /** Where broker {@code brokerId} is reached, as it registered (its first listener); null when it is fenced. */
    private NodeAddress addressOf(int brokerId) {
        ClusterView.BrokerNode broker = ClusterView.of("", -1, image.get()).broker(brokerId);
        return broker == null ? null : new NodeAddress(broker.endpoint().host(), broker.endpoint().port());
    }

    private long brokerEpoch() {
        BrokerRegistration self = image.get().brokers().get(nodeId);
        return self == null ? -1 : self.brokerEpoch();
    }

    @Override
    public void close() {
        Map<Integer, ReplicaFetcher> stopping;
        synchronized (this) {
            closed = true;
            stopping = new HashMap<>(fetchers);
            fetchers.clear();
        }
        for (ReplicaFetcher fetcher : stopping.values()) {
            fetcher.close();
        }
    }
}

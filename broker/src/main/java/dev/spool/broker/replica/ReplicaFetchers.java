package dev.spool.broker.replica;

import dev.spool.broker.client.NodeAddress;
import dev.spool.broker.client.NodeClients;
import dev.spool.broker.cluster.ClusterView;
import dev.spool.broker.fetch.FollowerReadThrottle;
import dev.spool.broker.metadata.BrokerRegistration;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.MetadataListener;
import dev.spool.broker.partition.Partition;
import dev.spool.broker.partition.PartitionManager;
import dev.spool.log.TopicPartition;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The follower side of this broker's partitions (Kafka's replica fetcher manager), kept in step with the metadata
 * image: a partition hosted here whose leader is another broker is fetched by one of that broker's
 * {@code num.replica.fetchers} {@link ReplicaFetcher}s, each on its own connection, and moves to another fetcher when
 * its leadership moves, or stops being fetched when this broker leads it (or it has no leader) or no longer hosts
 * it. Runs after the partition manager on each image. Thread-safe.
 */
public final class ReplicaFetchers implements MetadataListener, AutoCloseable {

    private final int nodeId;
    private final PartitionManager partitions;
    private final NodeClients clients;
    private final Supplier<MetadataImage> image;
    private final ReplicaFetchSettings settings;
    private final FollowerReadThrottle throttle;
    private final Map<FetcherKey, ReplicaFetcher> fetchers = new HashMap<>();
    private boolean closed;

    public ReplicaFetchers(int nodeId, PartitionManager partitions, NodeClients clients, Supplier<MetadataImage> image,
                           ReplicaFetchSettings settings, FollowerReadThrottle throttle) {
        this.throttle = throttle;
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
        Set<TopicPartition> hosted = new HashSet<>();
        for (Partition partition : partitions.all()) {
            hosted.add(partition.topicPartition());
        }
        for (ReplicaFetcher fetcher : fetchers.values()) {
            fetcher.retain(hosted); // a deleted topic, a replica reassigned away
        }
        for (Partition partition : partitions.all()) {
            int leader = partition.assignment().leader();
            FetcherKey fetchedBy = leader >= 0 && leader != nodeId ? FetcherKey.of(leader, partition, settings) : null;
            for (Map.Entry<FetcherKey, ReplicaFetcher> fetcher : fetchers.entrySet()) {
                if (!fetcher.getKey().equals(fetchedBy)) {
                    fetcher.getValue().unfollow(partition.topicPartition());
                }
            }
            if (fetchedBy != null) {
                fetchers.computeIfAbsent(fetchedBy, key -> new ReplicaFetcher(nodeId, key.source(), key.index(),
                        clients, this::addressOf, this::brokerEpoch, settings, throttle)).follow(partition);
            }
        }
    }

    /**
     * One of the {@code num.replica.fetchers} fetchers of a leader: a partition always goes to the same one, by its
     * topic and index.
     */
    private record FetcherKey(int source, int index) {

        static FetcherKey of(int source, Partition partition, ReplicaFetchSettings settings) {
            TopicPartition topicPartition = partition.topicPartition();
            return new FetcherKey(source, Math.floorMod(31 * topicPartition.topic().hashCode()
                    + topicPartition.partition(), settings.fetchersPerSource()));
        }
    }

    /** Where broker {@code brokerId} is reached, on the inter-broker listener; null when it is fenced. */
    private NodeAddress addressOf(int brokerId) {
        ClusterView.BrokerNode broker = ClusterView.of("", -1, image.get()).broker(brokerId);
        return broker == null ? null : broker.addressOn(clients.listenerName());
    }

    private long brokerEpoch() {
        BrokerRegistration self = image.get().brokers().get(nodeId);
        return self == null ? -1 : self.brokerEpoch();
    }

    @Override
    public void close() {
        Map<FetcherKey, ReplicaFetcher> stopping;
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

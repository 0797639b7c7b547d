package dev.spool.broker.fetch;

import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.TopicImage;
import dev.spool.broker.partition.Partition;
import dev.spool.broker.partition.PartitionManager;
import dev.spool.protocol.types.Uuid;
import java.util.function.Supplier;

/**
 * Thread-safe. {@link PartitionLookup} over this broker's partitions, with topic ids resolved through the
 * current metadata image.
 */
public final class HostedPartitionLookup implements PartitionLookup {

    private final PartitionManager partitions;
    private final Supplier<MetadataImage> metadata;

    public HostedPartitionLookup(PartitionManager partitions, Supplier<MetadataImage> metadata) {
        this.partitions = partitions;
        this.metadata = metadata;
    }

    @Override
    public Partition byName(String topic, int partition) {
        return topic == null ? null : partitions.get(topic, partition);
    }

    @Override
    public Partition byId(Uuid topicId, int partition) {
        TopicImage topic = metadata.get().topic(topicId);
        if (topic == null) {
            return null;
        }
        Partition hosted = partitions.get(topic.name(), partition);
        // A topic deleted and re-created under the same name has a new id: the old id must not find it.
        return hosted != null && hosted.topicId().equals(topicId) ? hosted : null;
    }

    @Override
    public boolean topicExists(Uuid topicId) {
        return metadata.get().topic(topicId) != null;
    }

    @Override
    public boolean leads(Partition partition) {
        return partitions.leads(partition);
    }

    @Override
    public int localId() {
        return partitions.nodeId();
    }
}

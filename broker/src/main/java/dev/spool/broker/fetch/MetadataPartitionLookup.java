package dev.spool.broker.fetch;

import dev.spool.broker.metadata.MetadataLog;
import dev.spool.broker.partition.Partition;
import dev.spool.protocol.types.Uuid;

/**
 * {@link PartitionLookup} of a controller: the hosted partitions, and {@code __cluster_metadata} partition 0,
 * which brokers fetch the metadata from with Kafka's Fetch (by name, or by KRaft's fixed topic id). The metadata
 * log holds only what the quorum committed, so a reader never sees a record the quorum may still lose.
 * Thread-safe.
 */
public final class MetadataPartitionLookup implements PartitionLookup {

    /** The topic id of {@code __cluster_metadata} in KRaft: always this one. */
    public static final Uuid METADATA_TOPIC_ID = new Uuid(0L, 1L);

    private final PartitionLookup hosted;
    private final Partition metadata;

    public MetadataPartitionLookup(PartitionLookup hosted, Partition metadata) {
        this.hosted = hosted;
        this.metadata = metadata;
    }

    @Override
    public Partition byName(String topic, int partition) {
        return MetadataLog.TOPIC.equals(topic) ? (partition == 0 ? metadata : null) : hosted.byName(topic, partition);
    }

    @Override
    public Partition byId(Uuid topicId, int partition) {
        return METADATA_TOPIC_ID.equals(topicId) ? (partition == 0 ? metadata : null) : hosted.byId(topicId, partition);
    }

    /** Every voter serves the metadata it committed; for the rest, the hosted partitions' leader. */
    @Override
    public boolean leads(Partition partition) {
        return partition == metadata || hosted.leads(partition);
    }

    @Override
    public int localId() {
        return hosted.localId();
    }

    @Override
    public boolean topicExists(Uuid topicId) {
        return METADATA_TOPIC_ID.equals(topicId) || hosted.topicExists(topicId);
    }
}

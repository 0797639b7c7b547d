package dev.spool.broker.metadata;

import dev.spool.log.LogConfigKey;
import dev.spool.protocol.metadata.ConfigRecordData;
import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.metadata.PartitionChangeRecordData;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The eligible leader replicas a change of {@code min.insync.replicas} clears, as Kafka's controller clears them
 * (KIP-966): a replica is eligible because the high watermark stood still while the ISR was below min ISR, which a
 * new min ISR no longer vouches for (a lower one lets the high watermark move with fewer replicas). A topic's own
 * setting clears its partitions' ELRs; a broker-level default (the cluster's or one broker's) clears every ELR. The
 * last known leader stays. Stateless.
 */
public final class ElrResets {

    private static final String MIN_INSYNC_REPLICAS = LogConfigKey.MIN_INSYNC_REPLICAS.configName;

    private ElrResets() {
    }

    /** The PartitionChangeRecords clearing the ELRs that {@code configRecords}, about to be applied, invalidate. */
    public static List<VersionedRecord> after(MetadataImage image, List<VersionedRecord> configRecords) {
        Set<String> topics = new HashSet<>();
        boolean everyTopic = false;
        for (VersionedRecord record : configRecords) {
            if (record.type() != MetadataRecordType.CONFIG_RECORD) {
                continue;
            }
            ConfigRecordData config = (ConfigRecordData) record.data();
            if (!MIN_INSYNC_REPLICAS.equals(config.name())) {
                continue;
            }
            if (config.resourceType() == ConfigResource.TOPIC) {
                topics.add(config.resourceName());
            } else if (config.resourceType() == ConfigResource.BROKER) {
                everyTopic = true;
            }
        }
        List<VersionedRecord> resets = new ArrayList<>();
        for (TopicImage topic : image.topics()) {
            if (!everyTopic && !topics.contains(topic.name())) {
                continue;
            }
            for (PartitionImage partition : topic.partitions().values()) {
                if (!partition.elr().isEmpty()) {
                    resets.add(new VersionedRecord(MetadataRecordType.PARTITION_CHANGE_RECORD,
                            PartitionChange.ELR_RECORD_VERSION, new PartitionChangeRecordData()
                            .setTopicId(topic.id()).setPartitionId(partition.partition())
                            .setEligibleLeaderReplicas(new ArrayList<>()))); // leader: -2, unchanged
                }
            }
        }
        return resets;
    }
}

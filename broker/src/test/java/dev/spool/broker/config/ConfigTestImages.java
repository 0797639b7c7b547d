package dev.spool.broker.config;

import dev.spool.broker.metadata.ConfigResource;
import dev.spool.broker.metadata.MetadataChange;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.VersionedRecord;
import dev.spool.protocol.metadata.ConfigRecordData;
import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.metadata.PartitionRecordData;
import dev.spool.protocol.metadata.TopicRecordData;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.List;

/** Builds metadata images for the config tests by applying real metadata records. Not thread-safe. */
final class ConfigTestImages {

    private ConfigTestImages() {
    }

    static MetadataImage withTopic(MetadataImage image, String name) {
        Uuid id = Uuid.randomUuid();
        List<VersionedRecord> records = new ArrayList<>();
        records.add(VersionedRecord.of(MetadataRecordType.TOPIC_RECORD, new TopicRecordData().setName(name).setTopicId(id)));
        records.add(VersionedRecord.of(MetadataRecordType.PARTITION_RECORD, new PartitionRecordData().setTopicId(id)
                .setPartitionId(0).setReplicas(List.of(1)).setIsr(List.of(1)).setLeader(1)));
        return image.apply(records, image.offset() + records.size());
    }

    static MetadataImage withConfig(MetadataImage image, ConfigResource resource, String name, String value) {
        List<VersionedRecord> records = List.of(VersionedRecord.of(MetadataRecordType.CONFIG_RECORD,
                new ConfigRecordData().setResourceType(resource.type()).setResourceName(resource.name())
                        .setName(name).setValue(value)));
        return image.apply(records, image.offset() + 1);
    }

    /** Applies a change's records as the metadata manager would. */
    static MetadataImage applied(MetadataImage image, MetadataChange<?> change) {
        return image.apply(change.records(), image.offset() + change.records().size());
    }
}

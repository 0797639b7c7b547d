package dev.spool.broker.metadata;

import dev.spool.protocol.message.AlterPartitionRequestData;
import dev.spool.protocol.message.AlterPartitionResponseData;
import java.util.ArrayList;
import java.util.List;

/** What the controller tests do with its decisions: apply them as a broker reads them, ask as a leader would. */
final class ControllerDecisions {

    private ControllerDecisions() {
    }

    /** {@code image} with {@code change}'s records applied as a broker reads them: written as bytes and read back. */
    static MetadataImage applied(MetadataImage image, MetadataChange<?> change) {
        List<VersionedRecord> read = new ArrayList<>();
        for (VersionedRecord record : change.records()) {
            read.add(MetadataRecordSerde.deserialize(MetadataRecordSerde.serialize(record)));
        }
        return image.apply(read, image.offset() + Math.max(1, read.size()));
    }

    /** The leader of partition 0 of {@code topic} asks for the ISR {@code isr}: the controller's decision. */
    static MetadataChange<AlterPartitionResponseData> leaderAlters(MetadataImage image, String topic,
                                                                   List<Integer> isr, ElectionRules rules) {
        PartitionImage current = image.topic(topic).partitions().get(0);
        List<AlterPartitionRequestData.BrokerState> members = new ArrayList<>();
        for (int member : isr) {
            members.add(new AlterPartitionRequestData.BrokerState().setBrokerId(member)
                    .setBrokerEpoch(image.brokers().get(member).brokerEpoch()));
        }
        return IsrChanges.alter(image, new AlterPartitionRequestData()
                .setBrokerId(current.leader()).setBrokerEpoch(image.brokers().get(current.leader()).brokerEpoch())
                .setTopics(List.of(new AlterPartitionRequestData.TopicData().setTopicId(image.topic(topic).id())
                        .setPartitions(List.of(new AlterPartitionRequestData.PartitionData().setPartitionIndex(0)
                                .setLeaderEpoch(current.leaderEpoch()).setPartitionEpoch(current.partitionEpoch())
                                .setNewIsrWithEpochs(members))))), rules);
    }
}

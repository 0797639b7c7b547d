package dev.spool.broker.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.protocol.metadata.FenceBrokerRecordData;
import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.metadata.PartitionChangeRecordData;
import dev.spool.protocol.metadata.PartitionRecordData;
import dev.spool.protocol.metadata.RemoveTopicRecordData;
import dev.spool.protocol.metadata.TopicRecordData;
import dev.spool.protocol.metadata.UnfenceBrokerRecordData;
import dev.spool.protocol.metadata.UnregisterBrokerRecordData;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Applying batches of metadata records: partitions created, changed and removed within one batch and across. */
class MetadataImageTest {

    private static final Uuid ORDERS = new Uuid(1L, 1L);
    private static final Uuid GONE = new Uuid(2L, 2L);

    @Test
    void aTopicsPartitionsCreatedAndChangedInOneBatchAreAllInTheImage() {
        List<VersionedRecord> batch = new ArrayList<>(List.of(topic("orders", ORDERS), topic("gone", GONE)));
        for (int p = 0; p < 5_000; p++) {
            batch.add(partition(ORDERS, p));
        }
        batch.add(partition(GONE, 0));
        batch.add(new VersionedRecord(MetadataRecordType.PARTITION_CHANGE_RECORD, (short) 0,
                new PartitionChangeRecordData().setTopicId(ORDERS).setPartitionId(7).setLeader(1)));
        batch.add(new VersionedRecord(MetadataRecordType.REMOVE_TOPIC_RECORD, (short) 0,
                new RemoveTopicRecordData().setTopicId(GONE)));

        MetadataImage image = MetadataImage.EMPTY.apply(batch, 5_004);

        TopicImage orders = image.topic("orders");
        assertThat(orders.partitions()).hasSize(5_000);
        assertThat(orders.partition(7).leaderEpoch()).as("a new leader in the same batch").isEqualTo(1);
        assertThat(orders.partition(7).partitionEpoch()).isEqualTo(1);
        assertThat(orders.partition(8).leaderEpoch()).isZero();
        assertThat(image.topic("gone")).as("removed in the same batch").isNull();
        assertThat(image.offset()).isEqualTo(5_004);
    }

    @Test
    void aLaterBatchChangesOnePartitionAndKeepsTheOthers() {
        MetadataImage first = MetadataImage.EMPTY.apply(List.of(topic("orders", ORDERS), partition(ORDERS, 0),
                partition(ORDERS, 1)), 2);

        MetadataImage second = first.apply(List.of(partition(ORDERS, 2),
                new VersionedRecord(MetadataRecordType.PARTITION_CHANGE_RECORD, (short) 0,
                        new PartitionChangeRecordData().setTopicId(ORDERS).setPartitionId(0).setLeader(1))), 4);

        assertThat(second.topic("orders").partitions()).containsOnlyKeys(0, 1, 2);
        assertThat(second.topic("orders").partition(0).leaderEpoch()).isEqualTo(1);
        assertThat(first.topic("orders").partitions()).as("the older image is unchanged").containsOnlyKeys(0, 1);
        assertThat(first.topic("orders").partition(0).leaderEpoch()).isZero();
    }

    private static VersionedRecord topic(String name, Uuid id) {
        return new VersionedRecord(MetadataRecordType.TOPIC_RECORD, (short) 0,
                new TopicRecordData().setName(name).setTopicId(id));
    }

    private static VersionedRecord partition(Uuid topicId, int index) {
        return new VersionedRecord(MetadataRecordType.PARTITION_RECORD, (short) 0, new PartitionRecordData()
                .setTopicId(topicId).setPartitionId(index).setReplicas(List.of(1)).setIsr(List.of(1)).setLeader(1)
                .setLeaderEpoch(0).setPartitionEpoch(0));
    }

    @Test
    void brokersRegisterAreFencedAndUnfencedAndSurviveASnapshot() {
        Uuid incarnation = new Uuid(9L, 9L);
        BrokerRegistration.Listener plaintext = new BrokerRegistration.Listener("PLAINTEXT", "host-1", 9092, (short) 0);
        MetadataChange<Long> registration = BrokerRegistrations.register(MetadataImage.EMPTY, 1, incarnation,
                List.of(plaintext));
        MetadataImage registered = MetadataImage.EMPTY.apply(registration.records(), 0);

        assertThat(registration.result()).as("the broker epoch is the record's offset").isZero();
        assertThat(registered.brokers()).containsOnlyKeys(1);
        assertThat(registered.brokers().get(1)).isEqualTo(new BrokerRegistration(1, 0, incarnation,
                List.of(plaintext), null, false));

        MetadataImage fenced = registered.apply(List.of(new VersionedRecord(MetadataRecordType.FENCE_BROKER_RECORD,
                (short) 0, new FenceBrokerRecordData().setId(1).setEpoch(0))), 1);
        assertThat(fenced.brokers().get(1).fenced()).isTrue();
        MetadataImage rebuilt = MetadataImage.EMPTY.apply(MetadataSnapshot.recordsOf(fenced), 1);
        assertThat(rebuilt.brokers()).as("a snapshot keeps the registration").isEqualTo(fenced.brokers());

        MetadataImage unfenced = fenced.apply(List.of(new VersionedRecord(MetadataRecordType.UNFENCE_BROKER_RECORD,
                (short) 0, new UnfenceBrokerRecordData().setId(1).setEpoch(0))), 2);
        assertThat(unfenced.brokers().get(1).fenced()).isFalse();
        MetadataImage gone = unfenced.apply(List.of(new VersionedRecord(MetadataRecordType.UNREGISTER_BROKER_RECORD,
                (short) 0, new UnregisterBrokerRecordData().setBrokerId(1).setBrokerEpoch(0))), 3);
        assertThat(gone.brokers()).isEmpty();
    }
}

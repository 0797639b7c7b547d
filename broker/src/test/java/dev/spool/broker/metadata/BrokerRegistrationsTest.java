package dev.spool.broker.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.metadata.PartitionRecordData;
import dev.spool.protocol.metadata.TopicRecordData;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The controller's decisions about brokers of a cluster: fencing, unfencing, unregistering, racks. */
class BrokerRegistrationsTest {

    private static MetadataImage applied(MetadataImage image, MetadataChange<?> change) {
        return image.apply(change.records(), image.offset() + change.records().size());
    }

    private static MetadataImage registered(MetadataImage image, int id, String rack, boolean fenced) {
        return applied(image, BrokerRegistrations.register(image, id, new Uuid(id, id),
                List.of(new BrokerRegistration.Listener("PLAINTEXT", "broker-" + id, 9092, (short) 0)), rack, fenced));
    }

    /**
     * {@code image} with a topic of {@code partitions} partitions of {@code replicationFactor} replicas each, placed
     * as the controller places them (written as records: the controller refuses more than one replica for now).
     */
    private static MetadataImage withTopic(MetadataImage image, String name, int partitions, int replicationFactor) {
        Uuid id = Uuid.randomUuid();
        List<VersionedRecord> records = new ArrayList<>();
        records.add(VersionedRecord.of(MetadataRecordType.TOPIC_RECORD, new TopicRecordData().setName(name)
                .setTopicId(id)));
        List<List<Integer>> placed = ReplicaPlacement.place(name, 0, partitions, replicationFactor,
                ReplicaPlacement.liveBrokers(image));
        for (int partition = 0; partition < partitions; partition++) {
            List<Integer> replicas = placed.get(partition);
            records.add(VersionedRecord.of(MetadataRecordType.PARTITION_RECORD, new PartitionRecordData()
                    .setTopicId(id).setPartitionId(partition).setReplicas(new ArrayList<>(replicas))
                    .setIsr(new ArrayList<>(replicas)).setLeader(replicas.get(0))));
        }
        return image.apply(records, image.offset() + records.size());
    }

    private MetadataImage threeBrokers() {
        MetadataImage image = MetadataImage.EMPTY;
        for (int id = 1; id <= 3; id++) {
            image = registered(image, id, null, false);
        }
        return image;
    }

    @Test
    void aFencedBrokerLosesLeadershipToAnotherInSyncReplicaOrToNoneAndGetsItBackWhenUnfenced() {
        MetadataImage image = withTopic(withTopic(threeBrokers(), "single", 3, 1), "triple", 3, 3);
        MetadataImage fenced = applied(image, BrokerRegistrations.fence(image, 2));
        assertThat(fenced.brokers().get(2).fenced()).isTrue();
        for (PartitionImage partition : fenced.topic("single").partitions().values()) {
            if (partition.replicas().equals(List.of(2))) {
                assertThat(partition.leader()).as("no other replica: no leader").isEqualTo(-1);
                assertThat(partition.isr()).as("the ISR empties (KIP-966)").isEmpty();
                assertThat(partition.elr()).as("the last in-sync replica is an eligible leader").containsExactly(2);
                assertThat(partition.lastKnownElr()).as("and the last known leader").containsExactly(2);
            } else {
                assertThat(partition.leader()).isNotEqualTo(2);
            }
        }
        for (PartitionImage partition : fenced.topic("triple").partitions().values()) {
            assertThat(partition.leader()).isNotIn(2, -1);
            assertThat(partition.isr()).doesNotContain(2).hasSize(2);
        }
        assertThat(BrokerRegistrations.fence(fenced, 2).records()).as("fenced once").isEmpty();

        MetadataImage unfenced = applied(fenced, BrokerRegistrations.unfence(fenced, 2));
        assertThat(unfenced.brokers().get(2).fenced()).isFalse();
        assertThat(unfenced.topic("single").partitions().values()).allMatch(partition -> partition.leader() != -1);
        assertThat(unfenced.topic("single").partitions().values()).as("led again, in sync, the ELR forgotten")
                .allMatch(partition -> partition.isr().equals(List.of(partition.leader()))
                        && partition.elr().isEmpty() && partition.lastKnownElr().isEmpty());
    }

    @Test
    void anUnregisteredBrokerIsGoneAndItsPartitionsLeadElsewhere() {
        MetadataImage image = withTopic(threeBrokers(), "triple", 3, 3);
        MetadataImage gone = applied(image, BrokerRegistrations.unregister(image, 1, ElectionRules.DEFAULTS));
        assertThat(gone.brokers()).doesNotContainKey(1);
        assertThat(gone.topic("triple").partitions().values()).allMatch(partition -> partition.leader() != 1
                && partition.leader() != -1);
        assertThat(BrokerRegistrations.unregister(gone, 1, ElectionRules.DEFAULTS).result()).as("not registered").isFalse();
    }

    @Test
    void replicasAlternateBetweenRacks() {
        MetadataImage image = MetadataImage.EMPTY;
        image = registered(image, 1, "a", false);
        image = registered(image, 2, "a", false);
        image = registered(image, 3, "b", false);
        image = registered(image, 4, "b", false);
        image = registered(image, 5, "c", true); // fenced: given nothing
        assertThat(ReplicaPlacement.liveBrokers(image)).containsExactly(1, 3, 2, 4);
        MetadataImage placed = withTopic(image, "spread", 8, 2);
        for (PartitionImage partition : placed.topic("spread").partitions().values()) {
            String first = placed.brokers().get(partition.replicas().get(0)).rack();
            String second = placed.brokers().get(partition.replicas().get(1)).rack();
            assertThat(first).as("partition " + partition.partition()).isNotEqualTo(second);
        }
    }

    @Test
    void withUncleanElectionAllowedAReplicaOutOfTheIsrLeadsWhenNoInSyncOneIsLeft() {
        MetadataImage image = TopicControllerTest.threeBrokersWithTopic("t");
        PartitionImage before = image.topic("t").partitions().get(0);
        int leader = before.leader();
        List<Integer> others = before.replicas().stream().filter(id -> id != leader).toList();
        // The two followers go first: the leader is the last of the ISR.
        for (int follower : others) {
            image = applied(image, BrokerRegistrations.fence(image, follower));
        }
        assertThat(image.topic("t").partitions().get(0).isr()).containsExactly(leader);
        image = applied(image, BrokerRegistrations.unfence(image, others.get(0)));
        ElectionRules allowed = FixedElectionRules.uncleanFor("t");

        MetadataImage clean = applied(image, BrokerRegistrations.fence(image, leader));
        assertThat(clean.topic("t").partitions().get(0).leader()).as("unclean elections off: no leader").isEqualTo(-1);
        MetadataImage unclean = applied(image, BrokerRegistrations.fence(image, leader, allowed));
        PartitionImage elected = unclean.topic("t").partitions().get(0);
        assertThat(elected.leader()).isEqualTo(others.get(0));
        assertThat(elected.isr()).as("the new leader is the whole ISR").containsExactly(others.get(0));

        // Leaderless, and then an out-of-sync replica comes back: a replica out of sync leads only where that is
        // allowed (the first unfenced one in assignment order, as Kafka elects).
        MetadataImage back = applied(clean, BrokerRegistrations.unfence(clean, others.get(1)));
        assertThat(back.topic("t").partitions().get(0).leader()).isEqualTo(-1);
        back = applied(clean, BrokerRegistrations.unfence(clean, others.get(1), allowed));
        assertThat(back.topic("t").partitions().get(0).leader()).isEqualTo(others.get(0));
        assertThat(back.topic("t").partitions().get(0).isr()).containsExactly(others.get(0));
        assertThat(back.topic("t").partitions().get(0).elr()).as("an unclean election forgets the ELR").isEmpty();
    }
}

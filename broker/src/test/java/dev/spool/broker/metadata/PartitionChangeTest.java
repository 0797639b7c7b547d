package dev.spool.broker.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.config.ConfigController;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ElectLeadersRequestData;
import dev.spool.protocol.message.ElectLeadersResponseData;
import dev.spool.protocol.message.IncrementalAlterConfigsRequestData;
import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * KIP-966's eligible leader replicas, through the controller's decisions (AlterPartition, fence, unfence,
 * ElectLeaders), on a partition of three replicas with min.insync.replicas 2.
 */
class PartitionChangeTest {

    private static final ElectionRules MIN_ISR_TWO = FixedElectionRules.minIsr(2);

    private MetadataImage image;
    private int first;
    private int second;
    private int third;

    @BeforeEach
    void aPartitionOfThreeReplicas() {
        image = TopicControllerTest.threeBrokersWithTopic("t");
        List<Integer> replicas = partition().replicas();
        first = replicas.get(0);
        second = replicas.get(1);
        third = replicas.get(2);
        assertThat(partition().leader()).isEqualTo(first);
    }

    private PartitionImage partition() {
        return image.topic("t").partitions().get(0);
    }

    private void apply(MetadataChange<?> change) {
        image = ControllerDecisions.applied(image, change);
    }

    /** The leader's AlterPartition to {@code isr}, as the controller takes it. */
    private void leaderAlters(List<Integer> isr) {
        MetadataChange<?> change = ControllerDecisions.leaderAlters(image, "t", isr, MIN_ISR_TWO);
        assertThat(change.records()).as("the change is taken").isNotEmpty();
        apply(change);
    }

    @Test
    void replicasLeavingAnIsrBelowMinIsrBecomeEligibleAndOneOfThemLeadsWhenTheIsrEmpties() {
        leaderAlters(List.of(first, second));
        assertThat(partition().elr()).as("at min ISR, no ELR").isEmpty();
        leaderAlters(List.of(first));
        assertThat(partition().elr()).as("left while the ISR fell below min ISR").containsExactly(second);

        apply(BrokerRegistrations.fence(image, first, MIN_ISR_TWO));

        assertThat(partition().leader()).as("the eligible replica leads though it was out of the ISR")
                .isEqualTo(second);
        assertThat(partition().isr()).containsExactly(second);
        assertThat(partition().elr()).as("the fenced leader is eligible in turn").containsExactly(first);
        assertThat(partition().lastKnownElr()).isEmpty();
    }

    @Test
    void theIsrBackAtMinIsrClearsTheElr() {
        leaderAlters(List.of(first));
        assertThat(partition().elr()).containsExactly(second, third);

        leaderAlters(List.of(first, third));

        assertThat(partition().isr()).containsExactly(first, third);
        assertThat(partition().elr()).isEmpty();
    }

    @Test
    void withEveryEligibleReplicaFencedThePartitionWaitsForOneAndTheLastLeaderIsRecorded() {
        apply(BrokerRegistrations.fence(image, third, MIN_ISR_TWO));
        apply(BrokerRegistrations.fence(image, second, MIN_ISR_TWO));
        assertThat(partition().isr()).containsExactly(first);
        assertThat(partition().elr()).containsExactly(second);
        apply(BrokerRegistrations.fence(image, first, MIN_ISR_TWO));

        assertThat(partition().leader()).isEqualTo(-1);
        assertThat(partition().isr()).isEmpty();
        assertThat(partition().elr()).containsExactly(first, second);
        assertThat(partition().lastKnownElr()).containsExactly(first);

        apply(BrokerRegistrations.unfence(image, third, MIN_ISR_TWO));
        assertThat(partition().leader()).as("not eligible: it left the ISR while min ISR held").isEqualTo(-1);
        apply(BrokerRegistrations.unfence(image, second, MIN_ISR_TWO));
        assertThat(partition().leader()).isEqualTo(second);
        assertThat(partition().isr()).containsExactly(second);
        assertThat(partition().elr()).containsExactly(first);
        assertThat(partition().lastKnownElr()).as("cleared once led").isEmpty();
    }

    @Test
    void anUnregisteredBrokerIsNoLongerEligible() {
        leaderAlters(List.of(first));
        assertThat(partition().elr()).containsExactly(second, third);

        apply(BrokerRegistrations.unregister(image, second, MIN_ISR_TWO));

        assertThat(partition().elr()).containsExactly(third);
    }

    @Test
    void aBrokerThatDidNotShutDownCleanlyIsNoLongerEligibleWhenItRegistersAgain() {
        leaderAlters(List.of(first));
        assertThat(partition().elr()).containsExactly(second, third);
        long secondEpoch = image.brokers().get(second).brokerEpoch();

        apply(BrokerRegistrations.reregister(image, second, new Uuid(9, 9), List.of(), null, secondEpoch,
                MIN_ISR_TWO));
        assertThat(partition().elr()).as("shut down cleanly in the epoch it had: still eligible")
                .containsExactly(second, third);
        assertThat(image.brokers().get(second).fenced()).as("registered again, fenced until caught up").isTrue();

        apply(BrokerRegistrations.reregister(image, third, new Uuid(8, 8), List.of(), null, -1, MIN_ISR_TWO));
        assertThat(partition().elr()).as("a crash may have lost what it had not flushed").containsExactly(second);
    }

    @Test
    void aBrokerRestartedAfterACrashBeforeItWasFencedLeavesTheIsrAndLeadsNoMore() {
        // The controller never saw first die (its session had not ended): it is the leader and in the ISR.
        apply(BrokerRegistrations.reregister(image, first, new Uuid(7, 7), List.of(), null, -1, MIN_ISR_TWO));

        assertThat(partition().isr()).as("its log may have lost its unflushed tail").containsExactly(second, third);
        assertThat(partition().leader()).as("an in-sync replica leads instead").isEqualTo(second);
        assertThat(partition().elr()).isEmpty();

        apply(BrokerRegistrations.fence(image, second, MIN_ISR_TWO));
        apply(BrokerRegistrations.fence(image, third, MIN_ISR_TWO));
        apply(BrokerRegistrations.unfence(image, first, MIN_ISR_TWO));
        assertThat(partition().leader()).as("unfenced again, it is still not eligible").isEqualTo(-1);
        assertThat(partition().elr()).containsExactly(second, third);
    }

    @Test
    void aBrokerRestartedCleanlyKeepsItsPlaceInTheIsr() {
        long firstEpoch = image.brokers().get(first).brokerEpoch();

        apply(BrokerRegistrations.reregister(image, first, new Uuid(7, 7), List.of(), null, firstEpoch, MIN_ISR_TWO));

        assertThat(partition().isr()).containsExactly(first, second, third);
    }

    @Test
    void anUncleanElectionAskedForTakesAnEligibleReplicaBeforeOneOutOfSync() {
        apply(BrokerRegistrations.fence(image, third, MIN_ISR_TWO));
        leaderAlters(List.of(first));
        assertThat(partition().elr()).containsExactly(second);
        apply(BrokerRegistrations.fence(image, second, MIN_ISR_TWO));
        apply(BrokerRegistrations.fence(image, first, MIN_ISR_TWO));
        apply(BrokerRegistrations.unfence(image, third, MIN_ISR_TWO));
        assertThat(partition().leader()).isEqualTo(-1);
        apply(BrokerRegistrations.unfence(image, second, MIN_ISR_TWO));
        assertThat(partition().leader()).as("eligible: elected at once").isEqualTo(second);
        apply(BrokerRegistrations.fence(image, second, MIN_ISR_TWO));
        assertThat(partition().elr()).containsExactly(first, second);

        MetadataChange<ElectLeadersResponseData> elected = LeaderElections.elect(image, new ElectLeadersRequestData()
                .setElectionType(LeaderElections.UNCLEAN).setTopicPartitions(List.of(
                        new ElectLeadersRequestData.TopicPartitions().setTopic("t").setPartitions(List.of(0)))),
                MIN_ISR_TWO);
        apply(elected);

        assertThat(elected.result().replicaElectionResults().get(0).partitionResult().get(0).errorCode())
                .isEqualTo(Errors.NONE.code());
        assertThat(partition().leader()).as("the only unfenced replica, out of sync").isEqualTo(third);
        assertThat(partition().isr()).containsExactly(third);
        assertThat(partition().elr()).as("forgotten: the new leader may lack committed records").isEmpty();
    }

    @Test
    void aLeaderlessPartitionIsLedOutOfSyncOnceItsTopicAllowsUncleanElections() {
        apply(BrokerRegistrations.fence(image, third, MIN_ISR_TWO));
        apply(BrokerRegistrations.fence(image, second, MIN_ISR_TWO));
        apply(BrokerRegistrations.fence(image, first, MIN_ISR_TWO));
        apply(BrokerRegistrations.unfence(image, third, MIN_ISR_TWO));
        assertThat(partition().leader()).as("the only unfenced replica is not eligible").isEqualTo(-1);
        assertThat(LeaderElections.uncleanWhereAllowed(image, MIN_ISR_TWO).result()).isZero();

        MetadataChange<Integer> elected = LeaderElections.uncleanWhereAllowed(image,
                new FixedElectionRules(2, Set.of("t")));
        apply(elected);

        assertThat(elected.result()).isEqualTo(1);
        assertThat(partition().leader()).isEqualTo(third);
        assertThat(partition().isr()).containsExactly(third);
        assertThat(partition().elr()).isEmpty();
    }

    /** {@code name} set to {@code value} on {@code resourceName}, as IncrementalAlterConfigs asks the controller. */
    private void configure(byte resourceType, String resourceName, String name, String value) {
        apply(new ConfigController(1, overrides -> null).incrementalAlter(image, new IncrementalAlterConfigsRequestData()
                .setResources(new ArrayList<>(List.of(new IncrementalAlterConfigsRequestData.AlterConfigsResource()
                        .setResourceType(resourceType).setResourceName(resourceName)
                        .setConfigs(new ArrayList<>(List.of(new IncrementalAlterConfigsRequestData.AlterableConfig()
                                .setName(name).setConfigOperation((byte) 0).setValue(value)))))))));
    }

    @Test
    void changingMinIsrClearsTheEligibleReplicasItNoLongerVouchesFor() {
        // The ISR changes here stay under MIN_ISR_TWO: what is tested is the reset a configured change brings.
        leaderAlters(List.of(first));
        configure(ConfigResource.TOPIC, "t", "retention.ms", "60000");
        assertThat(partition().elr()).as("another setting: kept").containsExactly(second, third);

        configure(ConfigResource.TOPIC, "t", "min.insync.replicas", "1");
        assertThat(partition().elr()).as("the topic's min ISR").isEmpty();

        leaderAlters(List.of(first, second));
        leaderAlters(List.of(first));
        assertThat(partition().elr()).containsExactly(second);
        configure(ConfigResource.BROKER, "", "min.insync.replicas", "3");
        assertThat(partition().elr()).as("the cluster's default").isEmpty();
    }

    @Test
    void theEligibleReplicasSurviveASnapshotWrittenAndReadAsBytes() {
        leaderAlters(List.of(first));
        apply(BrokerRegistrations.fence(image, first, MIN_ISR_TWO));
        PartitionImage before = partition();
        assertThat(before.elr()).isNotEmpty();

        List<VersionedRecord> records = new ArrayList<>();
        for (VersionedRecord record : MetadataSnapshot.recordsOf(image)) {
            records.add(MetadataRecordSerde.deserialize(MetadataRecordSerde.serialize(record)));
        }
        MetadataImage rebuilt = MetadataImage.EMPTY.apply(records, image.offset());

        assertThat(rebuilt.topic("t").partitions().get(0)).isEqualTo(before);
        assertThat(records).filteredOn(record -> record.type() == MetadataRecordType.PARTITION_RECORD)
                .extracting(VersionedRecord::version).containsOnly(PartitionChange.ELR_RECORD_VERSION);
    }
}

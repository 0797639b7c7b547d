package dev.spool.broker.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.protocol.Errors;
import dev.spool.protocol.message.AlterPartitionReassignmentsRequestData;
import dev.spool.protocol.message.AlterPartitionReassignmentsRequestData.ReassignablePartition;
import dev.spool.protocol.message.AlterPartitionReassignmentsRequestData.ReassignableTopic;
import dev.spool.protocol.message.AlterPartitionReassignmentsResponseData;
import dev.spool.protocol.message.CreateTopicsRequestData.CreatableReplicaAssignment;
import dev.spool.protocol.message.CreateTopicsRequestData.CreatableTopic;
import dev.spool.protocol.message.ListPartitionReassignmentsRequestData;
import dev.spool.protocol.message.ListPartitionReassignmentsResponseData;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * KIP-455's reassignments through the controller's decisions, on a partition of replicas 1, 2, 3 with a fourth
 * broker to move to, min.insync.replicas 2: started, completed by the leader's AlterPartition, cancelled, refused.
 */
class ReassignmentsTest {

    private static final ElectionRules MIN_ISR_TWO = FixedElectionRules.minIsr(2);

    private MetadataImage image;

    @BeforeEach
    void aPartitionOfThreeReplicasAndAFourthBroker() {
        image = TopicControllerTest.ONE_BROKER;
        for (int id = 2; id <= 4; id++) {
            image = TopicControllerTest.registered(image, id);
        }
        for (int id = 1; id <= 4; id++) {
            apply(BrokerRegistrations.unfence(image, id));
        }
        apply(new TopicController(new TopicDefaults(1, (short) 3, Map.of()), overrides -> null).createTopics(image,
                List.of(new CreatableTopic().setName("t").setNumPartitions(-1).setReplicationFactor((short) -1)
                        .setAssignments(List.of(new CreatableReplicaAssignment().setPartitionIndex(0)
                                .setBrokerIds(List.of(1, 2, 3))))), false));
        assertThat(partition().replicas()).containsExactly(1, 2, 3);
        assertThat(partition().isr()).containsExactly(1, 2, 3);
        assertThat(partition().leader()).isEqualTo(1);
    }

    private PartitionImage partition() {
        return image.topic("t").partitions().get(0);
    }

    private void apply(MetadataChange<?> change) {
        image = ControllerDecisions.applied(image, change);
    }

    /** Reassigns partition 0 of t to {@code replicas} (null: cancels); the partition's answer. */
    private ReassignmentAnswer reassign(List<Integer> replicas, boolean allowReplicationFactorChange) {
        MetadataChange<AlterPartitionReassignmentsResponseData> change = Reassignments.alter(image,
                new AlterPartitionReassignmentsRequestData()
                        .setAllowReplicationFactorChange(allowReplicationFactorChange)
                        .setTopics(List.of(new ReassignableTopic().setName("t").setPartitions(List.of(
                                new ReassignablePartition().setPartitionIndex(0).setReplicas(replicas))))),
                MIN_ISR_TWO);
        apply(change);
        AlterPartitionReassignmentsResponseData.ReassignablePartitionResponse answer =
                change.result().responses().get(0).partitions().get(0);
        return new ReassignmentAnswer(Errors.forCode(answer.errorCode()), answer.errorMessage(), change.records().size());
    }

    private record ReassignmentAnswer(Errors error, String message, int records) {
    }

    private ReassignmentAnswer reassign(List<Integer> replicas) {
        return reassign(replicas, true);
    }

    /** The leader's AlterPartition to {@code isr}; the ISR the controller answers with. */
    private List<Integer> leaderAlters(List<Integer> isr) {
        PartitionImage current = partition();
        var change = ControllerDecisions.leaderAlters(image, "t", isr, MIN_ISR_TWO);
        apply(change);
        var answer = change.result().topics().get(0).partitions().get(0);
        assertThat(Errors.forCode(answer.errorCode())).as("NEW_LEADER_ELECTED when the leadership moved")
                .isEqualTo(partition().leader() == current.leader() ? Errors.NONE : Errors.NEW_LEADER_ELECTED);
        assertThat(answer.isr()).as("the answer is the partition as it is now").isEqualTo(partition().isr());
        assertThat(answer.leaderId()).isEqualTo(partition().leader());
        assertThat(answer.leaderEpoch()).isEqualTo(partition().leaderEpoch());
        assertThat(answer.partitionEpoch()).isEqualTo(partition().partitionEpoch());
        return answer.isr();
    }

    private ListPartitionReassignmentsResponseData listed() {
        return Reassignments.list(image, new ListPartitionReassignmentsRequestData().setTopics(null));
    }

    @Test
    void aMovedReplicaIsAddedFirstAndTheOldOneRemovedOnceTheNewOneIsInSync() {
        assertThat(reassign(List.of(4, 2, 3)).error()).isEqualTo(Errors.NONE);
        assertThat(partition().replicas()).as("target first, then the leaving one").containsExactly(4, 2, 3, 1);
        assertThat(partition().addingReplicas()).containsExactly(4);
        assertThat(partition().removingReplicas()).containsExactly(1);
        assertThat(partition().isr()).as("unchanged until the new replica catches up").containsExactly(1, 2, 3);
        assertThat(partition().leader()).as("the leaving replica leads meanwhile").isEqualTo(1);
        assertThat(listed().topics()).singleElement().satisfies(topic -> {
            assertThat(topic.name()).isEqualTo("t");
            assertThat(topic.partitions()).singleElement().satisfies(ongoing -> {
                assertThat(ongoing.replicas()).containsExactly(4, 2, 3, 1);
                assertThat(ongoing.addingReplicas()).containsExactly(4);
                assertThat(ongoing.removingReplicas()).containsExactly(1);
            });
        });

        leaderAlters(List.of(1, 2, 3, 4));
        assertThat(partition().replicas()).as("completed").containsExactly(4, 2, 3);
        assertThat(partition().addingReplicas()).isEmpty();
        assertThat(partition().removingReplicas()).isEmpty();
        assertThat(partition().isr()).containsExactlyInAnyOrder(2, 3, 4);
        assertThat(partition().leader()).as("the removed leader gave way to an in-sync target replica")
                .isIn(2, 3, 4);
        assertThat(listed().topics()).isEmpty();
    }

    @Test
    void aReassignmentCompletesOnlyOnceEveryTargetReplicaIsInSync() {
        reassign(List.of(4, 2, 3));
        leaderAlters(List.of(1, 4));
        assertThat(partition().reassigning()).as("2 and 3 of the target are out of sync").isTrue();
        leaderAlters(List.of(1, 2, 4));
        assertThat(partition().reassigning()).as("3 of the target is out of sync").isTrue();
        leaderAlters(List.of(1, 2, 3, 4));
        assertThat(partition().reassigning()).isFalse();
        assertThat(partition().isr()).containsExactlyInAnyOrder(2, 3, 4);
    }

    @Test
    void anOverridingReassignmentWaitsForTheTargetReplicasItKeepsFromTheOneBefore() {
        reassign(List.of(4, 2, 3));
        assertThat(reassign(List.of(4, 3, 1)).error()).isEqualTo(Errors.NONE);
        assertThat(partition().addingReplicas()).as("4 was already added").isEmpty();
        assertThat(partition().removingReplicas()).containsExactly(2);
        assertThat(partition().reassigning()).as("4 is not in sync yet: nothing completes").isTrue();
        assertThat(partition().replicas()).containsExactly(4, 3, 1, 2);
        leaderAlters(List.of(1, 2, 3, 4));
        assertThat(partition().replicas()).containsExactly(4, 3, 1);
        assertThat(partition().isr()).containsExactlyInAnyOrder(1, 3, 4);
    }

    @Test
    void replicasLeavingStartANewLeaderEpochEvenWhenTheLeaderStays() {
        int epoch = partition().leaderEpoch();
        reassign(List.of(1, 2, 4));
        assertThat(partition().leaderEpoch()).as("nothing left yet").isEqualTo(epoch);
        leaderAlters(List.of(1, 2, 3, 4));
        assertThat(partition().replicas()).containsExactly(1, 2, 4);
        assertThat(partition().leader()).isEqualTo(1);
        assertThat(partition().leaderEpoch()).as("the leader forgets the follower that left").isEqualTo(epoch + 1);
    }

    @Test
    void aCancelGoesBackToTheReplicasBeforeAndDropsTheAddedOnesFromTheIsr() {
        reassign(List.of(1, 2, 3, 4));
        assertThat(partition().addingReplicas()).containsExactly(4);
        reassign(null);
        assertThat(partition().replicas()).containsExactly(1, 2, 3);
        assertThat(partition().reassigning()).isFalse();
        assertThat(reassign(null).error()).as("nothing left to cancel").isEqualTo(Errors.NO_REASSIGNMENT_IN_PROGRESS);
    }

    @Test
    void aReassignmentWithinTheInSyncReplicasCompletesAtOnce() {
        ReassignmentAnswer shrink = reassign(List.of(2, 3));
        assertThat(shrink.error()).isEqualTo(Errors.NONE);
        assertThat(shrink.records()).isEqualTo(1);
        assertThat(partition().replicas()).containsExactly(2, 3);
        assertThat(partition().isr()).containsExactly(2, 3);
        assertThat(partition().reassigning()).isFalse();
        assertThat(partition().leader()).isEqualTo(2);
    }

    @Test
    void badAssignmentsAreRefusedWithKafkasErrorsAndChangeNothing() {
        PartitionImage before = partition();
        assertThat(reassign(List.of()).error()).isEqualTo(Errors.INVALID_REPLICA_ASSIGNMENT);
        assertThat(reassign(List.of(1, 1, 2)).error()).isEqualTo(Errors.INVALID_REPLICA_ASSIGNMENT);
        ReassignmentAnswer unknown = reassign(List.of(1, 2, 9));
        assertThat(unknown.error()).isEqualTo(Errors.INVALID_REPLICA_ASSIGNMENT);
        assertThat(unknown.message()).contains("broker 9");
        assertThat(reassign(List.of(1, 2, 3, 4), false).error()).isEqualTo(Errors.INVALID_REPLICATION_FACTOR);
        assertThat(reassign(List.of(1, 2, 4), false).error()).as("the same replication factor").isEqualTo(Errors.NONE);
        reassign(null);
        assertThat(partition().replicas()).isEqualTo(before.replicas());

        MetadataChange<AlterPartitionReassignmentsResponseData> missing = Reassignments.alter(image,
                new AlterPartitionReassignmentsRequestData().setTopics(List.of(new ReassignableTopic()
                        .setName("nope").setPartitions(List.of(new ReassignablePartition().setPartitionIndex(0)
                                .setReplicas(List.of(1)))))), MIN_ISR_TWO);
        assertThat(missing.records()).isEmpty();
        assertThat(Errors.forCode(missing.result().responses().get(0).partitions().get(0).errorCode()))
                .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);
    }
}

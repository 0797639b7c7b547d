package dev.spool.broker.group;

import dev.spool.protocol.group.ConsumerGroupCurrentMemberAssignmentValueData;
import dev.spool.protocol.group.ConsumerGroupMemberMetadataValueData;
import dev.spool.protocol.group.ConsumerGroupMemberMetadataValueData.ClassicMemberMetadata;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * A member of a consumer-protocol group (KIP-848): who it is and what it subscribes to (its ConsumerGroupMemberMetadata
 * record; its topic names sorted, as a set), and where it is in reconciling its assignment (its ConsumerGroupCurrentMemberAssignment record): its epoch,
 * the partitions it owns and those it must still revoke. Immutable: a change is a new member.
 *
 * @param classicMetadata  the protocols of a member that joined with the classic protocol (a group being migrated),
 *                         or null
 * @param assignmentEpochs the epoch at which each partition in {@code assigned} was given (KIP-1251)
 */
record ConsumerGroupMember(
        String memberId,
        String instanceId,
        String rackId,
        String clientId,
        String clientHost,
        List<String> subscribedTopicNames,
        String subscribedTopicRegex,
        int rebalanceTimeoutMs,
        String serverAssignor,
        ClassicMemberMetadata classicMetadata,
        int memberEpoch,
        int previousMemberEpoch,
        MemberState state,
        PartitionAssignment assigned,
        PartitionAssignment pendingRevocation,
        AssignmentEpochs assignmentEpochs) {

    /** The epoch of a member that left or was fenced (its current assignment's tombstone). */
    static final int LEFT_EPOCH = -1;

    /** A member known by its id only, before its records say more (compaction may reorder a member's records). */
    static ConsumerGroupMember unknown(String memberId) {
        return new ConsumerGroupMember(memberId, null, null, "", "", List.of(), null, -1, null, null, 0, 0,
                MemberState.STABLE, PartitionAssignment.EMPTY, PartitionAssignment.EMPTY, AssignmentEpochs.EMPTY);
    }

    /** This member with the subscription and identity of its ConsumerGroupMemberMetadata record. */
    ConsumerGroupMember withMetadata(ConsumerGroupMemberMetadataValueData metadata) {
        return new ConsumerGroupMember(memberId, metadata.instanceId(), metadata.rackId(), metadata.clientId(),
                metadata.clientHost(), List.copyOf(new TreeSet<>(metadata.subscribedTopicNames())),
                metadata.subscribedTopicRegex(),
                metadata.rebalanceTimeoutMs(), metadata.serverAssignor(), classicOrNull(metadata.classicMemberMetadata()),
                memberEpoch, previousMemberEpoch, state, assigned, pendingRevocation, assignmentEpochs);
    }

    /**
     * The classic protocols of a member, or null for a consumer-protocol member. Kafka writes null for those; the
     * field's default, which a record without the field reads as, is an empty struct, meaning the same.
     */
    private static ClassicMemberMetadata classicOrNull(ClassicMemberMetadata metadata) {
        return metadata == null || metadata.equals(new ClassicMemberMetadata()) ? null : metadata;
    }

    /**
     * This member with the epochs and partitions of its ConsumerGroupCurrentMemberAssignment record. A partition
     * without an assignment epoch (a record of Kafka before 4.3) counts as given at the member's epoch.
     */
    ConsumerGroupMember withAssignment(ConsumerGroupCurrentMemberAssignmentValueData assignment) {
        AssignmentEpochs.Builder epochs = new AssignmentEpochs.Builder();
        for (ConsumerGroupCurrentMemberAssignmentValueData.TopicPartitions owned : assignment.assignedPartitions()) {
            List<Integer> given = owned.assignmentEpochs();
            for (int i = 0; i < owned.partitions().size(); i++) {
                boolean known = given != null && given.size() == owned.partitions().size();
                epochs.put(owned.topicId(), owned.partitions().get(i),
                        known ? given.get(i) : assignment.memberEpoch());
            }
        }
        return withAssignment(assignment.memberEpoch(), assignment.previousMemberEpoch(),
                MemberState.of(assignment.state()), ownedPartitions(assignment.assignedPartitions()),
                ownedPartitions(assignment.partitionsPendingRevocation()), epochs.build());
    }

    ConsumerGroupMember withAssignment(int newEpoch, int newPreviousEpoch, MemberState newState,
                                       PartitionAssignment newAssigned, PartitionAssignment newPendingRevocation,
                                       AssignmentEpochs newAssignmentEpochs) {
        return new ConsumerGroupMember(memberId, instanceId, rackId, clientId, clientHost, subscribedTopicNames,
                subscribedTopicRegex, rebalanceTimeoutMs, serverAssignor, classicMetadata, newEpoch, newPreviousEpoch,
                newState, newAssigned, newPendingRevocation, newAssignmentEpochs);
    }

    /**
     * A static member rejoining under a new member id (its instance id's earlier member had left with epoch -2): the
     * earlier member's subscription and assignment, at the epoch it left at, under {@code newMemberId}.
     */
    ConsumerGroupMember replacedBy(String newMemberId) {
        return new ConsumerGroupMember(newMemberId, instanceId, rackId, clientId, clientHost, subscribedTopicNames,
                subscribedTopicRegex, rebalanceTimeoutMs, serverAssignor, classicMetadata, previousMemberEpoch,
                previousMemberEpoch, MemberState.STABLE, assigned, PartitionAssignment.EMPTY, assignmentEpochs);
    }

    /** This member with the classic protocols it joined with (a classic member of a consumer group). */
    ConsumerGroupMember withClassicMetadata(ClassicMemberMetadata metadata) {
        return new ConsumerGroupMember(memberId, instanceId, rackId, clientId, clientHost, subscribedTopicNames,
                subscribedTopicRegex, rebalanceTimeoutMs, serverAssignor, metadata, memberEpoch, previousMemberEpoch,
                state, assigned, pendingRevocation, assignmentEpochs);
    }

    /** Whether this is a static member that left with epoch -2 and whose instance id may come back. */
    boolean isAway() {
        return memberEpoch == ConsumerGroupHeartbeats.STATIC_LEAVE_EPOCH;
    }

    /** This member as its current assignment's tombstone leaves it: epoch -1, owning nothing. */
    ConsumerGroupMember withoutAssignment() {
        return withAssignment(LEFT_EPOCH, LEFT_EPOCH, MemberState.STABLE, PartitionAssignment.EMPTY,
                PartitionAssignment.EMPTY, AssignmentEpochs.EMPTY);
    }

    /** Whether this classic member joined with the protocol {@code name} among its supported ones. */
    boolean supportsClassicProtocol(String name) {
        return classicMetadata != null && classicMetadata.supportedProtocols().stream()
                .anyMatch(protocol -> protocol.name().equals(name));
    }

    /**
     * The first of {@code names} every one of the classic {@code members} supports (the protocol their classic group
     * would choose), or null if none.
     */
    static String firstProtocolAllSupport(List<String> names, Collection<ConsumerGroupMember> members) {
        for (String name : names) {
            if (members.stream().allMatch(member -> member.supportsClassicProtocol(name))) {
                return name;
            }
        }
        return null;
    }

    /** Whether the member uses the classic protocol inside a consumer group (a group being migrated). */
    boolean usesClassicProtocol() {
        return classicMetadata != null;
    }

    private static PartitionAssignment ownedPartitions(
            List<ConsumerGroupCurrentMemberAssignmentValueData.TopicPartitions> partitions) {
        return PartitionAssignment.of(partitions,
                ConsumerGroupCurrentMemberAssignmentValueData.TopicPartitions::topicId,
                ConsumerGroupCurrentMemberAssignmentValueData.TopicPartitions::partitions);
    }
}

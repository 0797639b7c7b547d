package dev.spool.broker.group;

import dev.spool.protocol.group.ConsumerGroupCurrentMemberAssignmentKeyData;
import dev.spool.protocol.group.ConsumerGroupCurrentMemberAssignmentValueData;
import dev.spool.protocol.group.ConsumerGroupMemberMetadataKeyData;
import dev.spool.protocol.group.ConsumerGroupMemberMetadataValueData;
import dev.spool.protocol.group.ConsumerGroupMetadataKeyData;
import dev.spool.protocol.group.ConsumerGroupMetadataValueData;
import dev.spool.protocol.group.ConsumerGroupRegularExpressionKeyData;
import dev.spool.protocol.group.ConsumerGroupRegularExpressionValueData;
import dev.spool.protocol.group.ConsumerGroupTargetAssignmentMemberKeyData;
import dev.spool.protocol.group.ConsumerGroupTargetAssignmentMemberValueData;
import dev.spool.protocol.group.ConsumerGroupTargetAssignmentMetadataKeyData;
import dev.spool.protocol.group.ConsumerGroupTargetAssignmentMetadataValueData;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The records of a consumer-protocol group (KIP-848) as Kafka's coordinator writes them (version 0 values), from
 * Spool's model; {@link ConsumerGroupReplay} reads them back. Stateless and thread-safe.
 */
final class ConsumerGroupRecords {

    private static final short VERSION = 0;

    private ConsumerGroupRecords() {
    }

    static CoordinatorRecord groupEpoch(String groupId, int epoch, long metadataHash) {
        return new CoordinatorRecord(GroupRecordType.CONSUMER_GROUP_METADATA.id(),
                new ConsumerGroupMetadataKeyData().setGroupId(groupId), VERSION,
                new ConsumerGroupMetadataValueData().setEpoch(epoch).setMetadataHash(metadataHash));
    }

    /**
     * The tombstones that delete a group, in Kafka's order: each member's records, each resolved regular expression,
     * the target assignment's epoch, and last the group's own record (which removes it on replay).
     */
    static List<CoordinatorRecord> deletion(ConsumerGroup group) {
        String groupId = group.groupId();
        List<CoordinatorRecord> records = new ArrayList<>();
        for (ConsumerGroupMember member : group.members()) {
            records.add(currentAssignmentTombstone(groupId, member.memberId()));
            records.add(targetTombstone(groupId, member.memberId()));
            records.add(memberTombstone(groupId, member.memberId()));
        }
        for (String regex : group.regexes()) {
            records.add(regexTombstone(groupId, regex));
        }
        records.add(new CoordinatorRecord(GroupRecordType.CONSUMER_GROUP_TARGET_ASSIGNMENT_METADATA.id(),
                new ConsumerGroupTargetAssignmentMetadataKeyData().setGroupId(groupId), VERSION, null));
        records.add(new CoordinatorRecord(GroupRecordType.CONSUMER_GROUP_METADATA.id(),
                new ConsumerGroupMetadataKeyData().setGroupId(groupId), VERSION, null));
        return records;
    }

    /**
     * What a regular expression stands for in the group, and a fingerprint ({@code version}) of the topics it
     * matched then: while they are the same, the record holds.
     */
    static CoordinatorRecord regex(String groupId, String regex, Set<String> topics, long version, long timestampMs) {
        return new CoordinatorRecord(GroupRecordType.CONSUMER_GROUP_REGULAR_EXPRESSION.id(),
                new ConsumerGroupRegularExpressionKeyData().setGroupId(groupId).setRegularExpression(regex), VERSION,
                new ConsumerGroupRegularExpressionValueData().setTopics(List.copyOf(new TreeSet<>(topics)))
                        .setVersion(version).setTimestamp(timestampMs));
    }

    static CoordinatorRecord regexTombstone(String groupId, String regex) {
        return new CoordinatorRecord(GroupRecordType.CONSUMER_GROUP_REGULAR_EXPRESSION.id(),
                new ConsumerGroupRegularExpressionKeyData().setGroupId(groupId).setRegularExpression(regex),
                VERSION, null);
    }

    static CoordinatorRecord member(String groupId, ConsumerGroupMember member) {
        return new CoordinatorRecord(GroupRecordType.CONSUMER_GROUP_MEMBER_METADATA.id(),
                new ConsumerGroupMemberMetadataKeyData().setGroupId(groupId).setMemberId(member.memberId()), VERSION,
                new ConsumerGroupMemberMetadataValueData().setInstanceId(member.instanceId())
                        .setRackId(member.rackId()).setClientId(member.clientId()).setClientHost(member.clientHost())
                        .setSubscribedTopicNames(member.subscribedTopicNames())
                        .setSubscribedTopicRegex(member.subscribedTopicRegex())
                        .setRebalanceTimeoutMs(member.rebalanceTimeoutMs()).setServerAssignor(member.serverAssignor())
                        .setClassicMemberMetadata(member.classicMetadata()));
    }

    static CoordinatorRecord memberTombstone(String groupId, String memberId) {
        return new CoordinatorRecord(GroupRecordType.CONSUMER_GROUP_MEMBER_METADATA.id(),
                new ConsumerGroupMemberMetadataKeyData().setGroupId(groupId).setMemberId(memberId), VERSION, null);
    }

    static CoordinatorRecord target(String groupId, String memberId, PartitionAssignment partitions) {
        return new CoordinatorRecord(GroupRecordType.CONSUMER_GROUP_TARGET_ASSIGNMENT_MEMBER.id(),
                new ConsumerGroupTargetAssignmentMemberKeyData().setGroupId(groupId).setMemberId(memberId), VERSION,
                new ConsumerGroupTargetAssignmentMemberValueData().setTopicPartitions(partitions.toList(
                        (topicId, numbers) -> new ConsumerGroupTargetAssignmentMemberValueData.TopicPartition()
                                .setTopicId(topicId).setPartitions(numbers))));
    }

    static CoordinatorRecord targetTombstone(String groupId, String memberId) {
        return new CoordinatorRecord(GroupRecordType.CONSUMER_GROUP_TARGET_ASSIGNMENT_MEMBER.id(),
                new ConsumerGroupTargetAssignmentMemberKeyData().setGroupId(groupId).setMemberId(memberId), VERSION,
                null);
    }

    static CoordinatorRecord targetEpoch(String groupId, int epoch, long timestampMs) {
        return new CoordinatorRecord(GroupRecordType.CONSUMER_GROUP_TARGET_ASSIGNMENT_METADATA.id(),
                new ConsumerGroupTargetAssignmentMetadataKeyData().setGroupId(groupId), VERSION,
                new ConsumerGroupTargetAssignmentMetadataValueData().setAssignmentEpoch(epoch)
                        .setAssignmentTimestamp(timestampMs));
    }

    static CoordinatorRecord currentAssignment(String groupId, ConsumerGroupMember member) {
        return new CoordinatorRecord(GroupRecordType.CONSUMER_GROUP_CURRENT_MEMBER_ASSIGNMENT.id(),
                new ConsumerGroupCurrentMemberAssignmentKeyData().setGroupId(groupId).setMemberId(member.memberId()),
                VERSION, new ConsumerGroupCurrentMemberAssignmentValueData().setMemberEpoch(member.memberEpoch())
                        .setPreviousMemberEpoch(member.previousMemberEpoch()).setState(member.state().value())
                        .setAssignedPartitions(owned(member.assigned(), member.assignmentEpochs()))
                        .setPartitionsPendingRevocation(owned(member.pendingRevocation(), null)));
    }

    static CoordinatorRecord currentAssignmentTombstone(String groupId, String memberId) {
        return new CoordinatorRecord(GroupRecordType.CONSUMER_GROUP_CURRENT_MEMBER_ASSIGNMENT.id(),
                new ConsumerGroupCurrentMemberAssignmentKeyData().setGroupId(groupId).setMemberId(memberId), VERSION,
                null);
    }

    /** The partitions, with the epoch each was given at (KIP-1251's AssignmentEpochs) when {@code epochs} is given. */
    private static List<ConsumerGroupCurrentMemberAssignmentValueData.TopicPartitions> owned(
            PartitionAssignment partitions, AssignmentEpochs epochs) {
        return partitions.toList((topicId, numbers) -> new ConsumerGroupCurrentMemberAssignmentValueData
                .TopicPartitions().setTopicId(topicId).setPartitions(numbers).setAssignmentEpochs(epochs == null
                        ? null : numbers.stream().map(partition -> epochs.epochOf(topicId, partition)).toList()));
    }
}

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
import java.util.Set;

/**
 * Applies a consumer-protocol group's records (KIP-848, types 3 to 8 and 16) to the groups of a shard: on load, and
 * right after the shard wrote them, so that the records are the state. Compaction keeps only the newest record of
 * each key, so a member's records may come before its group's: any record creates what it names, and a tombstone of
 * something unknown changes nothing. Not thread-safe: owned by the coordinator thread.
 */
final class ConsumerGroupReplay {

    /** The consumer groups a replay creates, finds and removes. */
    interface Groups {
        /** The consumer group, created if {@code create} and missing; null if missing and not created. */
        ConsumerGroup consumerGroup(String groupId, boolean create);

        void removeConsumerGroup(String groupId);
    }

    private ConsumerGroupReplay() {
    }

    static void apply(CoordinatorRecord record, Groups groups) {
        switch (GroupRecordType.of(record.keyVersion())) {
            case CONSUMER_GROUP_METADATA -> groupMetadata(record, groups);
            case CONSUMER_GROUP_PARTITION_METADATA -> {
                // Kafka before 4.1 kept the subscribed topics' metadata here; the group's metadata hash replaced it.
            }
            case CONSUMER_GROUP_MEMBER_METADATA -> memberMetadata(record, groups);
            case CONSUMER_GROUP_TARGET_ASSIGNMENT_METADATA -> targetAssignmentMetadata(record, groups);
            case CONSUMER_GROUP_TARGET_ASSIGNMENT_MEMBER -> targetAssignmentMember(record, groups);
            case CONSUMER_GROUP_CURRENT_MEMBER_ASSIGNMENT -> currentMemberAssignment(record, groups);
            case CONSUMER_GROUP_REGULAR_EXPRESSION -> regularExpression(record, groups);
            default -> throw new IllegalArgumentException("Not a consumer group's record: type " + record.keyVersion());
        }
    }

    private static void groupMetadata(CoordinatorRecord record, Groups groups) {
        String groupId = ((ConsumerGroupMetadataKeyData) record.key()).groupId();
        if (record.isTombstone()) {
            groups.removeConsumerGroup(groupId);
            return;
        }
        ConsumerGroupMetadataValueData value = (ConsumerGroupMetadataValueData) record.value();
        groups.consumerGroup(groupId, true).setGroupEpoch(value.epoch(), value.metadataHash());
    }

    private static void memberMetadata(CoordinatorRecord record, Groups groups) {
        ConsumerGroupMemberMetadataKeyData key = (ConsumerGroupMemberMetadataKeyData) record.key();
        ConsumerGroup group = groups.consumerGroup(key.groupId(), !record.isTombstone());
        if (group == null) {
            return;
        }
        if (record.isTombstone()) {
            group.removeMember(key.memberId());
            return;
        }
        group.putMember(memberOrUnknown(group, key.memberId())
                .withMetadata((ConsumerGroupMemberMetadataValueData) record.value()));
    }

    private static void targetAssignmentMetadata(CoordinatorRecord record, Groups groups) {
        if (record.isTombstone()) {
            return; // written as the group is deleted, before the group's own tombstone
        }
        ConsumerGroupTargetAssignmentMetadataValueData value =
                (ConsumerGroupTargetAssignmentMetadataValueData) record.value();
        groups.consumerGroup(((ConsumerGroupTargetAssignmentMetadataKeyData) record.key()).groupId(), true)
                .setAssignmentEpoch(value.assignmentEpoch(), value.assignmentTimestamp());
    }

    private static void targetAssignmentMember(CoordinatorRecord record, Groups groups) {
        ConsumerGroupTargetAssignmentMemberKeyData key = (ConsumerGroupTargetAssignmentMemberKeyData) record.key();
        ConsumerGroup group = groups.consumerGroup(key.groupId(), !record.isTombstone());
        if (group == null) {
            return;
        }
        if (record.isTombstone()) {
            group.removeTarget(key.memberId());
            return;
        }
        group.putTarget(key.memberId(), PartitionAssignment.of(
                ((ConsumerGroupTargetAssignmentMemberValueData) record.value()).topicPartitions(),
                ConsumerGroupTargetAssignmentMemberValueData.TopicPartition::topicId,
                ConsumerGroupTargetAssignmentMemberValueData.TopicPartition::partitions));
    }

    private static void currentMemberAssignment(CoordinatorRecord record, Groups groups) {
        ConsumerGroupCurrentMemberAssignmentKeyData key = (ConsumerGroupCurrentMemberAssignmentKeyData) record.key();
        ConsumerGroup group = groups.consumerGroup(key.groupId(), !record.isTombstone());
        if (group == null) {
            return;
        }
        if (record.isTombstone()) {
            ConsumerGroupMember member = group.member(key.memberId());
            if (member != null) {
                group.putMember(member.withoutAssignment());
            }
            return;
        }
        group.putMember(memberOrUnknown(group, key.memberId())
                .withAssignment((ConsumerGroupCurrentMemberAssignmentValueData) record.value()));
    }

    private static void regularExpression(CoordinatorRecord record, Groups groups) {
        ConsumerGroupRegularExpressionKeyData key = (ConsumerGroupRegularExpressionKeyData) record.key();
        ConsumerGroup group = groups.consumerGroup(key.groupId(), !record.isTombstone());
        if (group == null) {
            return;
        }
        if (record.isTombstone()) {
            group.removeRegex(key.regularExpression());
            return;
        }
        ConsumerGroupRegularExpressionValueData value = (ConsumerGroupRegularExpressionValueData) record.value();
        group.putRegex(key.regularExpression(), new ConsumerGroup.ResolvedRegex(Set.copyOf(value.topics()),
                value.version(), value.timestamp()));
    }

    private static ConsumerGroupMember memberOrUnknown(ConsumerGroup group, String memberId) {
        ConsumerGroupMember member = group.member(memberId);
        return member != null ? member : ConsumerGroupMember.unknown(memberId);
    }
}

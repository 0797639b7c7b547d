package dev.spool.broker.group;

import dev.spool.broker.metadata.TopicImage;
import dev.spool.protocol.Errors;
import dev.spool.protocol.group.ConsumerGroupMemberMetadataValueData.ClassicMemberMetadata;
import dev.spool.protocol.message.ConsumerGroupHeartbeatRequestData;
import dev.spool.protocol.message.ConsumerGroupHeartbeatResponseData;
import dev.spool.protocol.message.ConsumerProtocolSubscriptionData;
import dev.spool.protocol.message.HeartbeatRequestData;
import dev.spool.protocol.message.JoinGroupResponseData;
import dev.spool.protocol.message.LeaveGroupRequestData;
import dev.spool.protocol.message.LeaveGroupRequestData.MemberIdentity;
import dev.spool.protocol.message.LeaveGroupResponseData;
import dev.spool.protocol.message.LeaveGroupResponseData.MemberResponse;
import dev.spool.protocol.message.SyncGroupRequestData;
import dev.spool.protocol.message.SyncGroupResponseData;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Classic members of a consumer group (a group being migrated, KIP-848): they keep sending JoinGroup, SyncGroup,
 * Heartbeat and LeaveGroup, and the coordinator treats them as members of the consumer group. A JoinGroup stands for
 * a full heartbeat (the subscription, and the partitions the member says it owns) and is answered at once with the
 * member's epoch as the generation and no leader, so the member assigns nothing; its SyncGroup gets the partitions
 * the coordinator gave it. While the member is not at the group's epoch with nothing left to revoke, its heartbeats
 * are answered REBALANCE_IN_PROGRESS, so it joins again and moves on one step. Not thread-safe: owned by the
 * coordinator thread.
 */
final class ConsumerGroupClassicMembers {

    private final GroupCoordinatorShard shard;

    ConsumerGroupClassicMembers(GroupCoordinatorShard shard) {
        this.shard = shard;
    }

    JoinGroupResponseData join(ConsumerGroup group, ClassicGroupMembership.JoinRequest request) {
        String memberId = request.data().memberId() == null ? "" : request.data().memberId();
        String instanceId = request.data().groupInstanceId();
        if (!GroupAdministration.CONSUMER_TYPE.equals(request.data().protocolType())
                || request.protocols().isEmpty() || protocolOf(group, request.protocolNames()) == null) {
            return ClassicGroupMembership.joinErrorResponse(Errors.INCONSISTENT_GROUP_PROTOCOL, memberId);
        }
        ConsumerProtocolSubscriptionData subscription = ConsumerProtocolBytes.subscription(
                request.protocols().get(0).metadata());
        if (subscription == null) {
            return ClassicGroupMembership.joinErrorResponse(Errors.INCONSISTENT_GROUP_PROTOCOL, memberId);
        }
        if (memberId.isEmpty()) {
            memberId = UUID.randomUUID().toString();
            if (instanceId == null && request.version() >= ClassicGroupMembership.FIRST_MEMBER_ID_REQUIRED_VERSION) {
                return ClassicGroupMembership.joinErrorResponse(Errors.MEMBER_ID_REQUIRED, memberId);
            }
        }
        ConsumerGroupMember holder = instanceId == null ? null : group.staticMember(instanceId);
        boolean named = request.data().memberId() != null && !request.data().memberId().isEmpty();
        if (holder != null && !holder.memberId().equals(memberId) && named) {
            // A static member replaced by a newer one under its instance id: fenced, as in a classic group.
            return ClassicGroupMembership.joinErrorResponse(Errors.FENCED_INSTANCE_ID, memberId);
        }
        if (holder != null && !holder.memberId().equals(memberId) && holder.usesClassicProtocol() && !holder.isAway()
                && !awayFor(group, holder)) {
            return ClassicGroupMembership.joinErrorResponse(Errors.NOT_COORDINATOR, memberId);
        }
        ConsumerGroupMember member = group.member(memberId);
        // A static member that is away (its instance left with -2) comes back as any joining member does.
        int epoch = member == null || member.isAway() ? 0 : member.memberEpoch();
        ConsumerGroupHeartbeatRequestData heartbeat = new ConsumerGroupHeartbeatRequestData()
                .setGroupId(group.groupId()).setMemberId(memberId).setMemberEpoch(epoch).setInstanceId(instanceId)
                .setRackId(subscription.rackId() == null || subscription.rackId().isEmpty() ? null
                        : subscription.rackId())
                .setRebalanceTimeoutMs(request.rebalanceTimeoutMs())
                .setSubscribedTopicNames(subscription.topics())
                .setTopicPartitions(epoch == 0 ? List.of() : owned(subscription));
        ClassicMemberMetadata classic = GroupMigration.classicMetadata(request.data().sessionTimeoutMs(),
                request.protocols());
        ConsumerGroupHeartbeatResponseData answer = shard.consumerHeartbeats().memberHeartbeat(group.groupId(),
                group, heartbeat, classic, request.clientId(), request.clientHost(), null);
        if (answer.errorCode() != Errors.NONE.code()) {
            Errors error = Errors.forCode(answer.errorCode());
            return ClassicGroupMembership.joinErrorResponse(error == Errors.FENCED_MEMBER_EPOCH
                    ? Errors.UNKNOWN_MEMBER_ID : error, memberId);
        }
        ConsumerGroup current = shard.consumerGroup(group.groupId(), false);
        return new JoinGroupResponseData().setErrorCode(Errors.NONE.code()).setGenerationId(answer.memberEpoch())
                .setProtocolType(GroupAdministration.CONSUMER_TYPE)
                .setProtocolName(protocolOf(current, request.protocolNames())).setLeader("").setMemberId(memberId)
                .setMembers(List.of());
    }

    /**
     * A classic static member coming back under a new member id fences the one its instance id names, as in a
     * classic group: that member is made away (as a consumer-protocol member leaving with epoch -2), so the new one
     * takes over its partitions. False if that could not be written.
     */
    private boolean awayFor(ConsumerGroup group, ConsumerGroupMember holder) {
        ConsumerGroupHeartbeatRequestData leave = new ConsumerGroupHeartbeatRequestData().setGroupId(group.groupId())
                .setMemberId(holder.memberId()).setInstanceId(holder.instanceId())
                .setMemberEpoch(ConsumerGroupHeartbeats.STATIC_LEAVE_EPOCH);
        return shard.consumerHeartbeats().memberHeartbeat(group.groupId(), group, leave, null, holder.clientId(),
                holder.clientHost(), null).errorCode() == Errors.NONE.code();
    }

    SyncGroupResponseData sync(ConsumerGroup group, SyncGroupRequestData request) {
        ConsumerGroupMember member = group.member(request.memberId());
        Errors invalid = validate(group, request.memberId(), request.groupInstanceId(), request.generationId());
        if (invalid == null && (request.protocolType() != null
                && !GroupAdministration.CONSUMER_TYPE.equals(request.protocolType())
                || request.protocolName() != null && !member.supportsClassicProtocol(request.protocolName()))) {
            invalid = Errors.INCONSISTENT_GROUP_PROTOCOL;
        }
        if (invalid != null) {
            return ClassicGroupMembership.syncError(invalid);
        }
        shard.consumerHeartbeats().scheduleSession(group.groupId(), member.memberId());
        return new SyncGroupResponseData().setErrorCode(Errors.NONE.code())
                .setProtocolType(GroupAdministration.CONSUMER_TYPE).setProtocolName(request.protocolName())
                .setAssignment(ConsumerProtocolBytes.assignment(member.assigned(),
                        ConsumerGroupDescriber.topicNames(shard, group)));
    }

    /** NONE, or REBALANCE_IN_PROGRESS while the member has a step to take (it joins again to take it). */
    Errors heartbeat(ConsumerGroup group, HeartbeatRequestData request) {
        ConsumerGroupMember member = group.member(request.memberId());
        Errors invalid = validate(group, request.memberId(), request.groupInstanceId(), request.generationId());
        if (invalid != null) {
            return invalid;
        }
        shard.consumerHeartbeats().scheduleSession(group.groupId(), member.memberId());
        boolean reconciled = member.state() == MemberState.STABLE && member.memberEpoch() == group.assignmentEpoch()
                && group.assignmentEpoch() == group.groupEpoch();
        return reconciled ? Errors.NONE : Errors.REBALANCE_IN_PROGRESS;
    }

    LeaveGroupResponseData leave(ConsumerGroup group, LeaveGroupRequestData request, short version) {
        List<MemberIdentity> leaving = version < 3 ? List.of(new MemberIdentity().setMemberId(request.memberId()))
                : request.members();
        List<MemberResponse> responses = new ArrayList<>();
        for (MemberIdentity identity : leaving) {
            ConsumerGroup current = shard.consumerGroup(group.groupId(), false);
            ClassicGroup downgraded = shard.group(group.groupId());
            // An earlier identity's leave may have made the group a classic one: the rest leave that.
            Errors error = current != null ? leaveOne(current, identity)
                    : downgraded != null ? shard.membership().leaveOne(downgraded, identity) : Errors.UNKNOWN_MEMBER_ID;
            responses.add(new MemberResponse().setMemberId(identity.memberId())
                    .setGroupInstanceId(identity.groupInstanceId()).setErrorCode(error.code()));
        }
        LeaveGroupResponseData response = new LeaveGroupResponseData().setMembers(responses);
        if (version < 3) {
            response.setErrorCode(responses.get(0).errorCode());
        }
        return response;
    }

    private Errors leaveOne(ConsumerGroup group, MemberIdentity identity) {
        ConsumerGroupMember member = identity.groupInstanceId() != null
                ? group.staticMember(identity.groupInstanceId()) : group.member(identity.memberId());
        if (member == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (identity.memberId() != null && !identity.memberId().isEmpty()
                && !identity.memberId().equals(member.memberId())) {
            return Errors.FENCED_INSTANCE_ID;
        }
        return shard.consumerHeartbeats().remove(group, member.memberId()) ? Errors.NONE : Errors.NOT_COORDINATOR;
    }

    /**
     * Null if {@code memberId} is a classic member of the group at {@code generation} (its epoch); else
     * FENCED_INSTANCE_ID when its instance id now names another member (checked first: a replaced static member must
     * stop, not rejoin), UNKNOWN_MEMBER_ID, or ILLEGAL_GENERATION.
     */
    static Errors validate(ConsumerGroup group, String memberId, String instanceId, int generation) {
        ConsumerGroupMember holder = instanceId == null ? null : group.staticMember(instanceId);
        if (holder != null && !holder.memberId().equals(memberId)) {
            return Errors.FENCED_INSTANCE_ID;
        }
        ConsumerGroupMember member = group.member(memberId);
        if (member == null || !member.usesClassicProtocol()) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        return generation == member.memberEpoch() ? null : Errors.ILLEGAL_GENERATION;
    }

    /**
     * The protocol a joining member's classic group would choose: its first that every classic member of the group
     * also supports; null if none (INCONSISTENT_GROUP_PROTOCOL).
     */
    private static String protocolOf(ConsumerGroup group, List<String> names) {
        return ConsumerGroupMember.firstProtocolAllSupport(names,
                group.members().stream().filter(ConsumerGroupMember::usesClassicProtocol).toList());
    }

    /** The partitions the member says it owns (subscription v1+), by topic id; unknown topics left out. */
    private List<ConsumerGroupHeartbeatRequestData.TopicPartitions> owned(ConsumerProtocolSubscriptionData data) {
        List<ConsumerGroupHeartbeatRequestData.TopicPartitions> owned = new ArrayList<>();
        for (ConsumerProtocolSubscriptionData.TopicPartition topic : data.ownedPartitions()) {
            TopicImage image = shard.topic(topic.topic());
            if (image != null) {
                owned.add(new ConsumerGroupHeartbeatRequestData.TopicPartitions().setTopicId(image.id())
                        .setPartitions(topic.partitions()));
            }
        }
        return owned;
    }
}

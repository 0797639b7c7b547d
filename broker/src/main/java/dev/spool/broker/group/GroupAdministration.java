package dev.spool.broker.group;

import dev.spool.protocol.Errors;
import dev.spool.protocol.message.DeleteGroupsResponseData.DeletableGroupResult;
import dev.spool.protocol.message.DescribeGroupsResponseData.DescribedGroup;
import dev.spool.protocol.message.DescribeGroupsResponseData.DescribedGroupMember;
import dev.spool.protocol.message.ListGroupsResponseData.ListedGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * DescribeGroups, ListGroups and DeleteGroups against one shard. Not thread-safe: owned by the
 * coordinator thread.
 */
final class GroupAdministration {

    /** DescribeGroups v6 answers an unknown group with GROUP_ID_NOT_FOUND (KIP-1043); older versions with Dead. */
    private static final short FIRST_GROUP_NOT_FOUND_VERSION = 6;
    /** Every classic group is of type "classic", whatever its protocol type (KIP-1043). */
    static final String CLASSIC_TYPE = "classic";
    /** The type (and protocol type) of a consumer-protocol group (KIP-848). */
    static final String CONSUMER_TYPE = "consumer";
    /** authorizedOperations when the client did not ask for them. */
    private static final int OPERATIONS_NOT_REQUESTED = Integer.MIN_VALUE;

    private GroupAdministration() {
    }

    static DescribedGroup describe(GroupCoordinatorShard shard, String groupId, short version) {
        ClassicGroup group = shard.group(groupId);
        DescribedGroup described = new DescribedGroup().setGroupId(groupId).setAuthorizedOperations(
                OPERATIONS_NOT_REQUESTED);
        if (group == null || group.isIn(GroupState.DEAD)) {
            // A consumer group is described by ConsumerGroupDescribe; here it is not a (classic) group, as in Kafka.
            described.setGroupState(GroupState.DEAD.displayName()).setProtocolType("").setProtocolData("");
            if (version >= FIRST_GROUP_NOT_FOUND_VERSION) {
                described.setErrorCode(Errors.GROUP_ID_NOT_FOUND.code()).setErrorMessage(
                        shard.consumerGroup(groupId, false) != null ? "Group " + groupId + " is not a classic group."
                                : "Group " + groupId + " not found.");
            }
            return described;
        }
        boolean stable = group.isIn(GroupState.STABLE);
        List<DescribedGroupMember> members = new ArrayList<>();
        for (Member member : group.members()) {
            byte[] metadata = stable ? member.metadata(group.protocolName()) : null;
            members.add(new DescribedGroupMember()
                    .setMemberId(member.memberId())
                    .setGroupInstanceId(member.groupInstanceId())
                    .setClientId(member.clientId())
                    .setClientHost(member.clientHost())
                    .setMemberMetadata(metadata == null ? new byte[0] : metadata)
                    .setMemberAssignment(stable ? member.assignment() : new byte[0]));
        }
        return described.setErrorCode(Errors.NONE.code())
                .setGroupState(group.state().displayName())
                .setProtocolType(group.protocolType() == null ? "" : group.protocolType())
                .setProtocolData(stable && group.protocolName() != null ? group.protocolName() : "")
                .setMembers(members);
    }

    /**
     * The shard's groups, classic and consumer-protocol, in any of {@code states} (display names in lower case; all
     * when empty), of any of {@code types} (all when empty).
     */
    static List<ListedGroup> list(GroupCoordinatorShard shard, Set<String> states, Set<String> types) {
        List<ListedGroup> listed = new ArrayList<>();
        if (types.isEmpty() || types.contains(CLASSIC_TYPE)) {
            for (ClassicGroup group : shard.groups()) {
                if (!group.isIn(GroupState.DEAD) && matches(states, group.state().displayName())) {
                    listed.add(new ListedGroup().setGroupId(group.groupId())
                            .setProtocolType(group.protocolType() == null ? "" : group.protocolType())
                            .setGroupState(group.state().displayName()).setGroupType(CLASSIC_TYPE));
                }
            }
        }
        if (types.isEmpty() || types.contains(CONSUMER_TYPE)) {
            for (ConsumerGroup group : shard.consumerGroups()) {
                if (matches(states, group.state().displayName())) {
                    listed.add(new ListedGroup().setGroupId(group.groupId()).setProtocolType(CONSUMER_TYPE)
                            .setGroupState(group.state().displayName()).setGroupType(CONSUMER_TYPE));
                }
            }
        }
        return listed;
    }

    private static boolean matches(Set<String> states, String state) {
        return states.isEmpty() || states.contains(state.toLowerCase(Locale.ROOT));
    }

    /**
     * Deletes an empty group, classic or consumer, and its offsets: tombstones for each, appended before the answer.
     * A consumer group with a static member away (left with epoch -2) is not empty.
     */
    static DeletableGroupResult delete(GroupCoordinatorShard shard, String groupId) {
        DeletableGroupResult result = new DeletableGroupResult().setGroupId(groupId);
        ClassicGroup group = shard.group(groupId);
        ConsumerGroup consumerGroup = shard.consumerGroup(groupId, false);
        if (consumerGroup != null) {
            if (!consumerGroup.isEmpty()) {
                return result.setErrorCode(Errors.NON_EMPTY_GROUP.code());
            }
        } else if (group == null || group.isIn(GroupState.DEAD)) {
            return result.setErrorCode(Errors.GROUP_ID_NOT_FOUND.code());
        } else if (!group.isIn(GroupState.EMPTY) || !group.pendingMembers().isEmpty()) {
            return result.setErrorCode(Errors.NON_EMPTY_GROUP.code());
        }
        List<CoordinatorRecord> tombstones = new ArrayList<>();
        for (Map.Entry<String, TreeMap<Integer, CommittedOffset>> topic : shard.offsets().offsets(groupId).entrySet()) {
            for (Integer partition : topic.getValue().keySet()) {
                tombstones.add(CoordinatorRecord.offsetTombstone(groupId, topic.getKey(), partition));
            }
        }
        tombstones.addAll(consumerGroup != null ? ConsumerGroupRecords.deletion(consumerGroup)
                : List.of(CoordinatorRecord.groupTombstone(groupId)));
        if (!shard.write(tombstones)) {
            return result.setErrorCode(Errors.COORDINATOR_NOT_AVAILABLE.code());
        }
        return result.setErrorCode(Errors.NONE.code());
    }
}

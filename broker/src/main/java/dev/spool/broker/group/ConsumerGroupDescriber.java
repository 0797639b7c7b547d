package dev.spool.broker.group;

import dev.spool.broker.metadata.TopicImage;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ConsumerGroupDescribeResponseData.Assignment;
import dev.spool.protocol.message.ConsumerGroupDescribeResponseData.DescribedGroup;
import dev.spool.protocol.message.ConsumerGroupDescribeResponseData.Member;
import dev.spool.protocol.message.ConsumerGroupDescribeResponseData.TopicPartitions;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * ConsumerGroupDescribe's answer for one group (KIP-848): its state and epochs, and each member with what it owns and
 * what the target gives it, topics named as the metadata names them now. A group that is not a consumer-protocol
 * group is GROUP_ID_NOT_FOUND, which Kafka's admin client takes as its cue to ask with DescribeGroups. Stateless.
 */
final class ConsumerGroupDescriber {

    /** DescribedGroup.authorizedOperations when the client did not ask for them. */
    private static final int OPERATIONS_NOT_REQUESTED = Integer.MIN_VALUE;
    private static final byte CLASSIC_MEMBER = 0;
    private static final byte CONSUMER_MEMBER = 1;

    private ConsumerGroupDescriber() {
    }

    static DescribedGroup describe(GroupCoordinatorShard shard, String groupId) {
        DescribedGroup described = new DescribedGroup().setGroupId(groupId)
                .setAuthorizedOperations(OPERATIONS_NOT_REQUESTED);
        ConsumerGroup group = shard.consumerGroup(groupId, false);
        if (group == null) {
            return described.setErrorCode(Errors.GROUP_ID_NOT_FOUND.code()).setGroupState("Dead")
                    .setErrorMessage(shard.group(groupId) == null ? "Group " + groupId + " not found."
                            : "Group " + groupId + " is not a consumer group.");
        }
        Map<Uuid, String> names = topicNames(shard, group);
        List<Member> members = new ArrayList<>();
        for (ConsumerGroupMember member : group.members()) {
            members.add(new Member().setMemberId(member.memberId()).setInstanceId(member.instanceId())
                    .setRackId(member.rackId()).setMemberEpoch(member.memberEpoch()).setClientId(member.clientId())
                    .setClientHost(member.clientHost()).setSubscribedTopicNames(member.subscribedTopicNames())
                    .setSubscribedTopicRegex(member.subscribedTopicRegex())
                    .setAssignment(assignment(member.assigned(), names))
                    .setTargetAssignment(assignment(group.target(member.memberId()), names))
                    .setMemberType(member.usesClassicProtocol() ? CLASSIC_MEMBER : CONSUMER_MEMBER));
        }
        return described.setErrorCode(Errors.NONE.code()).setGroupState(group.state().displayName())
                .setGroupEpoch(group.groupEpoch()).setAssignmentEpoch(group.assignmentEpoch())
                .setAssignorName(ServerAssignor.chosenBy(group.members(), shard.settings().consumer().assignors())
                        .assignorName()).setMembers(members);
    }

    /**
     * The names of the topics the members subscribe to, by name or by a regular expression, by id (an assignment
     * names topics by id).
     */
    static Map<Uuid, String> topicNames(GroupCoordinatorShard shard, ConsumerGroup group) {
        Set<String> subscribed = new HashSet<>();
        group.members().forEach(member -> subscribed.addAll(member.subscribedTopicNames()));
        group.regexes().forEach(regex -> subscribed.addAll(group.regex(regex).topics()));
        Map<Uuid, String> names = new HashMap<>();
        for (String name : subscribed) {
            TopicImage topic = shard.topic(name);
            if (topic != null) {
                names.put(topic.id(), name);
            }
        }
        return names;
    }

    private static Assignment assignment(PartitionAssignment partitions, Map<Uuid, String> names) {
        return new Assignment().setTopicPartitions(partitions.toList((topicId, numbers) -> new TopicPartitions()
                .setTopicId(topicId).setTopicName(names.getOrDefault(topicId, "")).setPartitions(numbers)));
    }
}

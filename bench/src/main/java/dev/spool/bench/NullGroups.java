package dev.spool.bench;

import dev.spool.broker.api.ApiRegistry;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.FindCoordinatorRequestData;
import dev.spool.protocol.message.FindCoordinatorResponseData;
import dev.spool.protocol.message.HeartbeatResponseData;
import dev.spool.protocol.message.JoinGroupRequestData;
import dev.spool.protocol.message.JoinGroupResponseData;
import dev.spool.protocol.message.LeaveGroupRequestData;
import dev.spool.protocol.message.LeaveGroupResponseData;
import dev.spool.protocol.message.OffsetCommitRequestData;
import dev.spool.protocol.message.OffsetCommitResponseData;
import dev.spool.protocol.message.OffsetFetchRequestData;
import dev.spool.protocol.message.OffsetFetchResponseData;
import dev.spool.protocol.message.SyncGroupRequestData;
import dev.spool.protocol.message.SyncGroupResponseData;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.IntSupplier;

/**
 * For {@link NullBroker}: the least of the classic group protocol a consumer needs to start reading,
 * answered at once. Every JoinGroup makes a group of one (the joiner, its leader, generation 1), so it
 * serves one consumer per group, as {@code ConsumerPerformance} is; no offset is kept (every group
 * starts from {@code auto.offset.reset}) and commits are acknowledged and dropped. Stateless.
 */
final class NullGroups {

    private static final int GENERATION = 1;

    private NullGroups() {
    }

    /** Registers the group APIs, answering as node {@code nodeId} at 127.0.0.1 and {@code port}. */
    static void register(ApiRegistry registry, int nodeId, IntSupplier port) {
        registry.register(ApiKey.FIND_COORDINATOR, 4, ApiKey.FIND_COORDINATOR.highestVersion,
                        (context, request) -> NullBroker.answer(
                                findCoordinator((FindCoordinatorRequestData) request, nodeId, port.getAsInt())))
                .register(ApiKey.JOIN_GROUP, 4, ApiKey.JOIN_GROUP.highestVersion,
                        (context, request) -> NullBroker.answer(join((JoinGroupRequestData) request)))
                .register(ApiKey.SYNC_GROUP, 3, ApiKey.SYNC_GROUP.highestVersion,
                        (context, request) -> NullBroker.answer(sync((SyncGroupRequestData) request)))
                .register(ApiKey.HEARTBEAT, 3, ApiKey.HEARTBEAT.highestVersion,
                        (context, request) -> NullBroker.answer(new HeartbeatResponseData()))
                .register(ApiKey.LEAVE_GROUP, 3, ApiKey.LEAVE_GROUP.highestVersion,
                        (context, request) -> NullBroker.answer(leave((LeaveGroupRequestData) request)))
                .register(ApiKey.OFFSET_FETCH, 8, ApiKey.OFFSET_FETCH.highestVersion,
                        (context, request) -> NullBroker.answer(offsetFetch((OffsetFetchRequestData) request)))
                .register(ApiKey.OFFSET_COMMIT, 2, ApiKey.OFFSET_COMMIT.highestVersion,
                        (context, request) -> NullBroker.answer(offsetCommit((OffsetCommitRequestData) request)));
    }

    private static FindCoordinatorResponseData findCoordinator(FindCoordinatorRequestData request, int nodeId,
                                                               int port) {
        List<FindCoordinatorResponseData.Coordinator> coordinators = new ArrayList<>();
        for (String key : request.coordinatorKeys()) {
            coordinators.add(new FindCoordinatorResponseData.Coordinator().setKey(key).setNodeId(nodeId)
                    .setHost("127.0.0.1").setPort(port));
        }
        return new FindCoordinatorResponseData().setCoordinators(coordinators);
    }

    private static JoinGroupResponseData join(JoinGroupRequestData request) {
        String memberId = request.memberId() == null || request.memberId().isEmpty()
                ? "member-" + UUID.randomUUID() : request.memberId();
        JoinGroupRequestData.JoinGroupRequestProtocol chosen = request.protocols().get(0);
        List<JoinGroupResponseData.JoinGroupResponseMember> members = new ArrayList<>();
        members.add(new JoinGroupResponseData.JoinGroupResponseMember().setMemberId(memberId)
                .setMetadata(chosen.metadata()));
        return new JoinGroupResponseData().setGenerationId(GENERATION).setProtocolType(request.protocolType())
                .setProtocolName(chosen.name()).setLeader(memberId).setMemberId(memberId).setMembers(members);
    }

    private static SyncGroupResponseData sync(SyncGroupRequestData request) {
        byte[] assignment = new byte[0];
        for (SyncGroupRequestData.SyncGroupRequestAssignment given : request.assignments()) {
            if (given.memberId().equals(request.memberId())) {
                assignment = given.assignment();
            }
        }
        return new SyncGroupResponseData().setProtocolType(request.protocolType())
                .setProtocolName(request.protocolName()).setAssignment(assignment);
    }

    private static LeaveGroupResponseData leave(LeaveGroupRequestData request) {
        List<LeaveGroupResponseData.MemberResponse> members = new ArrayList<>();
        for (LeaveGroupRequestData.MemberIdentity member : request.members()) {
            members.add(new LeaveGroupResponseData.MemberResponse().setMemberId(member.memberId())
                    .setGroupInstanceId(member.groupInstanceId()));
        }
        return new LeaveGroupResponseData().setMembers(members);
    }

    /** No group has a committed offset. */
    private static OffsetFetchResponseData offsetFetch(OffsetFetchRequestData request) {
        List<OffsetFetchResponseData.OffsetFetchResponseGroup> groups = new ArrayList<>();
        for (OffsetFetchRequestData.OffsetFetchRequestGroup group : request.groups()) {
            List<OffsetFetchResponseData.OffsetFetchResponseTopics> topics = new ArrayList<>();
            for (OffsetFetchRequestData.OffsetFetchRequestTopics topic : group.topics() == null
                    ? List.<OffsetFetchRequestData.OffsetFetchRequestTopics>of() : group.topics()) {
                List<OffsetFetchResponseData.OffsetFetchResponsePartitions> partitions = new ArrayList<>();
                for (int index : topic.partitionIndexes()) {
                    partitions.add(new OffsetFetchResponseData.OffsetFetchResponsePartitions().setPartitionIndex(index)
                            .setCommittedOffset(-1).setCommittedLeaderEpoch(-1).setMetadata(""));
                }
                topics.add(new OffsetFetchResponseData.OffsetFetchResponseTopics().setName(topic.name())
                        .setTopicId(topic.topicId()).setPartitions(partitions));
            }
            groups.add(new OffsetFetchResponseData.OffsetFetchResponseGroup().setGroupId(group.groupId())
                    .setTopics(topics));
        }
        return new OffsetFetchResponseData().setGroups(groups);
    }

    private static OffsetCommitResponseData offsetCommit(OffsetCommitRequestData request) {
        List<OffsetCommitResponseData.OffsetCommitResponseTopic> topics = new ArrayList<>();
        for (OffsetCommitRequestData.OffsetCommitRequestTopic topic : request.topics()) {
            List<OffsetCommitResponseData.OffsetCommitResponsePartition> partitions = new ArrayList<>();
            for (OffsetCommitRequestData.OffsetCommitRequestPartition partition : topic.partitions()) {
                partitions.add(new OffsetCommitResponseData.OffsetCommitResponsePartition()
                        .setPartitionIndex(partition.partitionIndex()));
            }
            topics.add(new OffsetCommitResponseData.OffsetCommitResponseTopic().setName(topic.name())
                    .setTopicId(topic.topicId()).setPartitions(partitions));
        }
        return new OffsetCommitResponseData().setTopics(topics);
    }
}

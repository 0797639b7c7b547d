package dev.spool.broker.group;

import dev.spool.broker.metadata.TopicImage;
import dev.spool.protocol.message.ConsumerGroupHeartbeatRequestData;
import dev.spool.protocol.message.ConsumerGroupHeartbeatResponseData;
import dev.spool.protocol.message.HeartbeatRequestData;
import dev.spool.protocol.message.JoinGroupRequestData;
import dev.spool.protocol.message.JoinGroupRequestData.JoinGroupRequestProtocol;
import dev.spool.protocol.message.JoinGroupResponseData;
import dev.spool.protocol.message.LeaveGroupRequestData;
import dev.spool.protocol.message.LeaveGroupRequestData.MemberIdentity;
import dev.spool.protocol.message.LeaveGroupResponseData;
import dev.spool.protocol.message.OffsetCommitRequestData;
import dev.spool.protocol.message.OffsetCommitRequestData.OffsetCommitRequestPartition;
import dev.spool.protocol.message.OffsetCommitRequestData.OffsetCommitRequestTopic;
import dev.spool.protocol.message.OffsetCommitResponseData;
import dev.spool.protocol.message.SyncGroupRequestData;
import dev.spool.protocol.message.SyncGroupRequestData.SyncGroupRequestAssignment;
import dev.spool.protocol.message.SyncGroupResponseData;
import dev.spool.protocol.Errors;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * One shard on an in-memory log and a manual timer, with helpers that send the requests a consumer
 * sends. Not thread-safe.
 */
final class ShardFixture {

    static final int SESSION_TIMEOUT_MS = 10_000;
    static final int REBALANCE_TIMEOUT_MS = 30_000;

    final ManualTimer timer = new ManualTimer();
    final InMemoryCoordinatorLog log;
    final GroupSettings settings;
    private final Function<String, TopicImage> topics;
    GroupCoordinatorShard shard;

    ShardFixture(GroupSettings settings) throws IOException {
        this(settings, new InMemoryCoordinatorLog());
    }

    ShardFixture(GroupSettings settings, InMemoryCoordinatorLog log) throws IOException {
        this(settings, log, name -> null);
    }

    /** A shard whose consumer groups find their topics with {@code topics}. */
    ShardFixture(GroupSettings settings, InMemoryCoordinatorLog log, Function<String, TopicImage> topics)
            throws IOException {
        this.settings = settings;
        this.log = log;
        this.topics = topics;
        this.shard = new GroupCoordinatorShard(7, log, timer, timer::nowMs, settings, topics);
        shard.load();
    }

    /** Kafka's defaults with the initial delay given. */
    static GroupSettings settings(int initialDelayMs, int maxSize) {
        GroupSettings defaults = GroupSettings.defaults();
        return new GroupSettings(defaults.numPartitions(), defaults.replicationFactor(), defaults.segmentBytes(),
                initialDelayMs, defaults.minSessionTimeoutMs(), defaults.maxSessionTimeoutMs(), maxSize,
                defaults.offsetsRetentionMs(), defaults.offsetsRetentionCheckIntervalMs(),
                defaults.offsetMetadataMaxBytes(), defaults.consumer());
    }

    /** A consumer subscription (ConsumerProtocolSubscription v0) to {@code topics}. */
    static byte[] subscription(String... topics) {
        int size = 2 + 4;
        for (String topic : topics) {
            size += 2 + topic.getBytes(StandardCharsets.UTF_8).length;
        }
        ByteBuffer buffer = ByteBuffer.allocate(size + 4);
        buffer.putShort((short) 0).putInt(topics.length);
        for (String topic : topics) {
            byte[] name = topic.getBytes(StandardCharsets.UTF_8);
            buffer.putShort((short) name.length).put(name);
        }
        buffer.putInt(-1);
        return buffer.array();
    }

    CompletableFuture<JoinGroupResponseData> join(String groupId, String memberId, String instanceId, short version,
                                                  String... protocols) {
        List<JoinGroupRequestProtocol> list = new ArrayList<>();
        for (String protocol : protocols) {
            list.add(new JoinGroupRequestProtocol().setName(protocol).setMetadata(subscription("topic")));
        }
        JoinGroupRequestData data = new JoinGroupRequestData()
                .setGroupId(groupId)
                .setSessionTimeoutMs(SESSION_TIMEOUT_MS)
                .setRebalanceTimeoutMs(REBALANCE_TIMEOUT_MS)
                .setMemberId(memberId)
                .setGroupInstanceId(instanceId)
                .setProtocolType("consumer")
                .setProtocols(list);
        return shard.membership().join(new ClassicGroupMembership.JoinRequest(data, version, "client", "/127.0.0.1"));
    }

    /** A dynamic member's first join (v9): the MEMBER_ID_REQUIRED round trip, then the parked join. */
    CompletableFuture<JoinGroupResponseData> joinNew(String groupId) {
        JoinGroupResponseData first = join(groupId, "", null, (short) 9, "range").join();
        if (first.errorCode() != Errors.MEMBER_ID_REQUIRED.code()) {
            throw new AssertionError("expected MEMBER_ID_REQUIRED, got " + first);
        }
        return join(groupId, first.memberId(), null, (short) 9, "range");
    }

    CompletableFuture<SyncGroupResponseData> sync(String groupId, int generation, String memberId,
                                                  Map<String, String> assignments) {
        List<SyncGroupRequestAssignment> list = new ArrayList<>();
        assignments.forEach((member, assignment) -> list.add(new SyncGroupRequestAssignment().setMemberId(member)
                .setAssignment(assignment.getBytes(StandardCharsets.UTF_8))));
        return shard.membership().sync(new SyncGroupRequestData().setGroupId(groupId).setGenerationId(generation)
                .setMemberId(memberId).setAssignments(list), (short) 5);
    }

    Errors heartbeat(String groupId, int generation, String memberId) {
        return shard.membership().heartbeat(new HeartbeatRequestData().setGroupId(groupId)
                .setGenerationId(generation).setMemberId(memberId));
    }

    ConsumerGroupHeartbeatResponseData heartbeatConsumer(ConsumerGroupHeartbeatRequestData request) {
        return shard.consumerHeartbeats().heartbeat(request, "client", "/127.0.0.1");
    }

    LeaveGroupResponseData leave(String groupId, String memberId) {
        return shard.membership().leave(new LeaveGroupRequestData().setGroupId(groupId)
                .setMembers(List.of(new MemberIdentity().setMemberId(memberId))), (short) 5);
    }

    OffsetCommitResponseData commit(String groupId, int generation, String memberId, String topic, int partition,
                                    long offset, String metadata) {
        return shard.offsetCommits().commit(new OffsetCommitRequestData()
                .setGroupId(groupId)
                .setGenerationIdOrMemberEpoch(generation)
                .setMemberId(memberId)
                .setTopics(List.of(new OffsetCommitRequestTopic().setName(topic).setPartitions(List.of(
                        new OffsetCommitRequestPartition().setPartitionIndex(partition).setCommittedOffset(offset)
                                .setCommittedLeaderEpoch(3).setCommittedMetadata(metadata))))), (short) 9);
    }

    static short commitError(OffsetCommitResponseData response) {
        return response.topics().get(0).partitions().get(0).errorCode();
    }

    /** A second shard replaying this one's log: what a restart sees. */
    GroupCoordinatorShard reload() throws IOException {
        GroupCoordinatorShard reloaded = new GroupCoordinatorShard(7, log, new ManualTimer(), timer::nowMs, settings,
                topics);
        reloaded.load();
        return reloaded;
    }
}

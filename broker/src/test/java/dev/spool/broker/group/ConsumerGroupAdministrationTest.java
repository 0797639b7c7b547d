package dev.spool.broker.group;

import static dev.spool.broker.group.ConsumerGroupHeartbeatsTest.GROUP;
import static dev.spool.broker.group.ConsumerGroupHeartbeatsTest.ORDERS;
import static dev.spool.broker.group.ConsumerGroupHeartbeatsTest.beat;
import static dev.spool.broker.group.ConsumerGroupHeartbeatsTest.join;
import static dev.spool.broker.group.ConsumerGroupHeartbeatsTest.topic;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ConsumerGroupHeartbeatRequestData;
import dev.spool.protocol.message.JoinGroupResponseData;
import dev.spool.protocol.message.OffsetCommitRequestData;
import dev.spool.protocol.message.OffsetDeleteRequestData;
import dev.spool.protocol.message.OffsetDeleteResponseData;
import dev.spool.protocol.types.Uuid;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A consumer group under the classic group APIs: DescribeGroups, DeleteGroups, OffsetDelete, offset expiry, and an
 * empty group changing protocol (Kafka's offline upgrade and downgrade), each checked again after a replay.
 */
class ConsumerGroupAdministrationTest {

    /** offsets.retention.minutes, short enough for a member to heartbeat through it. */
    private static final long RETENTION_MS = 60_000;

    private final ConsumerShardFixture fixture = new ConsumerShardFixture();
    private GroupCoordinatorShard shard;

    @BeforeEach
    void start() throws Exception {
        fixture.topics.put("orders", topic("orders", ORDERS, 2));
        fixture.topics.put("audit", topic("audit", Uuid.randomUuid(), 1));
        shard = load();
    }

    @Test
    void describeGroupsSaysAConsumerGroupIsNotAClassicGroup() {
        heartbeat(join("m-1"));

        var described = GroupAdministration.describe(shard, GROUP, (short) 6);
        assertThat(described.errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        assertThat(described.errorMessage()).isEqualTo("Group readers is not a classic group.");
        assertThat(GroupAdministration.describe(shard, GROUP, (short) 5).groupState()).isEqualTo("Dead");
    }

    @Test
    void aConsumerGroupIsDeletedWithItsOffsetsOnlyOnceNoMemberIsLeft() throws Exception {
        heartbeat(join("m-1"));
        assertThat(commit("m-1", 1, "orders")).isEqualTo(Errors.NONE);
        assertThat(delete()).isEqualTo(Errors.NON_EMPTY_GROUP);

        heartbeat(beat("m-1", 1, 0, 1).setMemberEpoch(ConsumerGroupHeartbeats.LEAVE_EPOCH));
        assertThat(delete()).isEqualTo(Errors.NONE);

        assertThat(shard.consumerGroup(GROUP, false)).isNull();
        assertThat(shard.offsets().get(GROUP, "orders", 0)).isNull();
        GroupCoordinatorShard reloaded = load();
        assertThat(reloaded.consumerGroup(GROUP, false)).isNull();
        assertThat(reloaded.offsets().get(GROUP, "orders", 0)).isNull();
        assertThat(delete()).isEqualTo(Errors.GROUP_ID_NOT_FOUND);
    }

    @Test
    void aStaticMemberAwayKeepsItsGroupFromDeletion() {
        heartbeat(join("s-1").setInstanceId("a"));
        heartbeat(beat("s-1", ConsumerGroupHeartbeats.STATIC_LEAVE_EPOCH, 0, 1).setInstanceId("a"));

        assertThat(delete()).isEqualTo(Errors.NON_EMPTY_GROUP);
    }

    @Test
    void offsetsOfSubscribedTopicsCannotBeDeletedNorExpireWhileOthersDo() throws Exception {
        heartbeat(join("m-1"));
        assertThat(commit("m-1", 1, "orders")).isEqualTo(Errors.NONE);
        assertThat(commit("m-1", 1, "audit")).isEqualTo(Errors.NONE);

        OffsetDeleteResponseData deleted = shard.offsetCommits().delete(new OffsetDeleteRequestData().setGroupId(GROUP)
                .setTopics(List.of(offsetDelete("orders"), offsetDelete("audit"))));
        assertThat(deleted.errorCode()).isZero();
        assertThat(deleted.topics().get(0).partitions().get(0).errorCode())
                .isEqualTo(Errors.GROUP_SUBSCRIBED_TO_TOPIC.code());
        assertThat(deleted.topics().get(1).partitions().get(0).errorCode()).isZero();
        assertThat(shard.offsets().get(GROUP, "audit", 0)).isNull();

        assertThat(commit("m-1", 1, "audit")).isEqualTo(Errors.NONE);
        for (int i = 0; i < RETENTION_MS / 5_000; i++) {
            fixture.timer.advance(5_000);
            heartbeat(beat("m-1", 1, 0, 1));
        }
        assertThat(shard.offsetCommits().expireOffsets()).as("audit's only").isEqualTo(1);
        assertThat(shard.offsets().get(GROUP, "orders", 0)).isNotNull();
        assertThat(load().offsets().get(GROUP, "audit", 0)).isNull();

        heartbeat(beat("m-1", 1, 0, 1).setMemberEpoch(ConsumerGroupHeartbeats.LEAVE_EPOCH));
        fixture.timer.advance(RETENTION_MS);
        assertThat(shard.offsetCommits().expireOffsets()).isEqualTo(1);
        assertThat(shard.consumerGroup(GROUP, false)).as("empty, with no offsets left").isNull();
        assertThat(load().consumerGroup(GROUP, false)).isNull();
    }

    @Test
    void anEmptyGroupChangesProtocolKeepingItsOffsets() throws Exception {
        ShardFixture bothWays = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        JoinGroupResponseData first = bothWays.joinNew(GROUP).join();
        bothWays.sync(GROUP, first.generationId(), first.memberId(), Map.of(first.memberId(), "a")).join();
        assertThat(ShardFixture.commitError(bothWays.commit(GROUP, first.generationId(), first.memberId(), "topic",
                0, 42, ""))).isZero();
        bothWays.leave(GROUP, first.memberId());

        assertThat(bothWays.heartbeatConsumer(join("m-1")).errorCode()).isZero();
        assertThat(bothWays.shard.group(GROUP)).isNull();
        assertThat(bothWays.reload().consumerGroup(GROUP, false)).isNotNull();
        assertThat(bothWays.reload().offsets().get(GROUP, "topic", 0).offset()).isEqualTo(42);

        bothWays.heartbeatConsumer(beat("m-1", 1).setMemberEpoch(ConsumerGroupHeartbeats.LEAVE_EPOCH));
        JoinGroupResponseData joining = bothWays.join(GROUP, "", null, (short) 9, "range").join();
        assertThat(joining.errorCode()).isEqualTo(Errors.MEMBER_ID_REQUIRED.code());
        assertThat(bothWays.reload().group(GROUP)).as("the offsets' group, between the two protocols").isNotNull();
        assertThat(bothWays.reload().offsets().get(GROUP, "topic", 0).offset()).isEqualTo(42);
        JoinGroupResponseData back = bothWays.join(GROUP, joining.memberId(), null, (short) 9, "range").join();
        assertThat(back.errorCode()).isZero();
        bothWays.sync(GROUP, back.generationId(), back.memberId(), Map.of(back.memberId(), "a")).join();
        assertThat(bothWays.shard.consumerGroup(GROUP, false)).isNull();
        GroupCoordinatorShard reloaded = bothWays.reload();
        assertThat(reloaded.consumerGroup(GROUP, false)).isNull();
        assertThat(reloaded.group(GROUP)).as("never without a group while its offsets remain").isNotNull();
        assertThat(reloaded.group(GROUP).protocolType()).isEqualTo("consumer");
        assertThat(reloaded.offsets().get(GROUP, "topic", 0).offset()).isEqualTo(42);
    }

    private GroupCoordinatorShard load() throws Exception {
        GroupSettings defaults = ShardFixture.settings(0, Integer.MAX_VALUE);
        GroupSettings settings = new GroupSettings(defaults.numPartitions(), defaults.replicationFactor(),
                defaults.segmentBytes(), 0, defaults.minSessionTimeoutMs(), defaults.maxSessionTimeoutMs(),
                Integer.MAX_VALUE, RETENTION_MS, defaults.offsetsRetentionCheckIntervalMs(),
                defaults.offsetMetadataMaxBytes(), defaults.consumer());
        return fixture.load(settings);
    }

    private void heartbeat(ConsumerGroupHeartbeatRequestData request) {
        assertThat(shard.consumerHeartbeats().heartbeat(request, "client", "/127.0.0.1").errorCode()).isZero();
    }

    private Errors commit(String memberId, int epoch, String topic) {
        OffsetCommitRequestData request = new OffsetCommitRequestData().setGroupId(GROUP).setMemberId(memberId)
                .setGenerationIdOrMemberEpoch(epoch).setTopics(List.of(new OffsetCommitRequestData
                        .OffsetCommitRequestTopic().setName(topic).setPartitions(List.of(new OffsetCommitRequestData
                        .OffsetCommitRequestPartition().setPartitionIndex(0).setCommittedOffset(5)))));
        return Errors.forCode(shard.offsetCommits().commit(request, (short) 9).topics().get(0).partitions().get(0)
                .errorCode());
    }

    private Errors delete() {
        return Errors.forCode(GroupAdministration.delete(shard, GROUP).errorCode());
    }

    private static OffsetDeleteRequestData.OffsetDeleteRequestTopic offsetDelete(String topic) {
        return new OffsetDeleteRequestData.OffsetDeleteRequestTopic().setName(topic).setPartitions(List.of(
                new OffsetDeleteRequestData.OffsetDeleteRequestPartition().setPartitionIndex(0)));
    }
}

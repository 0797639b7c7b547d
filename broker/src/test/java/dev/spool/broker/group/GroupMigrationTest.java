package dev.spool.broker.group;

import static dev.spool.broker.group.ConsumerGroupHeartbeatsTest.GROUP;
import static dev.spool.broker.group.ConsumerGroupHeartbeatsTest.ORDERS;
import static dev.spool.broker.group.ConsumerGroupHeartbeatsTest.beat;
import static dev.spool.broker.group.ConsumerGroupHeartbeatsTest.join;
import static dev.spool.broker.group.ConsumerGroupHeartbeatsTest.partitions;
import static dev.spool.broker.group.ConsumerGroupHeartbeatsTest.topic;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.metadata.TopicImage;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ConsumerGroupHeartbeatResponseData;
import dev.spool.protocol.message.ConsumerProtocolAssignmentData;
import dev.spool.protocol.message.ConsumerProtocolSubscriptionData;
import dev.spool.protocol.message.HeartbeatRequestData;
import dev.spool.protocol.message.JoinGroupRequestData;
import dev.spool.protocol.message.JoinGroupResponseData;
import dev.spool.protocol.message.SyncGroupRequestData;
import dev.spool.protocol.message.SyncGroupResponseData;
import dev.spool.protocol.types.ByteBufferWriter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A group of classic members upgraded as a consumer-protocol member joins, the classic members going on with
 * JoinGroup, SyncGroup and Heartbeat inside the consumer group, and downgraded when the consumer-protocol member
 * leaves; no partition is ever held by two members, and a replay at each point rebuilds the same group.
 */
class GroupMigrationTest {

    private static final int INITIAL_DELAY_MS = 3000;

    private final Map<String, TopicImage> topics = new HashMap<>();
    private ShardFixture fixture;

    @BeforeEach
    void start() throws Exception {
        topics.put("orders", topic("orders", ORDERS, 6));
        fixture = new ShardFixture(ShardFixture.settings(INITIAL_DELAY_MS, Integer.MAX_VALUE),
                new InMemoryCoordinatorLog(), topics::get);
    }

    @Test
    void classicMembersMoveIntoAConsumerGroupAndBackWithoutAPartitionHeldTwice() throws Exception {
        Map<String, List<Integer>> consumed = stableClassicGroup(2);
        List<String> classics = List.copyOf(consumed.keySet());

        ConsumerGroupHeartbeatResponseData joined = fixture.heartbeatConsumer(join("m-1"));
        assertThat(joined.errorCode()).isZero();
        consumed.put("m-1", partitions(joined));
        assertThat(consumed.get("m-1")).as("everything is still the classic members'").isEmpty();
        ConsumerGroup group = fixture.shard.consumerGroup(GROUP, false);
        assertThat(group.members()).hasSize(3);
        assertThat(fixture.shard.group(GROUP)).isNull();
        for (String classic : classics) {
            assertThat(group.member(classic).assigned().partitions(ORDERS))
                    .containsExactlyElementsOf(consumed.get(classic));
            assertThat(fixture.reload().consumerGroup(GROUP, false).member(classic).usesClassicProtocol()).isTrue();
        }

        for (int round = 0; round < 4; round++) {
            for (String classic : classics) {
                int generation = fixture.shard.consumerGroup(GROUP, false).member(classic).memberEpoch();
                if (heartbeat(classic, generation) == Errors.REBALANCE_IN_PROGRESS) {
                    consumed.put(classic, List.of()); // eager: it gives up everything, then joins
                    JoinGroupResponseData rejoined = classicJoin(classic, List.of()).join();
                    assertThat(rejoined.errorCode()).isZero();
                    assertThat(rejoined.leader()).as("the coordinator assigns").isNotEqualTo(classic);
                    consumed.put(classic, synced(classic, rejoined.generationId()));
                    assertNoPartitionTwice(consumed);
                }
            }
            int epoch = fixture.shard.consumerGroup(GROUP, false).member("m-1").memberEpoch();
            ConsumerGroupHeartbeatResponseData answer = fixture.heartbeatConsumer(beat("m-1", epoch,
                    toArray(consumed.get("m-1"))));
            if (answer.assignment() != null) {
                consumed.put("m-1", partitions(answer));
            }
            assertNoPartitionTwice(consumed);
        }
        group = fixture.shard.consumerGroup(GROUP, false);
        assertThat(group.state()).isEqualTo(ConsumerGroupState.STABLE);
        assertThat(consumed.values()).allSatisfy(partitions -> assertThat(partitions).hasSize(2));
        assertThat(heartbeat(classics.get(0), group.member(classics.get(0)).memberEpoch())).isEqualTo(Errors.NONE);

        fixture.heartbeatConsumer(beat("m-1", group.member("m-1").memberEpoch())
                .setMemberEpoch(ConsumerGroupHeartbeats.LEAVE_EPOCH));
        assertThat(fixture.shard.consumerGroup(GROUP, false)).as("downgraded").isNull();
        ClassicGroup classic = fixture.shard.group(GROUP);
        assertThat(classic.isIn(GroupState.PREPARING_REBALANCE)).isTrue();
        assertThat(classic.members()).extracting(Member::memberId).containsExactlyInAnyOrderElementsOf(classics);
        assertThat(heartbeat(classics.get(0), classic.generationId())).isEqualTo(Errors.REBALANCE_IN_PROGRESS);
        GroupCoordinatorShard reloaded = fixture.reload();
        assertThat(reloaded.consumerGroup(GROUP, false)).isNull();
        assertThat(reloaded.group(GROUP).members()).hasSize(2);
    }

    @Test
    void aClassicMemberJoinsAConsumerGroupAndTheGroupBecomesClassicWhenTheOthersLeave() {
        assertThat(fixture.heartbeatConsumer(join("m-1")).errorCode()).isZero();
        JoinGroupResponseData first = classicJoin("", List.of()).join();
        assertThat(first.errorCode()).isEqualTo(Errors.MEMBER_ID_REQUIRED.code());
        JoinGroupResponseData joined = classicJoin(first.memberId(), List.of()).join();
        assertThat(joined.errorCode()).isZero();
        assertThat(synced(first.memberId(), joined.generationId())).as("m-1 holds everything").isEmpty();
        assertThat(fixture.shard.consumerGroup(GROUP, false).member(first.memberId()).usesClassicProtocol()).isTrue();

        ConsumerGroupMember consumer = fixture.shard.consumerGroup(GROUP, false).member("m-1");
        fixture.heartbeatConsumer(beat("m-1", consumer.memberEpoch())
                .setMemberEpoch(ConsumerGroupHeartbeats.LEAVE_EPOCH));

        ClassicGroup classic = fixture.shard.group(GROUP);
        assertThat(classic).isNotNull();
        assertThat(classic.protocolName()).isEqualTo("range");
        JoinGroupResponseData rejoined = classicJoin(first.memberId(), List.of()).join();
        assertThat(rejoined.errorCode()).isZero();
        assertThat(rejoined.leader()).as("a classic group again: its member assigns").isEqualTo(first.memberId());
    }

    @Test
    void aClassicGroupIsUpgradedOnlyOnceStableAndOnlyByAJoiningMember() {
        Map<String, List<Integer>> owned = stableClassicGroup(2);
        String leaving = owned.keySet().iterator().next();
        fixture.leave(GROUP, leaving);
        assertThat(fixture.shard.group(GROUP).isIn(GroupState.PREPARING_REBALANCE)).isTrue();

        assertThat(fixture.heartbeatConsumer(join("m-1")).errorCode()).as("retried once the rebalance is over")
                .isEqualTo(Errors.COORDINATOR_LOAD_IN_PROGRESS.code());
        assertThat(fixture.heartbeatConsumer(beat("m-1", 3)).errorCode()).as("not a joining member")
                .isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        assertThat(fixture.shard.group(GROUP)).as("still classic").isNotNull();
        assertThat(fixture.shard.consumerGroup(GROUP, false)).isNull();
    }

    @Test
    void aClassicStaticMemberReplacedUnderItsInstanceIdIsFencedNotTakenBack() {
        assertThat(fixture.heartbeatConsumer(join("m-1")).errorCode()).isZero();
        JoinGroupResponseData first = classicJoin("", List.of(), "instance-a").join();
        assertThat(first.errorCode()).as("static: no member id round trip").isZero();
        JoinGroupResponseData second = classicJoin("", List.of(), "instance-a").join();
        assertThat(second.errorCode()).isZero();
        assertThat(second.memberId()).isNotEqualTo(first.memberId());

        assertThat(fixture.shard.membership().heartbeat(new HeartbeatRequestData().setGroupId(GROUP)
                .setMemberId(first.memberId()).setGroupInstanceId("instance-a")
                .setGenerationId(first.generationId()))).isEqualTo(Errors.FENCED_INSTANCE_ID);
        assertThat(classicJoin(first.memberId(), List.of(), "instance-a").join().errorCode())
                .isEqualTo(Errors.FENCED_INSTANCE_ID.code());
        assertThat(fixture.shard.consumerGroup(GROUP, false).staticMember("instance-a").memberId())
                .isEqualTo(second.memberId());
    }

    @Test
    void aClassicGroupStaysClassicWhenThePolicyForbidsUpgrades() throws Exception {
        GroupSettings defaults = ShardFixture.settings(INITIAL_DELAY_MS, Integer.MAX_VALUE);
        ConsumerProtocolSettings consumer = defaults.consumer();
        GroupSettings noUpgrades = new GroupSettings(defaults.numPartitions(), defaults.replicationFactor(),
                defaults.segmentBytes(), INITIAL_DELAY_MS, defaults.minSessionTimeoutMs(), defaults.maxSessionTimeoutMs(),
                Integer.MAX_VALUE, defaults.offsetsRetentionMs(), defaults.offsetsRetentionCheckIntervalMs(),
                defaults.offsetMetadataMaxBytes(), new ConsumerProtocolSettings(true, consumer.sessionTimeoutMs(),
                consumer.heartbeatIntervalMs(), consumer.maxSize(), consumer.assignors(), MigrationPolicy.DOWNGRADE));
        fixture = new ShardFixture(noUpgrades, new InMemoryCoordinatorLog(), topics::get);
        stableClassicGroup(1);

        assertThat(fixture.heartbeatConsumer(join("m-1")).errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        assertThat(fixture.shard.group(GROUP).isIn(GroupState.STABLE)).isTrue();
    }

    /**
     * A classic group of {@code count} members gathered into generation 1 (the initial delay), stable, the leader's
     * assignment (partitions dealt in turn) synced; each member's partitions by member id.
     */
    private Map<String, List<Integer>> stableClassicGroup(int count) {
        List<CompletableFuture<JoinGroupResponseData>> joins = new ArrayList<>();
        List<String> memberIds = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            JoinGroupResponseData first = classicJoin("", List.of()).join();
            assertThat(first.errorCode()).isEqualTo(Errors.MEMBER_ID_REQUIRED.code());
            memberIds.add(first.memberId());
            joins.add(classicJoin(first.memberId(), List.of()));
        }
        fixture.timer.advance(INITIAL_DELAY_MS);
        fixture.timer.advance(INITIAL_DELAY_MS);
        Map<String, List<Integer>> owned = new LinkedHashMap<>();
        memberIds.forEach(memberId -> owned.put(memberId, new ArrayList<>()));
        for (int partition = 0; partition < 6; partition++) {
            owned.get(memberIds.get(partition % count)).add(partition);
        }
        JoinGroupResponseData anyJoin = joins.get(0).join();
        List<SyncGroupRequestData.SyncGroupRequestAssignment> assignments = new ArrayList<>();
        owned.forEach((memberId, partitions) -> assignments.add(new SyncGroupRequestData.SyncGroupRequestAssignment()
                .setMemberId(memberId).setAssignment(assignment(partitions))));
        List<CompletableFuture<SyncGroupResponseData>> syncs = new ArrayList<>();
        for (String memberId : memberIds) {
            syncs.add(fixture.shard.membership().sync(new SyncGroupRequestData().setGroupId(GROUP)
                    .setGenerationId(anyJoin.generationId()).setMemberId(memberId)
                    .setAssignments(memberId.equals(anyJoin.leader()) ? assignments : List.of()), (short) 5));
        }
        syncs.forEach(sync -> assertThat(sync.join().errorCode()).isZero());
        assertThat(fixture.shard.group(GROUP).isIn(GroupState.STABLE)).isTrue();
        return owned;
    }

    /** A classic member's JoinGroup (v9) owning {@code owned} of orders. */
    private CompletableFuture<JoinGroupResponseData> classicJoin(String memberId, List<Integer> owned) {
        return classicJoin(memberId, owned, null);
    }

    private CompletableFuture<JoinGroupResponseData> classicJoin(String memberId, List<Integer> owned,
                                                               String instanceId) {
        ConsumerProtocolSubscriptionData subscription = new ConsumerProtocolSubscriptionData()
                .setTopics(List.of("orders")).setOwnedPartitions(owned.isEmpty() ? List.of() : List.of(
                        new ConsumerProtocolSubscriptionData.TopicPartition().setTopic("orders")
                                .setPartitions(owned)));
        JoinGroupRequestData data = new JoinGroupRequestData().setGroupId(GROUP).setMemberId(memberId)
                .setGroupInstanceId(instanceId)
                .setSessionTimeoutMs(ShardFixture.SESSION_TIMEOUT_MS)
                .setRebalanceTimeoutMs(ShardFixture.REBALANCE_TIMEOUT_MS).setProtocolType("consumer")
                .setProtocols(List.of(new JoinGroupRequestData.JoinGroupRequestProtocol().setName("range")
                        .setMetadata(embedded(subscription, (short) 1))));
        return fixture.shard.membership().join(new ClassicGroupMembership.JoinRequest(data, (short) 9, "client",
                "/127.0.0.1"));
    }

    private List<Integer> synced(String memberId, int generation) {
        SyncGroupResponseData synced = fixture.shard.membership().sync(new SyncGroupRequestData().setGroupId(GROUP)
                .setGenerationId(generation).setMemberId(memberId).setProtocolType("consumer")
                .setProtocolName("range").setAssignments(List.of()), (short) 5).join();
        assertThat(synced.errorCode()).isZero();
        List<Integer> partitions = ConsumerProtocolBytes.assignment(synced.assignment())
                .getOrDefault("orders", List.of());
        return new ArrayList<>(partitions);
    }

    private Errors heartbeat(String memberId, int generation) {
        return fixture.shard.membership().heartbeat(new HeartbeatRequestData().setGroupId(GROUP)
                .setMemberId(memberId).setGenerationId(generation));
    }

    private static byte[] assignment(List<Integer> partitions) {
        return embedded(new ConsumerProtocolAssignmentData().setAssignedPartitions(List.of(
                new ConsumerProtocolAssignmentData.TopicPartition().setTopic("orders").setPartitions(partitions))),
                (short) 0);
    }

    private static byte[] embedded(dev.spool.protocol.types.Message message, short version) {
        ByteBuffer body = ByteBufferWriter.serialize(message, version);
        return ByteBuffer.allocate(2 + body.remaining()).putShort(version).put(body).array();
    }

    private static int[] toArray(List<Integer> partitions) {
        return partitions.stream().mapToInt(Integer::intValue).toArray();
    }

    private static void assertNoPartitionTwice(Map<String, List<Integer>> consumed) {
        Set<Integer> seen = new HashSet<>();
        consumed.forEach((memberId, partitions) -> partitions.forEach(partition ->
                assertThat(seen.add(partition)).as("partition %d held twice: %s", partition, consumed).isTrue()));
    }
}

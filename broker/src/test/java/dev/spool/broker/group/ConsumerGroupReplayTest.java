package dev.spool.broker.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spool.protocol.types.MessageParseException;
import java.util.List;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupCurrentMemberAssignmentKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupCurrentMemberAssignmentValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMemberMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMemberMetadataValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupRegularExpressionKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupRegularExpressionValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMemberKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMemberValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMetadataValue;
import org.apache.kafka.coordinator.group.generated.OffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.OffsetCommitValue;
import org.junit.jupiter.api.Test;

/** A consumer-protocol group (KIP-848) rebuilt from the records Kafka's coordinator writes for it. */
class ConsumerGroupReplayTest {

    private static final String GROUP = "readers";
    private static final Uuid TOPIC = Uuid.randomUuid();
    private static final dev.spool.protocol.types.Uuid TOPIC_ID =
            new dev.spool.protocol.types.Uuid(TOPIC.getMostSignificantBits(), TOPIC.getLeastSignificantBits());

    private final InMemoryCoordinatorLog log = new InMemoryCoordinatorLog();

    @Test
    void twoMembersTheirSubscriptionsEpochsAndAssignmentsAreRebuilt() throws Exception {
        joinOfTwo();

        GroupCoordinatorShard shard = load();

        ConsumerGroup group = shard.consumerGroup(GROUP, false);
        assertThat(group.groupEpoch()).isEqualTo(2);
        assertThat(group.metadataHash()).isEqualTo(42);
        assertThat(group.assignmentEpoch()).isEqualTo(2);
        assertThat(group.target("m-1")).isEqualTo(partitions(0, 1));
        assertThat(group.target("m-2")).isEqualTo(partitions(2));
        ConsumerGroupMember first = group.member("m-1");
        assertThat(first.subscribedTopicNames()).containsExactly("orders");
        assertThat(first.instanceId()).isEqualTo("i-1");
        assertThat(first.rebalanceTimeoutMs()).isEqualTo(300_000);
        assertThat(first.usesClassicProtocol()).isFalse();
        assertThat(first.memberEpoch()).isEqualTo(2);
        assertThat(first.state()).isEqualTo(MemberState.UNREVOKED_PARTITIONS);
        assertThat(first.assigned()).isEqualTo(partitions(0, 1));
        assertThat(first.pendingRevocation()).isEqualTo(partitions(2));
        assertThat(group.member("m-2").usesClassicProtocol()).isTrue();
        assertThat(group.member("m-2").assigned()).isEqualTo(PartitionAssignment.EMPTY);
        assertThat(group.partitionEpoch(TOPIC_ID, 2)).as("still to be revoked by m-1").isEqualTo(2);
        assertThat(group.partitionEpoch(TOPIC_ID, 3)).isEqualTo(-1);
        assertThat(group.regex("orders-.*").topics()).containsExactly("orders-eu");
        assertThat(group.state()).isEqualTo(ConsumerGroupState.RECONCILING);
        assertThat(shard.group(GROUP)).as("no classic group beside it").isNull();
    }

    @Test
    void aMemberThatLeftIsGoneWithItsPartitionsAndAStableGroupIsStable() throws Exception {
        joinOfTwo();
        // m-1 revoked partition 2 and m-2 got it; then m-1 left (Kafka's order: 8, 7, 5 tombstones, epoch bump).
        append(new ConsumerGroupCurrentMemberAssignmentKey().setGroupId(GROUP).setMemberId("m-1"),
                assignment(2, 0, List.of(0, 1), List.of()));
        append(new ConsumerGroupCurrentMemberAssignmentKey().setGroupId(GROUP).setMemberId("m-2"),
                assignment(2, 0, List.of(2), List.of()));
        append(new ConsumerGroupCurrentMemberAssignmentKey().setGroupId(GROUP).setMemberId("m-1"), null);
        append(new ConsumerGroupTargetAssignmentMemberKey().setGroupId(GROUP).setMemberId("m-1"), null);
        append(new ConsumerGroupMemberMetadataKey().setGroupId(GROUP).setMemberId("m-1"), null);
        append(new ConsumerGroupMetadataKey().setGroupId(GROUP), new ConsumerGroupMetadataValue().setEpoch(3));

        ConsumerGroup group = load().consumerGroup(GROUP, false);

        assertThat(group.members()).extracting(ConsumerGroupMember::memberId).containsExactly("m-2");
        assertThat(group.partitionEpoch(TOPIC_ID, 0)).isEqualTo(-1);
        assertThat(group.partitionEpoch(TOPIC_ID, 2)).isEqualTo(2);
        assertThat(group.state()).as("epoch 3 has no target yet").isEqualTo(ConsumerGroupState.ASSIGNING);
    }

    @Test
    void membersRecordsBeforeTheirGroupsAsCompactionLeavesThemStillMakeTheGroup() throws Exception {
        append(new ConsumerGroupMemberMetadataKey().setGroupId(GROUP).setMemberId("m-1"), member("i-1", null));
        append(new ConsumerGroupCurrentMemberAssignmentKey().setGroupId(GROUP).setMemberId("m-1"),
                assignment(4, 0, List.of(0), List.of()));
        append(new ConsumerGroupTargetAssignmentMetadataKey().setGroupId(GROUP),
                new ConsumerGroupTargetAssignmentMetadataValue().setAssignmentEpoch(4));
        append(new ConsumerGroupTargetAssignmentMemberKey().setGroupId(GROUP).setMemberId("m-1"), target(0));
        append(new ConsumerGroupMetadataKey().setGroupId(GROUP), new ConsumerGroupMetadataValue().setEpoch(4));
        // A tombstone of a group no record created changes nothing.
        append(new ConsumerGroupMemberMetadataKey().setGroupId("never").setMemberId("m-9"), null);

        GroupCoordinatorShard shard = load();

        assertThat(shard.consumerGroup(GROUP, false).state()).isEqualTo(ConsumerGroupState.STABLE);
        assertThat(shard.consumerGroup("never", false)).isNull();
    }

    @Test
    void itsOffsetsMakeNoClassicGroupAndASimpleConsumersOffsetsGiveWayToIt() throws Exception {
        append(new OffsetCommitKey().setGroup(GROUP).setTopic("orders").setPartition(0),
                new OffsetCommitValue().setOffset(10).setCommitTimestamp(1));
        joinOfTwo();
        append(new OffsetCommitKey().setGroup(GROUP).setTopic("orders").setPartition(1),
                new OffsetCommitValue().setOffset(20).setCommitTimestamp(2));

        GroupCoordinatorShard shard = load();

        assertThat(shard.group(GROUP)).isNull();
        assertThat(shard.consumerGroup(GROUP, false)).isNotNull();
        assertThat(shard.offsets().get(GROUP, "orders", 0).offset()).isEqualTo(10);
        assertThat(shard.offsets().get(GROUP, "orders", 1).offset()).isEqualTo(20);
    }

    @Test
    void aShareGroupsRecordOrAClassicGroupInUseUnderTheSameIdFailsTheLoad() throws Exception {
        joinOfTwo();
        log.appendBytes(new byte[] {0, 11, 0, 1, 'g'}, null);

        assertThatThrownBy(this::load).isInstanceOf(MessageParseException.class).hasMessageContaining("type 11");

        ShardFixture classic = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        ClassicGroupMembershipTest.stableGroupOfTwo(classic);
        classic.log.appendBytes(MessageUtil.toCoordinatorTypePrefixedBytes(
                new ConsumerGroupMetadataKey().setGroupId("orders")), MessageUtil.toVersionPrefixedBytes((short) 0,
                new ConsumerGroupMetadataValue().setEpoch(1)));

        assertThatThrownBy(classic::reload).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("classic group in use");
    }

    /** Two members join: m-1 (static, names) at epoch 1 with every partition, then m-2 (classic) at epoch 2. */
    private void joinOfTwo() {
        append(new ConsumerGroupMemberMetadataKey().setGroupId(GROUP).setMemberId("m-1"), member("i-1", null));
        append(new ConsumerGroupMetadataKey().setGroupId(GROUP), new ConsumerGroupMetadataValue().setEpoch(1));
        append(new ConsumerGroupTargetAssignmentMemberKey().setGroupId(GROUP).setMemberId("m-1"), target(0, 1, 2));
        append(new ConsumerGroupTargetAssignmentMetadataKey().setGroupId(GROUP),
                new ConsumerGroupTargetAssignmentMetadataValue().setAssignmentEpoch(1));
        append(new ConsumerGroupCurrentMemberAssignmentKey().setGroupId(GROUP).setMemberId("m-1"),
                assignment(1, 0, List.of(0, 1, 2), List.of()));
        append(new ConsumerGroupMemberMetadataKey().setGroupId(GROUP).setMemberId("m-2"), member(null,
                new ConsumerGroupMemberMetadataValue.ClassicMemberMetadata().setSessionTimeoutMs(45_000)));
        append(new ConsumerGroupMetadataKey().setGroupId(GROUP),
                new ConsumerGroupMetadataValue().setEpoch(2).setMetadataHash(42));
        append(new ConsumerGroupTargetAssignmentMemberKey().setGroupId(GROUP).setMemberId("m-1"), target(0, 1));
        append(new ConsumerGroupTargetAssignmentMemberKey().setGroupId(GROUP).setMemberId("m-2"), target(2));
        append(new ConsumerGroupTargetAssignmentMetadataKey().setGroupId(GROUP),
                new ConsumerGroupTargetAssignmentMetadataValue().setAssignmentEpoch(2));
        append(new ConsumerGroupCurrentMemberAssignmentKey().setGroupId(GROUP).setMemberId("m-1"),
                assignment(2, 1, List.of(0, 1), List.of(2)));
        append(new ConsumerGroupCurrentMemberAssignmentKey().setGroupId(GROUP).setMemberId("m-2"),
                new ConsumerGroupCurrentMemberAssignmentValue().setMemberEpoch(2).setPreviousMemberEpoch(0)
                        .setState((byte) 2));
        append(new ConsumerGroupRegularExpressionKey().setGroupId(GROUP).setRegularExpression("orders-.*"),
                new ConsumerGroupRegularExpressionValue().setTopics(List.of("orders-eu")).setVersion(3));
    }

    private GroupCoordinatorShard load() throws Exception {
        GroupCoordinatorShard shard = new GroupCoordinatorShard(0, log, new ManualTimer(), () -> 0,
                ShardFixture.settings(0, Integer.MAX_VALUE));
        shard.load();
        return shard;
    }

    private void append(ApiMessage key, ApiMessage value) {
        log.appendBytes(MessageUtil.toCoordinatorTypePrefixedBytes(key),
                value == null ? null : MessageUtil.toVersionPrefixedBytes(
                        value instanceof OffsetCommitValue ? (short) 3 : (short) 0, value));
    }

    private static ConsumerGroupMemberMetadataValue member(String instanceId,
                                                           ConsumerGroupMemberMetadataValue.ClassicMemberMetadata classic) {
        return new ConsumerGroupMemberMetadataValue().setInstanceId(instanceId).setClientId("c")
                .setClientHost("/127.0.0.1").setSubscribedTopicNames(List.of("orders")).setRebalanceTimeoutMs(300_000)
                .setClassicMemberMetadata(classic);
    }

    private static ConsumerGroupTargetAssignmentMemberValue target(Integer... partitions) {
        return new ConsumerGroupTargetAssignmentMemberValue().setTopicPartitions(List.of(
                new ConsumerGroupTargetAssignmentMemberValue.TopicPartition().setTopicId(TOPIC)
                        .setPartitions(List.of(partitions))));
    }

    private static ConsumerGroupCurrentMemberAssignmentValue assignment(int epoch, int previousEpoch,
                                                                        List<Integer> assigned, List<Integer> revoking) {
        return new ConsumerGroupCurrentMemberAssignmentValue().setMemberEpoch(epoch)
                .setPreviousMemberEpoch(previousEpoch).setState((byte) (revoking.isEmpty() ? 0 : 1))
                .setAssignedPartitions(List.of(new TopicPartitions().setTopicId(TOPIC).setPartitions(assigned)))
                .setPartitionsPendingRevocation(revoking.isEmpty() ? List.of()
                        : List.of(new TopicPartitions().setTopicId(TOPIC).setPartitions(revoking)));
    }

    private static PartitionAssignment partitions(Integer... numbers) {
        return PartitionAssignment.of(List.of(List.of(numbers)), ignored -> TOPIC_ID, list -> list);
    }
}

package dev.spool.broker.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spool.protocol.group.ConsumerGroupMemberMetadataKeyData;
import dev.spool.protocol.group.ConsumerGroupMemberMetadataValueData;
import dev.spool.protocol.group.GroupMetadataValueData;
import dev.spool.protocol.group.OffsetCommitKeyData;
import dev.spool.protocol.group.OffsetCommitValueData;
import dev.spool.protocol.types.MessageParseException;
import dev.spool.protocol.types.Uuid;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupCurrentMemberAssignmentKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupCurrentMemberAssignmentValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMemberMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMemberMetadataValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupPartitionMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupPartitionMetadataValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupRegularExpressionKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupRegularExpressionValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMemberKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMemberValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMetadataValue;
import org.apache.kafka.coordinator.group.generated.GroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.GroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.OffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.OffsetCommitValue;
import org.junit.jupiter.api.Test;

/** Our __consumer_offsets records against Kafka's own generated classes, byte for byte. */
class GroupRecordSerdeTest {

    @Test
    void anOffsetCommitIsWrittenAsKafkaWritesIt() {
        CoordinatorRecord ours = CoordinatorRecord.offsetCommit("group-1", "orders", 4,
                new CommittedOffset(1234, 7, "meta", 1_700_000_000_000L, CommittedOffset.NO_EXPIRY));

        byte[] kafkaKey = MessageUtil.toCoordinatorTypePrefixedBytes(
                new OffsetCommitKey().setGroup("group-1").setTopic("orders").setPartition(4));
        byte[] kafkaValue = MessageUtil.toVersionPrefixedBytes((short) 3, new OffsetCommitValue().setOffset(1234)
                .setLeaderEpoch(7).setMetadata("meta").setCommitTimestamp(1_700_000_000_000L));

        assertThat(GroupRecordSerde.key(ours)).isEqualTo(kafkaKey);
        assertThat(GroupRecordSerde.value(ours)).isEqualTo(kafkaValue);
    }

    @Test
    void anOffsetCommitWithAnExpiryUsesVersionOne() {
        CoordinatorRecord ours = CoordinatorRecord.offsetCommit("g", "t", 0,
                new CommittedOffset(5, -1, "", 1000, 61000));

        ByteBuffer value = ByteBuffer.wrap(GroupRecordSerde.value(ours));
        short version = value.getShort();
        OffsetCommitValue kafka = new OffsetCommitValue(new ByteBufferAccessor(value), version);

        assertThat(version).isEqualTo((short) 1);
        assertThat(kafka.expireTimestamp()).isEqualTo(61000);
        assertThat(kafka.commitTimestamp()).isEqualTo(1000);
    }

    @Test
    void groupMetadataIsWrittenAsKafkaWritesIt() {
        GroupMetadataValueData value = new GroupMetadataValueData()
                .setProtocolType("consumer").setGeneration(3).setProtocol("range").setLeader("m-1")
                .setCurrentStateTimestamp(99).setMembers(List.of(new GroupMetadataValueData.MemberMetadata()
                        .setMemberId("m-1").setGroupInstanceId("i-1").setClientId("c").setClientHost("/127.0.0.1")
                        .setRebalanceTimeout(300000).setSessionTimeout(45000)
                        .setSubscription(new byte[] {1, 2}).setAssignment(new byte[] {3})));
        CoordinatorRecord ours = CoordinatorRecord.groupMetadata("group-1", value);

        byte[] kafkaKey = MessageUtil.toCoordinatorTypePrefixedBytes(new GroupMetadataKey().setGroup("group-1"));
        byte[] kafkaValue = MessageUtil.toVersionPrefixedBytes((short) 3, new GroupMetadataValue()
                .setProtocolType("consumer").setGeneration(3).setProtocol("range").setLeader("m-1")
                .setCurrentStateTimestamp(99).setMembers(List.of(new GroupMetadataValue.MemberMetadata()
                        .setMemberId("m-1").setGroupInstanceId("i-1").setClientId("c").setClientHost("/127.0.0.1")
                        .setRebalanceTimeout(300000).setSessionTimeout(45000)
                        .setSubscription(new byte[] {1, 2}).setAssignment(new byte[] {3}))));

        assertThat(GroupRecordSerde.key(ours)).isEqualTo(kafkaKey);
        assertThat(GroupRecordSerde.value(ours)).isEqualTo(kafkaValue);
    }

    @Test
    void recordsKafkaWroteAreReadBackIncludingTombstonesAndTheLegacyKey() {
        byte[] key = MessageUtil.toVersionPrefixedBytes((short) 0,
                new OffsetCommitKey().setGroup("g").setTopic("t").setPartition(2));
        byte[] value = MessageUtil.toVersionPrefixedBytes((short) 4, new OffsetCommitValue().setOffset(9)
                .setLeaderEpoch(1).setMetadata("x").setCommitTimestamp(5));

        CoordinatorRecord read = GroupRecordSerde.read(ByteBuffer.wrap(key), ByteBuffer.wrap(value));
        CoordinatorRecord tombstone = GroupRecordSerde.read(ByteBuffer.wrap(key), null);

        assertThat(read.isOffsetCommit()).isTrue();
        assertThat(((OffsetCommitKeyData) read.key()).partition()).isEqualTo(2);
        assertThat(((OffsetCommitValueData) read.value()).offset()).isEqualTo(9);
        assertThat(tombstone.isTombstone()).isTrue();
    }

    @Test
    void everyConsumerGroupRecordKafkaWritesIsReadAndWrittenBackByteForByte() {
        Uuid topic = Uuid.randomUuid();
        List<ApiMessage[]> records = List.of(
                record(new ConsumerGroupMetadataKey().setGroupId("g"), new ConsumerGroupMetadataValue().setEpoch(7)),
                record(new ConsumerGroupMetadataKey().setGroupId("g"),
                        new ConsumerGroupMetadataValue().setEpoch(8).setMetadataHash(0x1234_5678_9abcL)),
                record(new ConsumerGroupPartitionMetadataKey().setGroupId("g"),
                        new ConsumerGroupPartitionMetadataValue()),
                record(new ConsumerGroupMemberMetadataKey().setGroupId("g").setMemberId("m-1"),
                        new ConsumerGroupMemberMetadataValue().setInstanceId("i-1").setRackId(null)
                                .setClientId("c").setClientHost("/127.0.0.1").setSubscribedTopicNames(List.of("a", "b"))
                                .setSubscribedTopicRegex(null).setRebalanceTimeoutMs(300_000)
                                .setServerAssignor("uniform")),
                record(new ConsumerGroupMemberMetadataKey().setGroupId("g").setMemberId("m-2"),
                        new ConsumerGroupMemberMetadataValue().setClientId("c").setClientHost("/127.0.0.2")
                                .setSubscribedTopicRegex("orders-.*")
                                .setClassicMemberMetadata(new ConsumerGroupMemberMetadataValue.ClassicMemberMetadata()
                                        .setSessionTimeoutMs(45_000).setSupportedProtocols(List.of(
                                                new ConsumerGroupMemberMetadataValue.ClassicProtocol()
                                                        .setName("range").setMetadata(new byte[] {1, 2, 3}))))),
                record(new ConsumerGroupTargetAssignmentMetadataKey().setGroupId("g"),
                        new ConsumerGroupTargetAssignmentMetadataValue().setAssignmentEpoch(8)
                                .setAssignmentTimestamp(1_700_000_000_000L)),
                record(new ConsumerGroupTargetAssignmentMemberKey().setGroupId("g").setMemberId("m-1"),
                        new ConsumerGroupTargetAssignmentMemberValue().setTopicPartitions(List.of(
                                new ConsumerGroupTargetAssignmentMemberValue.TopicPartition()
                                        .setTopicId(kafka(topic)).setPartitions(List.of(0, 2, 4))))),
                record(new ConsumerGroupCurrentMemberAssignmentKey().setGroupId("g").setMemberId("m-1"),
                        new ConsumerGroupCurrentMemberAssignmentValue().setMemberEpoch(8).setPreviousMemberEpoch(7)
                                .setState((byte) 1)
                                .setAssignedPartitions(List.of(new ConsumerGroupCurrentMemberAssignmentValue
                                        .TopicPartitions().setTopicId(kafka(topic)).setPartitions(List.of(0, 2))))
                                .setPartitionsPendingRevocation(List.of(new ConsumerGroupCurrentMemberAssignmentValue
                                        .TopicPartitions().setTopicId(kafka(topic)).setPartitions(List.of(1))
                                        .setAssignmentEpochs(List.of(5))))),
                record(new ConsumerGroupRegularExpressionKey().setGroupId("g").setRegularExpression("orders-.*"),
                        new ConsumerGroupRegularExpressionValue().setTopics(List.of("orders-eu")).setVersion(12)
                                .setTimestamp(99)));

        for (ApiMessage[] kafka : records) {
            byte[] key = MessageUtil.toCoordinatorTypePrefixedBytes(kafka[0]);
            byte[] value = MessageUtil.toVersionPrefixedBytes((short) 0, kafka[1]);

            CoordinatorRecord read = GroupRecordSerde.read(ByteBuffer.wrap(key), ByteBuffer.wrap(value));
            CoordinatorRecord tombstone = GroupRecordSerde.read(ByteBuffer.wrap(key), null);

            assertThat(read.keyVersion()).as("%s", kafka[0]).isEqualTo(kafka[0].apiKey());
            assertThat(GroupRecordSerde.key(read)).as("%s", kafka[0]).isEqualTo(key);
            assertThat(GroupRecordSerde.value(read)).as("%s", kafka[1]).isEqualTo(value);
            assertThat(tombstone.isTombstone()).isTrue();
            assertThat(GroupRecordSerde.key(tombstone)).isEqualTo(key);
        }
    }

    @Test
    void aMemberWithoutClassicProtocolsIsWrittenAsKafkasCoordinatorWritesIt() {
        // Kafka writes a consumer-protocol member's ClassicMemberMetadata as a null tagged struct: its marker is an
        // unsigned varint 0 (an untagged nullable struct's is the int8 -1).
        CoordinatorRecord member = new CoordinatorRecord((short) 5, new ConsumerGroupMemberMetadataKeyData()
                .setGroupId("g").setMemberId("m"), (short) 0, new ConsumerGroupMemberMetadataValueData()
                .setClientId("c").setClientHost("h").setClassicMemberMetadata(null));
        byte[] kafka = MessageUtil.toVersionPrefixedBytes((short) 0, new ConsumerGroupMemberMetadataValue()
                .setClientId("c").setClientHost("h").setClassicMemberMetadata(null));

        assertThat(GroupRecordSerde.value(member)).isEqualTo(kafka);
        CoordinatorRecord read = GroupRecordSerde.read(ByteBuffer.wrap(GroupRecordSerde.key(member)),
                ByteBuffer.wrap(kafka));
        assertThat(((ConsumerGroupMemberMetadataValueData) read.value()).classicMemberMetadata()).isNull();
    }

    @Test
    void recordsOfShareAndStreamsGroupsUnknownTypesAndNewerVersionsAreRefusedNamingThem() {
        assertThatThrownBy(() -> GroupRecordSerde.read(ByteBuffer.wrap(new byte[] {0, 11, 0, 1, 'g'}), null))
                .isInstanceOf(MessageParseException.class).hasMessageContaining("type 11 (a share group's)");
        assertThatThrownBy(() -> GroupRecordSerde.read(ByteBuffer.wrap(new byte[] {0, 17, 0, 1, 'g'}), null))
                .isInstanceOf(MessageParseException.class).hasMessageContaining("type 17 (a streams group's)");
        assertThatThrownBy(() -> GroupRecordSerde.read(ByteBuffer.wrap(new byte[] {0, 99, 0, 1, 'g'}), null))
                .isInstanceOf(MessageParseException.class).hasMessageContaining("type 99 (unknown)");

        byte[] key = MessageUtil.toCoordinatorTypePrefixedBytes(new ConsumerGroupMetadataKey().setGroupId("g"));
        byte[] newer = MessageUtil.toVersionPrefixedBytes((short) 0, new ConsumerGroupMetadataValue().setEpoch(1));
        newer[1] = 1;
        assertThatThrownBy(() -> GroupRecordSerde.read(ByteBuffer.wrap(key), ByteBuffer.wrap(newer)))
                .isInstanceOf(MessageParseException.class)
                .hasMessageContaining("ConsumerGroupMetadataValue version 1 is not between 0 and 0");
    }

    private static ApiMessage[] record(ApiMessage key, ApiMessage value) {
        return new ApiMessage[] {key, value};
    }

    private static org.apache.kafka.common.Uuid kafka(Uuid id) {
        return new org.apache.kafka.common.Uuid(id.mostSignificantBits(), id.leastSignificantBits());
    }
}

package dev.spool.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.protocol.group.GroupMetadataValueData;
import dev.spool.protocol.group.OffsetCommitKeyData;
import dev.spool.protocol.group.OffsetCommitValueData;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.MessageUtil;
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
        // A record of the new protocol (KIP-848, type 3 ConsumerGroupMetadata) is skipped, not an error.
        assertThat(GroupRecordSerde.read(ByteBuffer.wrap(new byte[] {0, 3, 0, 1, 'g'}), null)).isNull();
    }
}

package dev.spool.broker.group;

import dev.spool.protocol.group.ConsumerGroupCurrentMemberAssignmentKeyData;
import dev.spool.protocol.group.ConsumerGroupCurrentMemberAssignmentValueData;
import dev.spool.protocol.group.ConsumerGroupMemberMetadataKeyData;
import dev.spool.protocol.group.ConsumerGroupMemberMetadataValueData;
import dev.spool.protocol.group.ConsumerGroupMetadataKeyData;
import dev.spool.protocol.group.ConsumerGroupMetadataValueData;
import dev.spool.protocol.group.ConsumerGroupPartitionMetadataKeyData;
import dev.spool.protocol.group.ConsumerGroupPartitionMetadataValueData;
import dev.spool.protocol.group.ConsumerGroupRegularExpressionKeyData;
import dev.spool.protocol.group.ConsumerGroupRegularExpressionValueData;
import dev.spool.protocol.group.ConsumerGroupTargetAssignmentMemberKeyData;
import dev.spool.protocol.group.ConsumerGroupTargetAssignmentMemberValueData;
import dev.spool.protocol.group.ConsumerGroupTargetAssignmentMetadataKeyData;
import dev.spool.protocol.group.ConsumerGroupTargetAssignmentMetadataValueData;
import dev.spool.protocol.group.GroupMetadataKeyData;
import dev.spool.protocol.group.GroupMetadataValueData;
import dev.spool.protocol.group.OffsetCommitKeyData;
import dev.spool.protocol.group.OffsetCommitValueData;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.MessageParseException;
import dev.spool.protocol.types.ProtocolReader;

/**
 * The kinds of {@code __consumer_offsets} record Spool reads, by the int16 that opens the key (Kafka's record type),
 * with the readers of their key and value and the highest value version Spool knows. Every other type (share and
 * streams groups' records, or a future kind) is refused: a coordinator that skipped records it does not understand
 * would serve groups from half their state.
 */
enum GroupRecordType {

    LEGACY_OFFSET_COMMIT(0, "OffsetCommit", OffsetCommitKeyData::new, OffsetCommitValueData::new,
            OffsetCommitValueData.HIGHEST_SUPPORTED_VERSION),
    OFFSET_COMMIT(1, "OffsetCommit", OffsetCommitKeyData::new, OffsetCommitValueData::new,
            OffsetCommitValueData.HIGHEST_SUPPORTED_VERSION),
    GROUP_METADATA(2, "GroupMetadata", GroupMetadataKeyData::new, GroupMetadataValueData::new,
            GroupMetadataValueData.HIGHEST_SUPPORTED_VERSION),
    CONSUMER_GROUP_METADATA(3, "ConsumerGroupMetadata", ConsumerGroupMetadataKeyData::new,
            ConsumerGroupMetadataValueData::new, ConsumerGroupMetadataValueData.HIGHEST_SUPPORTED_VERSION),
    /** Written by Kafka before 4.1 (the subscribed topics' metadata); read and dropped, never written. */
    CONSUMER_GROUP_PARTITION_METADATA(4, "ConsumerGroupPartitionMetadata", ConsumerGroupPartitionMetadataKeyData::new,
            ConsumerGroupPartitionMetadataValueData::new, ConsumerGroupPartitionMetadataValueData.HIGHEST_SUPPORTED_VERSION),
    CONSUMER_GROUP_MEMBER_METADATA(5, "ConsumerGroupMemberMetadata", ConsumerGroupMemberMetadataKeyData::new,
            ConsumerGroupMemberMetadataValueData::new, ConsumerGroupMemberMetadataValueData.HIGHEST_SUPPORTED_VERSION),
    CONSUMER_GROUP_TARGET_ASSIGNMENT_METADATA(6, "ConsumerGroupTargetAssignmentMetadata",
            ConsumerGroupTargetAssignmentMetadataKeyData::new, ConsumerGroupTargetAssignmentMetadataValueData::new,
            ConsumerGroupTargetAssignmentMetadataValueData.HIGHEST_SUPPORTED_VERSION),
    CONSUMER_GROUP_TARGET_ASSIGNMENT_MEMBER(7, "ConsumerGroupTargetAssignmentMember",
            ConsumerGroupTargetAssignmentMemberKeyData::new, ConsumerGroupTargetAssignmentMemberValueData::new,
            ConsumerGroupTargetAssignmentMemberValueData.HIGHEST_SUPPORTED_VERSION),
    CONSUMER_GROUP_CURRENT_MEMBER_ASSIGNMENT(8, "ConsumerGroupCurrentMemberAssignment",
            ConsumerGroupCurrentMemberAssignmentKeyData::new, ConsumerGroupCurrentMemberAssignmentValueData::new,
            ConsumerGroupCurrentMemberAssignmentValueData.HIGHEST_SUPPORTED_VERSION),
    CONSUMER_GROUP_REGULAR_EXPRESSION(16, "ConsumerGroupRegularExpression", ConsumerGroupRegularExpressionKeyData::new,
            ConsumerGroupRegularExpressionValueData::new, ConsumerGroupRegularExpressionValueData.HIGHEST_SUPPORTED_VERSION);

    /** Reads a key or a value body at a version. */
    @FunctionalInterface
    private interface Reader {
        Message read(ProtocolReader reader, short version);
    }

    private final short id;
    private final String name;
    private final Reader key;
    private final Reader value;
    private final short highestValueVersion;

    GroupRecordType(int id, String name, Reader key, Reader value, short highestValueVersion) {
        this.id = (short) id;
        this.name = name;
        this.key = key;
        this.value = value;
        this.highestValueVersion = highestValueVersion;
    }

    short id() {
        return id;
    }

    /** The type whose key opens with {@code id}; refused, naming it, if Spool does not know it. */
    static GroupRecordType of(short id) {
        for (GroupRecordType type : values()) {
            if (type.id == id) {
                return type;
            }
        }
        throw new MessageParseException("__consumer_offsets record of type " + id + " ("
                + (id >= 10 && id <= 15 ? "a share group's" : id >= 17 && id <= 23 ? "a streams group's" : "unknown")
                + "), which Spool does not read");
    }

    /** The key's fields, after its type (always version 0). */
    Message readKey(ProtocolReader reader) {
        return key.read(reader, (short) 0);
    }

    /** The value's fields at {@code version}; refused if the version is newer than Spool knows. */
    Message readValue(ProtocolReader reader, short version) {
        if (version < 0 || version > highestValueVersion) {
            throw new MessageParseException(name + "Value version " + version + " is not between 0 and "
                    + highestValueVersion);
        }
        return value.read(reader, version);
    }
}

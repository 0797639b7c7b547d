package dev.spool.broker.group;

import dev.spool.broker.coordinator.VersionedBytes;
import dev.spool.protocol.group.GroupMetadataKeyData;
import dev.spool.protocol.group.GroupMetadataValueData;
import dev.spool.protocol.group.OffsetCommitKeyData;
import dev.spool.protocol.group.OffsetCommitValueData;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.MessageParseException;
import dev.spool.protocol.types.ProtocolReader;
import java.nio.ByteBuffer;

/**
 * The bytes of a {@code __consumer_offsets} record, as Kafka's group coordinator writes them, so
 * that Kafka's tools ({@code kafka-dump-log --offsets-decoder}) read Spool's partitions:
 *
 * <pre>
 * key:   +----------------------------+----------------------------------------------+
 *        | int16 key version = type   | OffsetCommitKey (0, 1) or GroupMetadataKey (2)|
 *        +----------------------------+----------------------------------------------+
 * value: +----------------------------+----------------------------------------------+
 *        | int16 value version        | OffsetCommitValue or GroupMetadataValue      |   (null: tombstone)
 *        +----------------------------+----------------------------------------------+
 * </pre>
 * Thread-safe.
 */
final class GroupRecordSerde {

    private GroupRecordSerde() {
    }

    static byte[] key(CoordinatorRecord record) {
        return VersionedBytes.of(record.keyVersion(), record.key(), (short) 0);
    }

    /** The value bytes, or null for a tombstone. */
    static byte[] value(CoordinatorRecord record) {
        return record.value() == null ? null : VersionedBytes.of(record.valueVersion(), record.value(), record.valueVersion());
    }

    /**
     * Reads a record; null for a key type this coordinator does not handle (the new protocol's
     * records, KIP-848, which Spool does not write yet).
     */
    static CoordinatorRecord read(ByteBuffer key, ByteBuffer value) {
        if (key == null || key.remaining() < 2) {
            throw new MessageParseException("__consumer_offsets record without a key");
        }
        ByteBuffer keyBytes = key.duplicate();
        short keyVersion = keyBytes.getShort();
        Message keyData;
        if (keyVersion == CoordinatorRecord.OFFSET_COMMIT_KEY_VERSION
                || keyVersion == CoordinatorRecord.LEGACY_OFFSET_COMMIT_KEY_VERSION) {
            keyData = new OffsetCommitKeyData(new ProtocolReader(keyBytes), (short) 0);
        } else if (keyVersion == CoordinatorRecord.GROUP_METADATA_KEY_VERSION) {
            keyData = new GroupMetadataKeyData(new ProtocolReader(keyBytes), (short) 0);
        } else {
            return null;
        }
        if (value == null) {
            return new CoordinatorRecord(keyVersion, keyData, (short) 0, null);
        }
        ByteBuffer valueBytes = value.duplicate();
        short valueVersion = valueBytes.getShort();
        Message valueData;
        if (keyData instanceof OffsetCommitKeyData) {
            checkVersion("OffsetCommitValue", valueVersion, OffsetCommitValueData.HIGHEST_SUPPORTED_VERSION);
            valueData = new OffsetCommitValueData(new ProtocolReader(valueBytes), valueVersion);
        } else {
            checkVersion("GroupMetadataValue", valueVersion, GroupMetadataValueData.HIGHEST_SUPPORTED_VERSION);
            valueData = new GroupMetadataValueData(new ProtocolReader(valueBytes), valueVersion);
        }
        return new CoordinatorRecord(keyVersion, keyData, valueVersion, valueData);
    }

    private static void checkVersion(String name, short version, short highest) {
        if (version < 0 || version > highest) {
            throw new MessageParseException(name + " version " + version + " is not between 0 and " + highest);
        }
    }
}

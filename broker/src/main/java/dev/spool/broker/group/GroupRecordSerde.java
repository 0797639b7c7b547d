package dev.spool.broker.group;

import dev.spool.broker.coordinator.VersionedBytes;
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
 *        | int16 key version = type   | the type's key (GroupRecordType), version 0  |
 *        +----------------------------+----------------------------------------------+
 * value: +----------------------------+----------------------------------------------+
 *        | int16 value version        | the type's value at that version             |   (null: tombstone)
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
     * Reads a record of any type {@link GroupRecordType} knows; a record of another type, or a value in a version
     * newer than Spool knows, is refused with a {@link MessageParseException} that names it.
     */
    static CoordinatorRecord read(ByteBuffer key, ByteBuffer value) {
        if (key == null || key.remaining() < 2) {
            throw new MessageParseException("__consumer_offsets record without a key");
        }
        ByteBuffer keyBytes = key.duplicate();
        GroupRecordType type = GroupRecordType.of(keyBytes.getShort());
        Message keyData = type.readKey(new ProtocolReader(keyBytes));
        if (value == null) {
            return new CoordinatorRecord(type.id(), keyData, (short) 0, null);
        }
        ByteBuffer valueBytes = value.duplicate();
        short valueVersion = valueBytes.getShort();
        return new CoordinatorRecord(type.id(), keyData, valueVersion,
                type.readValue(new ProtocolReader(valueBytes), valueVersion));
    }
}

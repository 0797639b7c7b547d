package dev.spool.broker.metadata;

import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.types.ByteBufferWriter;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.MessageParseException;
import dev.spool.protocol.types.ProtocolReader;
import dev.spool.protocol.types.Sizes;
import java.nio.ByteBuffer;

/**
 * The value of a record in {@code __cluster_metadata}, as KRaft stores it, so that Kafka's tools can
 * read our metadata log:
 *
 * <pre>
 * +---------------------------+------------------------+----------------------+------------------+
 * | frame version (uvarint 1) | record type (uvarint)  | version (uvarint)    | record body      |
 * +---------------------------+------------------------+----------------------+------------------+
 * </pre>
 * Thread-safe.
 */
public final class MetadataRecordSerde {

    private static final int FRAME_VERSION = 1;

    private MetadataRecordSerde() {
    }

    public static ByteBuffer serialize(VersionedRecord record) {
        int size = Sizes.unsignedVarint(FRAME_VERSION) + Sizes.unsignedVarint(record.type().id)
                + Sizes.unsignedVarint(record.version()) + record.data().size(record.version());
        ByteBuffer buffer = ByteBuffer.allocate(size);
        ByteBufferWriter writer = new ByteBufferWriter(buffer);
        writer.writeUnsignedVarint(FRAME_VERSION);
        writer.writeUnsignedVarint(record.type().id);
        writer.writeUnsignedVarint(record.version());
        record.data().write(writer, record.version());
        return buffer.flip();
    }

    public static VersionedRecord deserialize(ByteBuffer value) {
        ProtocolReader reader = new ProtocolReader(value.duplicate());
        int frameVersion = reader.readUnsignedVarint();
        if (frameVersion != FRAME_VERSION) {
            throw new MessageParseException("metadata record frame version " + frameVersion + ", expected " + FRAME_VERSION);
        }
        int typeId = reader.readUnsignedVarint();
        MetadataRecordType type = MetadataRecordType.forId(typeId);
        if (type == null) {
            throw new MessageParseException("unknown metadata record type " + typeId);
        }
        short version = (short) reader.readUnsignedVarint();
        if (version > type.highestVersion) {
            throw new MessageParseException(type + " version " + version + " is newer than " + type.highestVersion);
        }
        Message data = type.newRecord();
        data.read(reader, version);
        return new VersionedRecord(type, version, data);
    }
}

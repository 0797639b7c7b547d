package dev.spool.broker.coordinator;

import dev.spool.protocol.types.ByteBufferWriter;
import dev.spool.protocol.types.Message;
import java.nio.ByteBuffer;

/**
 * Stateless: the bytes of a coordinator record's key or value as Kafka's coordinators write them: an int16 version
 * (for a key, its type), then the message in that version.
 */
public final class VersionedBytes {

    private VersionedBytes() {
    }

    /** {@code prefix} as an int16, then {@code data} written in {@code dataVersion}. */
    public static byte[] of(short prefix, Message data, short dataVersion) {
        byte[] bytes = new byte[2 + data.size(dataVersion)];
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        buffer.putShort(prefix);
        data.write(new ByteBufferWriter(buffer), dataVersion);
        return bytes;
    }
}

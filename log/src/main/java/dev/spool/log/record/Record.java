package dev.spool.log.record;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Immutable (key and value are read-only views): one decoded record of a v2 batch, with its absolute
 * offset and timestamp. Produced by {@link RecordBatch#records()} for tools, tests and compaction; the
 * append and fetch paths never decode records.
 *
 * <pre>
 * length varint | attributes int8 | timestampDelta varlong | offsetDelta varint
 * keyLength varint (-1 = null) | key | valueLength varint (-1 = null) | value
 * headerCount varint | headers: (keyLength varint | key UTF-8 | valueLength varint (-1 = null) | value)*
 * </pre>
 */
public record Record(long offset, long timestamp, ByteBuffer key, ByteBuffer value, List<Header> headers) {

    /** A copy of the key bytes, or null for a null key. */
    public byte[] keyBytes() {
        return copy(key);
    }

    /** A copy of the value bytes, or null for a null value (a tombstone). */
    public byte[] valueBytes() {
        return copy(value);
    }

    private static byte[] copy(ByteBuffer buffer) {
        if (buffer == null) {
            return null;
        }
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}

package dev.spool.log.record;

import java.nio.ByteBuffer;

/**
 * Immutable (the value buffer is a read-only view): one record header. Names may repeat within a
 * record; the value may be null.
 */
public record Header(String key, ByteBuffer value) {
    public Header {
        if (key == null) {
            throw new IllegalArgumentException("Header key must not be null");
        }
    }

    /** Convenience for tests and tools: a header whose value is a copy of the given bytes (null allowed). */
    public static Header of(String key, byte[] value) {
        return new Header(key, value == null ? null : ByteBuffer.wrap(value.clone()).asReadOnlyBuffer());
    }
}

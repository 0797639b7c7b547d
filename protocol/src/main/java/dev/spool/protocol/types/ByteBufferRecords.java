package dev.spool.protocol.types;

import java.nio.ByteBuffer;

/** Records held in memory: a read-only view of a buffer region, never copied. Immutable. */
public final class ByteBufferRecords implements Records {

    private final ByteBuffer buffer;

    public ByteBufferRecords(ByteBuffer buffer) {
        this.buffer = buffer.slice();
    }

    /** A view of the bytes; its position and limit are the caller's to move. */
    public ByteBuffer buffer() {
        return buffer.duplicate();
    }

    @Override
    public int sizeInBytes() {
        return buffer.remaining();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ByteBufferRecords that && buffer.equals(that.buffer);
    }

    @Override
    public int hashCode() {
        return buffer.hashCode();
    }

    @Override
    public String toString() {
        return "ByteBufferRecords(" + buffer.remaining() + " bytes)";
    }
}

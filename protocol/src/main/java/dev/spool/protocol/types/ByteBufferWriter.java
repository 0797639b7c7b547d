package dev.spool.protocol.types;

import java.nio.ByteBuffer;

/** Writes into a heap or direct buffer sized beforehand from {@link Message#size}. Not thread-safe. */
public final class ByteBufferWriter implements ProtocolWriter {

    private final ByteBuffer buffer;

    public ByteBufferWriter(ByteBuffer buffer) {
        this.buffer = buffer;
    }

    public ByteBuffer buffer() {
        return buffer;
    }

    /** Serializes one message into a new buffer, flipped for reading. */
    public static ByteBuffer serialize(Message message, short version) {
        ByteBuffer buffer = ByteBuffer.allocate(message.size(version));
        message.write(new ByteBufferWriter(buffer), version);
        if (buffer.hasRemaining()) {
            throw new IllegalStateException(message.getClass().getSimpleName() + " v" + version + " wrote "
                    + buffer.position() + " bytes, its size said " + buffer.capacity());
        }
        return buffer.flip();
    }

    @Override
    public void writeInt8(byte value) {
        buffer.put(value);
    }

    @Override
    public void writeInt16(short value) {
        buffer.putShort(value);
    }

    @Override
    public void writeInt32(int value) {
        buffer.putInt(value);
    }

    @Override
    public void writeInt64(long value) {
        buffer.putLong(value);
    }

    @Override
    public void writeByteArray(byte[] bytes, int offset, int length) {
        buffer.put(bytes, offset, length);
    }

    @Override
    public void writeRecordBytes(Records records) {
        if (!(records instanceof ByteBufferRecords inMemory)) {
            throw new IllegalArgumentException("a ByteBufferWriter cannot write " + records.getClass().getName());
        }
        buffer.put(inMemory.buffer());
    }
}

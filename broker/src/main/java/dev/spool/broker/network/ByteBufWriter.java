package dev.spool.broker.network;

import dev.spool.protocol.types.ByteBufferRecords;
import dev.spool.protocol.types.ProtocolWriter;
import dev.spool.protocol.types.Records;
import io.netty.buffer.ByteBuf;

/** Writes protocol types into a Netty buffer. Not thread-safe. */
final class ByteBufWriter implements ProtocolWriter {

    private final ByteBuf buffer;

    ByteBufWriter(ByteBuf buffer) {
        this.buffer = buffer;
    }

    @Override
    public void writeInt8(byte value) {
        buffer.writeByte(value);
    }

    @Override
    public void writeInt16(short value) {
        buffer.writeShort(value);
    }

    @Override
    public void writeInt32(int value) {
        buffer.writeInt(value);
    }

    @Override
    public void writeInt64(long value) {
        buffer.writeLong(value);
    }

    @Override
    public void writeByteArray(byte[] bytes, int offset, int length) {
        buffer.writeBytes(bytes, offset, length);
    }

    @Override
    public void writeRecordBytes(Records records) {
        if (!(records instanceof ByteBufferRecords inMemory)) {
            throw new IllegalArgumentException("cannot write records of type " + records.getClass().getName());
        }
        buffer.writeBytes(inMemory.buffer());
    }
}

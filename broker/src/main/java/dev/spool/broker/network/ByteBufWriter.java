package dev.spool.broker.network;

import dev.spool.protocol.types.ByteBufferRecords;
import dev.spool.protocol.types.ProtocolWriter;
import dev.spool.protocol.types.Records;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * Not thread-safe. Writes protocol types into a Netty buffer. Records held in memory are copied in;
 * {@link FileRecords} are not: the buffer is cut there and the records become a file region between the
 * buffer's pieces, sent with sendfile. The buffer should be sized for everything but the file records.
 */
final class ByteBufWriter implements ProtocolWriter {

    private final ByteBuf buffer;
    /** The pieces so far, once the first file records came; null while the frame is one buffer. */
    private List<Object> pieces;
    private int pieceStartIndex;

    /** Takes over the caller's reference to {@code buffer}: {@link #finish} or {@link #discard} releases it. */
    ByteBufWriter(ByteBuf buffer) {
        this.buffer = buffer;
        this.pieceStartIndex = buffer.writerIndex();
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
        if (records instanceof FileRecords file) {
            if (file.sizeInBytes() == 0) {
                return;
            }
            if (pieces == null) {
                pieces = new ArrayList<>();
            }
            cutBuffer();
            pieces.add(file.newRegion());
        } else if (records instanceof ByteBufferRecords inMemory) {
            buffer.writeBytes(inMemory.buffer());
        } else {
            throw new IllegalArgumentException("cannot write records of type " + records.getClass().getName());
        }
    }

    private void cutBuffer() {
        int end = buffer.writerIndex();
        if (end > pieceStartIndex) {
            pieces.add(buffer.retainedSlice(pieceStartIndex, end - pieceStartIndex));
            pieceStartIndex = end;
        }
    }

    /** The frame written, which takes over every reference this writer held. */
    OutboundResponse finish() {
        if (pieces == null) {
            return OutboundResponse.of(buffer);
        }
        cutBuffer();
        buffer.release();
        return OutboundResponse.of(pieces);
    }

    /** Releases what was written, after a failure. */
    void discard() {
        if (pieces != null) {
            OutboundResponse.of(pieces).release();
        }
        buffer.release();
    }
}

package dev.spool.protocol.types;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads protocol types from a buffer, big-endian, checking every length against the bytes that
 * remain before using it, so a malformed body fails with a {@link MessageParseException} and never
 * with an allocation sized from an unchecked length. Strings and byte arrays are copied; records
 * are sliced. Not thread-safe.
 */
public final class ProtocolReader {

    private static final int MAX_STRING_LENGTH = Short.MAX_VALUE;

    private final ByteBuffer buffer;

    /** Reads from the buffer's position to its limit; advances the position. */
    public ProtocolReader(ByteBuffer buffer) {
        this.buffer = buffer;
    }

    public int position() {
        return buffer.position();
    }

    public int remaining() {
        return buffer.remaining();
    }

    private void require(int bytes, String what) {
        require(bytes, what, "");
    }

    /** As {@link #require(int, String)} for "{@code kind} {@code name}": the name joins only in the error. */
    private void require(int bytes, String kind, Object name) {
        if (bytes > buffer.remaining()) {
            throw new MessageParseException("truncated message: " + kind + name + " needs " + bytes
                    + " bytes at position " + buffer.position() + ", " + buffer.remaining() + " remain");
        }
    }

    public boolean readBool() {
        return readInt8() != 0;
    }

    public byte readInt8() {
        require(1, "int8");
        return buffer.get();
    }

    public short readInt16() {
        require(2, "int16");
        return buffer.getShort();
    }

    public int readUint16() {
        return readInt16() & 0xFFFF;
    }

    public int readInt32() {
        require(4, "int32");
        return buffer.getInt();
    }

    public long readUint32() {
        return readInt32() & 0xFFFFFFFFL;
    }

    public long readInt64() {
        require(8, "int64");
        return buffer.getLong();
    }

    public double readFloat64() {
        require(8, "float64");
        return buffer.getDouble();
    }

    public Uuid readUuid() {
        require(16, "uuid");
        return new Uuid(buffer.getLong(), buffer.getLong());
    }

    public int readUnsignedVarint() {
        int value = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            byte b = readInt8();
            value |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new MessageParseException("varint longer than 5 bytes at position " + buffer.position());
    }

    public int readVarint() {
        int raw = readUnsignedVarint();
        return (raw >>> 1) ^ -(raw & 1);
    }

    public long readVarlong() {
        long value = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            byte b = readInt8();
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return (value >>> 1) ^ -(value & 1);
            }
        }
        throw new MessageParseException("varlong longer than 10 bytes at position " + buffer.position());
    }

    /** Reads a length prefix: compact = unsigned varint of length + 1, else int16 / int32. -1 is null. */
    private int readLength(boolean compact, boolean wide, String field) {
        int length = compact ? readUnsignedVarint() - 1 : (wide ? readInt32() : readInt16());
        if (length < -1) {
            throw new MessageParseException("field " + field + " has a negative length " + length);
        }
        return length;
    }

    private void checkNull(int length, boolean nullable, String field) {
        if (length < 0 && !nullable) {
            throw new MessageParseException("non-nullable field " + field + " was serialized as null");
        }
    }

    public String readString(boolean compact, boolean nullable, String field) {
        int length = readLength(compact, false, field);
        checkNull(length, nullable, field);
        if (length < 0) {
            return null;
        }
        if (length > MAX_STRING_LENGTH) {
            throw new MessageParseException("string field " + field + " of " + length + " bytes is longer than "
                    + MAX_STRING_LENGTH);
        }
        require(length, "string field ", field);
        String value;
        if (buffer.hasArray()) {
            value = new String(buffer.array(), buffer.arrayOffset() + buffer.position(), length, StandardCharsets.UTF_8);
            buffer.position(buffer.position() + length);
        } else {
            byte[] bytes = new byte[length];
            buffer.get(bytes);
            value = new String(bytes, StandardCharsets.UTF_8);
        }
        return value;
    }

    public byte[] readBytes(boolean compact, boolean nullable, String field) {
        int length = readLength(compact, true, field);
        checkNull(length, nullable, field);
        if (length < 0) {
            return null;
        }
        require(length, "bytes field ", field);
        byte[] bytes = new byte[length];
        buffer.get(bytes);
        return bytes;
    }

    /** A slice of the buffer, not a copy: the records stay valid as long as the buffer does. */
    public Records readRecords(boolean compact, boolean nullable, String field) {
        int length = readLength(compact, true, field);
        checkNull(length, nullable, field);
        if (length < 0) {
            return null;
        }
        require(length, "records field ", field);
        ByteBuffer slice = buffer.slice();
        slice.limit(length);
        buffer.position(buffer.position() + length);
        return new ByteBufferRecords(slice);
    }

    /** An array's element count, or -1 for a null array. */
    public int readArrayLength(boolean compact) {
        return readLength(compact, true, "array");
    }

    public void requireNullable(boolean nullable, String field) {
        checkNull(-1, nullable, field);
    }

    /**
     * The capacity for a list of {@code count} elements, refused when more elements are announced than
     * bytes remain (as Kafka refuses them), so a hostile length cannot make us allocate.
     */
    public int boundedCapacity(int count) {
        if (count > buffer.remaining()) {
            throw new MessageParseException("array of " + count + " elements at position " + buffer.position()
                    + " but only " + buffer.remaining() + " bytes remain");
        }
        return count;
    }

    /** The position where a tagged field of {@code size} bytes ends, after checking it is there. */
    public int taggedFieldEnd(int size) {
        if (size < 0) {
            throw new MessageParseException("tagged field with negative size " + size);
        }
        require(size, "tagged field");
        return buffer.position() + size;
    }

    public void checkTaggedFieldEnd(int end, int tag) {
        if (buffer.position() != end) {
            throw new MessageParseException("tagged field " + tag + " ended at position " + buffer.position()
                    + ", its size says " + end);
        }
    }

    public List<RawTaggedField> readUnknownTaggedField(List<RawTaggedField> fields, int tag, int size) {
        require(size, "tagged field ", tag);
        byte[] data = new byte[size];
        buffer.get(data);
        List<RawTaggedField> result = fields == null ? new ArrayList<>(2) : fields;
        result.add(new RawTaggedField(tag, data));
        return result;
    }
}

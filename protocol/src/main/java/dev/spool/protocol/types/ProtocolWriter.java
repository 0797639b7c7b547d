package dev.spool.protocol.types;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes protocol types, big-endian. Implementations supply the primitive writes and decide how the
 * bytes of a {@link Records} field travel (copied, or sent from a file); the encodings of strings,
 * bytes, arrays, varints and tagged fields live here once. Not thread-safe.
 */
public interface ProtocolWriter {

    void writeInt8(byte value);

    void writeInt16(short value);

    void writeInt32(int value);

    void writeInt64(long value);

    void writeByteArray(byte[] bytes, int offset, int length);

    /** Writes the bytes of a records field (its length prefix is already written). */
    void writeRecordBytes(Records records);

    default void writeBool(boolean value) {
        writeInt8(value ? (byte) 1 : (byte) 0);
    }

    default void writeUint16(int value) {
        writeInt16((short) value);
    }

    default void writeUint32(long value) {
        writeInt32((int) value);
    }

    default void writeFloat64(double value) {
        writeInt64(Double.doubleToRawLongBits(value));
    }

    default void writeUuid(Uuid value) {
        writeInt64(value.mostSignificantBits());
        writeInt64(value.leastSignificantBits());
    }

    default void writeUnsignedVarint(int value) {
        int remaining = value;
        while ((remaining & 0xFFFFFF80) != 0) {
            writeInt8((byte) ((remaining & 0x7F) | 0x80));
            remaining >>>= 7;
        }
        writeInt8((byte) remaining);
    }

    default void writeVarint(int value) {
        writeUnsignedVarint((value << 1) ^ (value >> 31));
    }

    default void writeVarlong(long value) {
        long remaining = (value << 1) ^ (value >> 63);
        while ((remaining & 0xFFFFFFFFFFFFFF80L) != 0) {
            writeInt8((byte) ((remaining & 0x7F) | 0x80));
            remaining >>>= 7;
        }
        writeInt8((byte) remaining);
    }

    private void writeLength(int length, boolean compact, boolean wide) {
        if (compact) {
            writeUnsignedVarint(length + 1);
        } else if (wide) {
            writeInt32(length);
        } else {
            writeInt16((short) length);
        }
    }

    default void writeString(String value, boolean compact, boolean nullable, String field) {
        if (value == null) {
            if (!nullable) {
                throw nullNotAllowed(field);
            }
            writeLength(-1, compact, false);
            return;
        }
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        if (utf8.length > Short.MAX_VALUE) {
            throw new IllegalArgumentException("string field " + field + " is " + utf8.length + " bytes, more than "
                    + Short.MAX_VALUE);
        }
        writeLength(utf8.length, compact, false);
        writeByteArray(utf8, 0, utf8.length);
    }

    default void writeBytes(byte[] value, boolean compact, boolean nullable, String field) {
        if (value == null) {
            if (!nullable) {
                throw nullNotAllowed(field);
            }
            writeLength(-1, compact, true);
            return;
        }
        writeLength(value.length, compact, true);
        writeByteArray(value, 0, value.length);
    }

    default void writeRecords(Records value, boolean compact, boolean nullable, String field) {
        if (value == null) {
            if (!nullable) {
                throw nullNotAllowed(field);
            }
            writeLength(-1, compact, true);
            return;
        }
        writeLength(value.sizeInBytes(), compact, true);
        writeRecordBytes(value);
    }

    default void writeArrayLength(int count, boolean compact) {
        writeLength(count, compact, true);
    }

    default void writeNullArray(boolean compact, boolean nullable, String field) {
        if (!nullable) {
            throw nullNotAllowed(field);
        }
        writeLength(-1, compact, true);
    }

    /**
     * Writes the unknown tagged fields from index {@code from} whose tag is below {@code tagLimit}, so
     * that they interleave in tag order with the known ones. Returns the index of the next one.
     */
    default int writeRawTaggedFields(List<RawTaggedField> fields, int from, int tagLimit) {
        int index = from;
        while (fields != null && index < fields.size() && fields.get(index).tag() < tagLimit) {
            RawTaggedField field = fields.get(index++);
            writeUnsignedVarint(field.tag());
            writeUnsignedVarint(field.data().length);
            writeByteArray(field.data(), 0, field.data().length);
        }
        return index;
    }

    static IllegalArgumentException nullNotAllowed(String field) {
        return new IllegalArgumentException("field " + field + " is null but not nullable in this version");
    }
}

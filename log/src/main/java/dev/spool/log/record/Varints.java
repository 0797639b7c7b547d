package dev.spool.log.record;

import java.nio.ByteBuffer;

/**
 * Stateless: zig-zag variable-length integers as used inside v2 records (protobuf's encoding: 7 bits
 * a byte, least significant group first, high bit set on every byte but the last).
 */
public final class Varints {
    private static final int MAX_VARINT_BYTES = 5;
    private static final int MAX_VARLONG_BYTES = 10;

    private Varints() {
    }

    /** Reads a zig-zag varint at the buffer's position, advancing it. */
    public static int readVarint(ByteBuffer buffer) {
        int raw = 0;
        int shift = 0;
        for (int i = 0; i < MAX_VARINT_BYTES; i++) {
            byte b = buffer.get();
            raw |= (b & 0x7f) << shift;
            if (b >= 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
            shift += 7;
        }
        throw new CorruptRecordException("Varint longer than " + MAX_VARINT_BYTES + " bytes ending at position "
                + buffer.position());
    }

    /** Reads a zig-zag varlong at the buffer's position, advancing it. */
    public static long readVarlong(ByteBuffer buffer) {
        long raw = 0;
        int shift = 0;
        for (int i = 0; i < MAX_VARLONG_BYTES; i++) {
            byte b = buffer.get();
            raw |= (long) (b & 0x7f) << shift;
            if (b >= 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
            shift += 7;
        }
        throw new CorruptRecordException("Varlong longer than " + MAX_VARLONG_BYTES + " bytes ending at position "
                + buffer.position());
    }

    /** Writes a zig-zag varint at the buffer's position, advancing it. */
    public static void writeVarint(ByteBuffer buffer, int value) {
        int raw = (value << 1) ^ (value >> 31);
        while ((raw & ~0x7f) != 0) {
            buffer.put((byte) ((raw & 0x7f) | 0x80));
            raw >>>= 7;
        }
        buffer.put((byte) raw);
    }

    /** Writes a zig-zag varlong at the buffer's position, advancing it. */
    public static void writeVarlong(ByteBuffer buffer, long value) {
        long raw = (value << 1) ^ (value >> 63);
        while ((raw & ~0x7fL) != 0) {
            buffer.put((byte) ((raw & 0x7f) | 0x80));
            raw >>>= 7;
        }
        buffer.put((byte) raw);
    }

    /** Bytes {@link #writeVarint} uses for this value. */
    public static int sizeOfVarint(int value) {
        int raw = (value << 1) ^ (value >> 31);
        int bytes = 1;
        while ((raw & ~0x7f) != 0) {
            bytes++;
            raw >>>= 7;
        }
        return bytes;
    }

    /** Bytes {@link #writeVarlong} uses for this value. */
    public static int sizeOfVarlong(long value) {
        long raw = (value << 1) ^ (value >> 63);
        int bytes = 1;
        while ((raw & ~0x7fL) != 0) {
            bytes++;
            raw >>>= 7;
        }
        return bytes;
    }
}

package dev.spool.protocol.types;

/** Encoded sizes of the protocol's variable-length types. Thread-safe. */
public final class Sizes {

    private Sizes() {
    }

    public static int unsignedVarint(int value) {
        // 7 payload bits a byte: 1 byte below 2^7, up to 5 bytes for the full 32 bits.
        int bits = 32 - Integer.numberOfLeadingZeros(value);
        return Math.max(1, (bits + 6) / 7);
    }

    public static int varint(int value) {
        return unsignedVarint((value << 1) ^ (value >> 31));
    }

    public static int varlong(long value) {
        long zigzag = (value << 1) ^ (value >> 63);
        int bits = 64 - Long.numberOfLeadingZeros(zigzag);
        return Math.max(1, (bits + 6) / 7);
    }

    /**
     * Bytes of a string's UTF-8 encoding as {@code String.getBytes(UTF_8)} writes it, computed without
     * encoding it: a surrogate without its pair is written as the one-byte replacement '?'.
     */
    public static int utf8Length(String text) {
        int length = text.length();
        int bytes = 0;
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (!Character.isSurrogate(c)) {
                bytes += 3;
            } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 1;
            }
        }
        return bytes;
    }

    public static int string(String text, boolean compact) {
        if (text == null) {
            return compact ? 1 : 2;
        }
        int length = utf8Length(text);
        return (compact ? unsignedVarint(length + 1) : 2) + length;
    }

    public static int bytes(byte[] bytes, boolean compact) {
        return bytesOfLength(bytes == null ? -1 : bytes.length, compact);
    }

    public static int records(Records records, boolean compact) {
        return bytesOfLength(records == null ? -1 : records.sizeInBytes(), compact);
    }

    private static int bytesOfLength(int length, boolean compact) {
        if (length < 0) {
            return compact ? 1 : 4;
        }
        return (compact ? unsignedVarint(length + 1) : 4) + length;
    }

    /** The size of an array's length prefix; -1 stands for a null array. */
    public static int arrayLength(int count, boolean compact) {
        if (count < 0) {
            return compact ? 1 : 4;
        }
        return compact ? unsignedVarint(count + 1) : 4;
    }
}

package dev.spool.protocol.types;

import java.nio.ByteBuffer;
import java.util.Base64;

/**
 * A 128-bit identifier (topic ids, member ids in newer protocols). The all-zero value means "none".
 * Printed in URL-safe base64 without padding, the form Kafka's tools show. Immutable.
 */
public record Uuid(long mostSignificantBits, long leastSignificantBits) {

    public static final Uuid ZERO_UUID = new Uuid(0L, 0L);

    /** A random, non-zero id. Kafka's tools never show ids starting with '-', so neither do we. */
    public static Uuid randomUuid() {
        while (true) {
            ByteBuffer random = ByteBuffer.wrap(RandomBytes.read(16));
            Uuid id = new Uuid(random.getLong(), random.getLong());
            if (!id.equals(ZERO_UUID) && !id.toString().startsWith("-")) {
                return id;
            }
        }
    }

    public static Uuid fromString(String text) {
        byte[] bytes = Base64.getUrlDecoder().decode(text);
        if (bytes.length != 16) {
            throw new IllegalArgumentException("a uuid is 16 bytes, got " + bytes.length + " from '" + text + "'");
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        return new Uuid(buffer.getLong(), buffer.getLong());
    }

    // equals and hashCode by hand: a record's generated ones link through method handles at their first call,
    // ~5-20 ms of a broker's start-up for each of the few records used as keys from the start.
    @Override
    public boolean equals(Object other) {
        return other instanceof Uuid that && mostSignificantBits == that.mostSignificantBits
                && leastSignificantBits == that.leastSignificantBits;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(mostSignificantBits) * 31 + Long.hashCode(leastSignificantBits);
    }

    @Override
    public String toString() {
        ByteBuffer buffer = ByteBuffer.allocate(16);
        buffer.putLong(mostSignificantBits).putLong(leastSignificantBits);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(buffer.array());
    }
}

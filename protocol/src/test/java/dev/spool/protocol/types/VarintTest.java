package dev.spool.protocol.types;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Unsigned varints, zigzag varints and varlongs: {@link ByteBufferWriter} writes what Kafka writes,
 * {@link ProtocolReader} reads it back, and {@link Sizes} predicts the length.
 */
class VarintTest {

    /** Every boundary where the encoding gains a byte, and the extremes. */
    private static final int[] INT_EDGES = {0, 1, -1, 63, 64, -64, -65, 127, 128, 16_383, 16_384, 2_097_151, 2_097_152,
            268_435_455, 268_435_456, Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE - 1,
            Integer.MIN_VALUE + 1};

    @Test
    void edgeValuesRoundTrip() {
        for (int value : INT_EDGES) {
            assertUnsignedVarint(value);
            assertVarint(value);
            assertVarlong(value);
            assertVarlong((long) value << 32);
        }
        for (long value : new long[] {Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 1, Long.MIN_VALUE + 1,
                1L << 62, -(1L << 62), (1L << 56) - 1, 1L << 56}) {
            assertVarlong(value);
        }
    }

    @Test
    void unsignedVarintSizesGrowEverySevenBits() {
        assertThat(Sizes.unsignedVarint(0)).isEqualTo(1);
        assertThat(Sizes.unsignedVarint(127)).isEqualTo(1);
        assertThat(Sizes.unsignedVarint(128)).isEqualTo(2);
        assertThat(Sizes.unsignedVarint(16_384)).isEqualTo(3);
        assertThat(Sizes.unsignedVarint(-1)).isEqualTo(5);
        assertThat(Sizes.varint(-1)).isEqualTo(1);
        assertThat(Sizes.varint(Integer.MIN_VALUE)).isEqualTo(5);
        assertThat(Sizes.varlong(Long.MIN_VALUE)).isEqualTo(10);
    }

    @Property(tries = 2000)
    void intsRoundTrip(@ForAll int value) {
        assertUnsignedVarint(value);
        assertVarint(value);
    }

    @Property(tries = 2000)
    void longsRoundTrip(@ForAll long value) {
        assertVarlong(value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "80", "ffff", "ffffffff"})
    void truncatedVarintFailsToParse(String hex) {
        assertThatThrownBy(() -> reader(hex).readUnsignedVarint()).isInstanceOf(MessageParseException.class);
        assertThatThrownBy(() -> reader(hex).readVarlong()).isInstanceOf(MessageParseException.class);
    }

    @Test
    void overlongVarintFailsToParse() {
        assertThatThrownBy(() -> reader("ffffffffff01").readUnsignedVarint()).isInstanceOf(MessageParseException.class);
        assertThatThrownBy(() -> reader("ffffffffffffffffffff01").readVarlong())
                .isInstanceOf(MessageParseException.class);
    }

    private static void assertUnsignedVarint(int value) {
        assertEncoding("unsigned varint", value, w -> w.writeUnsignedVarint(value), k -> k.writeUnsignedVarint(value),
                Sizes.unsignedVarint(value), ProtocolReader::readUnsignedVarint);
    }

    private static void assertVarint(int value) {
        assertEncoding("varint", value, w -> w.writeVarint(value), k -> k.writeVarint(value), Sizes.varint(value),
                ProtocolReader::readVarint);
    }

    private static void assertVarlong(long value) {
        assertEncoding("varlong", value, w -> w.writeVarlong(value), k -> k.writeVarlong(value), Sizes.varlong(value),
                ProtocolReader::readVarlong);
    }

    /** Spool writes what Kafka writes, in as many bytes as {@link Sizes} said, and reads it back. */
    private static void assertEncoding(String encoding, long value, Consumer<ByteBufferWriter> ourWrite,
                                       Consumer<ByteBufferAccessor> kafkaWrite, int predictedSize,
                                       ToLongFunction<ProtocolReader> read) {
        byte[] written = ours(ourWrite);
        assertThat(written).as("%s %d", encoding, value).isEqualTo(kafka(kafkaWrite));
        assertThat(predictedSize).as("size of %s %d", encoding, value).isEqualTo(written.length);
        ProtocolReader reader = new ProtocolReader(ByteBuffer.wrap(written));
        assertThat(read.applyAsLong(reader)).as("%s %d read back", encoding, value).isEqualTo(value);
        assertThat(reader.remaining()).isZero();
    }

    private static byte[] ours(Consumer<ByteBufferWriter> write) {
        ByteBufferWriter writer = new ByteBufferWriter(ByteBuffer.allocate(16));
        write.accept(writer);
        return copy(writer.buffer());
    }

    private static byte[] kafka(Consumer<ByteBufferAccessor> write) {
        ByteBufferAccessor accessor = new ByteBufferAccessor(ByteBuffer.allocate(16));
        write.accept(accessor);
        return copy(accessor.buffer());
    }

    private static byte[] copy(ByteBuffer written) {
        byte[] bytes = new byte[written.position()];
        written.flip().get(bytes);
        return bytes;
    }

    private static ProtocolReader reader(String hex) {
        return new ProtocolReader(ByteBuffer.wrap(HexFormat.of().parseHex(hex)));
    }
}

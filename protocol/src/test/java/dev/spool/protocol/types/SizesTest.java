package dev.spool.protocol.types;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link Sizes} of strings, bytes and arrays against the bytes {@link ByteBufferWriter} writes. */
class SizesTest {

    /** Any UTF-16, lone surrogates included: a size that disagrees with the write breaks the frame. */
    @Provide
    Arbitrary<String> anyUtf16() {
        return Arbitraries.strings().withCharRange(Character.MIN_VALUE, Character.MAX_VALUE).ofMaxLength(40);
    }

    @Property(tries = 2000)
    void utf8LengthIsTheLengthOfTheEncoding(@ForAll("anyUtf16") String text) {
        assertThat(Sizes.utf8Length(text)).isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
    }

    @Test
    void loneSurrogatesCountAsTheReplacementByte() {
        // String.getBytes writes '?' for a surrogate without its pair.
        assertThat(Sizes.utf8Length("a\uD800b")).isEqualTo(3);
        assertThat(Sizes.utf8Length("\uDC00")).isEqualTo(1);
        assertThat(Sizes.utf8Length("\uD83D")).isEqualTo(1);
        assertThat(Sizes.utf8Length("\uD83D\uDE00")).isEqualTo(4);
    }

    @Property(tries = 500)
    void stringSizeIsTheBytesWritten(@ForAll("anyUtf16") String text, @ForAll boolean compact) {
        ByteBufferWriter writer = new ByteBufferWriter(ByteBuffer.allocate(Sizes.string(text, compact)));
        writer.writeString(text, compact, false, "text");
        assertThat(writer.buffer().remaining()).isZero();
    }

    @Test
    void nullsTakeOnlyTheirLength() {
        assertThat(Sizes.string(null, false)).isEqualTo(2);
        assertThat(Sizes.string(null, true)).isEqualTo(1);
        assertThat(Sizes.bytes(null, false)).isEqualTo(4);
        assertThat(Sizes.bytes(null, true)).isEqualTo(1);
        assertThat(Sizes.records(null, false)).isEqualTo(4);
        assertThat(Sizes.arrayLength(-1, true)).isEqualTo(1);
    }

    @Test
    void compactLengthsCountTheExtraOne() {
        // 126 + 1 fits one varint byte, 127 + 1 needs two.
        assertThat(Sizes.bytes(new byte[126], true)).isEqualTo(1 + 126);
        assertThat(Sizes.bytes(new byte[127], true)).isEqualTo(2 + 127);
        assertThat(Sizes.arrayLength(127, true)).isEqualTo(2);
        assertThat(Sizes.arrayLength(127, false)).isEqualTo(4);
    }
}

package dev.spool.protocol.message;

import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.MessageParseException;
import dev.spool.protocol.types.ProtocolReader;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

/**
 * Spool's generated readers on bodies that are not valid: every failure is a
 * {@link MessageParseException}, never an IndexOutOfBounds, BufferUnderflow, NegativeArraySize or
 * OutOfMemory error, and no allocation is sized from a length before the bytes behind it are there.
 */
class MalformedMessageTest {

    /** More than any legitimate parse of these few bytes allocates, far less than the lengths declared. */
    private static final long MAX_ALLOCATED_BYTES = 1 << 20;

    @Provide
    Arbitrary<SpecVersion> everySpecVersion() {
        return Arbitraries.of(SpecVersion.ALL);
    }

    /** Every proper prefix of a valid body lacks bytes the reader needs, wherever the cut falls. */
    @Property(generation = GenerationMode.EXHAUSTIVE, tries = Integer.MAX_VALUE)
    void everyTruncationOfEveryMessageFailsToParse(@ForAll("everySpecVersion") SpecVersion specVersion) {
        byte[] valid = RandomMessageEncoder.encode(specVersion, new Random(specVersion.toString().hashCode()));
        for (int length = 0; length < valid.length; length++) {
            int cut = length;
            assertThatThrownBy(() -> read(specVersion, ByteBuffer.wrap(valid, 0, cut)))
                    .as("%s cut to %d of %d bytes: %s", specVersion, cut, valid.length, HexFormat.of().formatHex(valid))
                    .isInstanceOf(MessageParseException.class);
        }
    }

    /** Overwritten bytes make any length, count or tag out of a valid body; reading either works or says why not. */
    @Property(tries = 3000)
    void corruptedMessagesParseOrFailWithParseException(@ForAll("everySpecVersion") SpecVersion specVersion,
                                                         @ForAll long seed) {
        Random random = new Random(seed);
        byte[] bytes = RandomMessageEncoder.encode(specVersion, random);
        if (bytes.length == 0) {
            return;
        }
        for (int i = 1 + random.nextInt(3); i > 0; i--) {
            bytes[random.nextInt(bytes.length)] = (byte) random.nextInt();
        }
        try {
            read(specVersion, ByteBuffer.wrap(bytes));
        } catch (MessageParseException expected) {
            // The one way a reader may reject its input.
        } catch (RuntimeException | Error e) {
            throw new AssertionError(specVersion + " threw " + e + " on " + HexFormat.of().formatHex(bytes), e);
        }
    }

    /** A hand-written malformed body for one version of a message. */
    record Body(String what, Supplier<Message> message, int version, String hex) {
        @Override
        public String toString() {
            return what;
        }

        void read() {
            message.get().read(new ProtocolReader(ByteBuffer.wrap(HexFormat.of().parseHex(hex))), (short) version);
        }
    }

    /**
     * Bodies that declare a length far beyond the bytes that follow. Each ends right after the huge
     * length (and one byte), so a reader that allocated before checking would ask for gigabytes.
     */
    static List<Body> hugeLengths() {
        return List.of(
                // RequestHeader v1: api key, api version, correlation id, then the client id's int16 length.
                new Body("string, int16 length 32767", RequestHeaderData::new, 1, "0003000c00000007" + "7fff" + "41"),
                // ApiVersionsRequest v3: ClientSoftwareName, a compact string of length 0x7fffffff - 1.
                new Body("compact string, varint length", ApiVersionsRequestData::new, 3, "ffffffff07" + "41"),
                // SaslAuthenticateRequest v0: AuthBytes, int32 length.
                new Body("bytes, int32 length", SaslAuthenticateRequestData::new, 0, "7ffffff0" + "41"),
                // SaslAuthenticateRequest v2: AuthBytes, compact.
                new Body("compact bytes, varint length", SaslAuthenticateRequestData::new, 2, "f0ffffff07" + "41"),
                // MetadataRequest v1: Topics, int32 count.
                new Body("array, int32 count", MetadataRequestData::new, 1, "7ffffff0" + "41"),
                // MetadataRequest v12: Topics, compact count.
                new Body("compact array, varint count", MetadataRequestData::new, 12, "f0ffffff07" + "41"),
                // ProduceRequest v3: null transactional id, acks, timeout, one topic "t", one partition 0,
                // then the records' int32 length.
                new Body("records, int32 length", ProduceRequestData::new, 3,
                        "ffff" + "0001" + "00000064" + "00000001" + "000174" + "00000001" + "00000000" + "7ffffff0" + "41"),
                // ApiVersionsRequest v3: two empty compact strings, one tagged field (tag 5) of size 0x7fffffff.
                new Body("unknown tagged field, varint size", ApiVersionsRequestData::new, 3,
                        "01" + "01" + "01" + "05" + "ffffffff07" + "41"),
                // ApiVersionsRequest v3: two empty compact strings, 0x7fffffff tagged fields.
                new Body("tagged field count", ApiVersionsRequestData::new, 3, "01" + "01" + "ffffffff07" + "41"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hugeLengths")
    void hugeDeclaredLengthFailsWithoutAllocating(Body body) {
        // Once before measuring, so that class loading and the first exception are not counted.
        assertThatThrownBy(body::read).isInstanceOf(MessageParseException.class);

        long before = allocatedBytes();
        try {
            body.read();
            fail("read a body that declares a huge length");
        } catch (MessageParseException expected) {
            assertThat(allocatedBytes() - before).as("bytes allocated").isLessThan(MAX_ALLOCATED_BYTES);
        }
    }

    /**
     * A known tagged field whose declared size is not the size of its value. Kafka's reader trusts the
     * value and ignores the size; Spool's rejects the body, since the two cannot both be right.
     */
    static List<Body> taggedFieldSizeMismatches() {
        // ApiVersionsResponse v3: error code, no api keys, throttle time, then one tagged field:
        // FinalizedFeaturesEpoch (tag 1), an int64, declared 7 or 9 bytes long.
        String fixedFields = "0000" + "01" + "00000000" + "01" + "01";
        return List.of(
                new Body("int64 declared 7 bytes", ApiVersionsResponseData::new, 3, fixedFields + "07" + "0000000000000001"),
                new Body("int64 declared 9 bytes", ApiVersionsResponseData::new, 3,
                        fixedFields + "09" + "0000000000000001" + "00"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("taggedFieldSizeMismatches")
    void taggedFieldOfTheWrongSizeFailsToParse(Body body) {
        assertThatThrownBy(body::read).isInstanceOf(MessageParseException.class).hasMessageContaining("tagged field 1");
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    private static void read(SpecVersion specVersion, ByteBuffer bytes) {
        specVersion.newOurs().read(new ProtocolReader(bytes), specVersion.version());
    }
}

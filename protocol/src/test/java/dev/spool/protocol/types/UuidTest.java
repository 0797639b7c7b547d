package dev.spool.protocol.types;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link Uuid} prints and parses as Kafka's Uuid does, and travels as two big-endian longs. */
class UuidTest {

    @Property(tries = 1000)
    void printsAndParsesLikeKafka(@ForAll long most, @ForAll long least) {
        Uuid ours = new Uuid(most, least);
        org.apache.kafka.common.Uuid kafka = new org.apache.kafka.common.Uuid(most, least);
        assertThat(ours.toString()).isEqualTo(kafka.toString());
        assertThat(Uuid.fromString(kafka.toString())).isEqualTo(ours);
        org.apache.kafka.common.Uuid back = org.apache.kafka.common.Uuid.fromString(ours.toString());
        assertThat(back.getMostSignificantBits()).isEqualTo(most);
        assertThat(back.getLeastSignificantBits()).isEqualTo(least);
    }

    @Property(tries = 200)
    void travelsAsSixteenBytes(@ForAll long most, @ForAll long least) {
        ByteBufferWriter writer = new ByteBufferWriter(ByteBuffer.allocate(16));
        writer.writeUuid(new Uuid(most, least));
        ByteBuffer written = writer.buffer().flip();
        assertThat(written.getLong(0)).isEqualTo(most);
        assertThat(written.getLong(8)).isEqualTo(least);
        assertThat(new ProtocolReader(written).readUuid()).isEqualTo(new Uuid(most, least));
    }

    @Test
    void zeroIsAllZeroBits() {
        assertThat(Uuid.ZERO_UUID.toString()).isEqualTo("AAAAAAAAAAAAAAAAAAAAAA");
        assertThat(Uuid.fromString("AAAAAAAAAAAAAAAAAAAAAA")).isEqualTo(Uuid.ZERO_UUID);
    }

    @Test
    void randomIdsAreNeverZeroNorStartWithADash() {
        for (int i = 0; i < 1000; i++) {
            Uuid id = Uuid.randomUuid();
            assertThat(id).isNotEqualTo(Uuid.ZERO_UUID);
            assertThat(id.toString()).doesNotStartWith("-").hasSize(22);
        }
    }

    @Test
    void randomIdsDoNotRepeatAndUseEveryBit() {
        java.util.Set<Uuid> seen = new java.util.HashSet<>();
        long mostOr = 0;
        long leastOr = 0;
        for (int i = 0; i < 10_000; i++) {
            Uuid id = Uuid.randomUuid();
            assertThat(seen.add(id)).as("repeated id %s", id).isTrue();
            mostOr |= id.mostSignificantBits();
            leastOr |= id.leastSignificantBits();
        }
        assertThat(mostOr).isEqualTo(-1L);
        assertThat(leastOr).isEqualTo(-1L);
    }

    @Test
    void fromStringRejectsWhatIsNotSixteenBytes() {
        assertThatThrownBy(() -> Uuid.fromString("AAAA")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("16 bytes");
        assertThatThrownBy(() -> Uuid.fromString("not base64 at all!")).isInstanceOf(IllegalArgumentException.class);
    }
}

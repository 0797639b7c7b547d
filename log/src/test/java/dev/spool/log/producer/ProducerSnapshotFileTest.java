package dev.spool.log.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProducerSnapshotFileTest {

    @TempDir
    Path dir;

    private static final List<ProducerSnapshotFile.Entry> ENTRIES = List.of(
            new ProducerSnapshotFile.Entry(1, (short) 0, 9, 99, 4, 1_700_000_000_000L, -1, -1),
            new ProducerSnapshotFile.Entry(7, (short) 3, Integer.MAX_VALUE, 12, 0, 5, -1, -1));

    @Test
    void writtenSnapshotsReadBackAndAreNamedByOffset() throws IOException {
        Path file = ProducerSnapshotFile.write(dir, 1234, ENTRIES);
        assertThat(file.getFileName().toString()).isEqualTo("00000000000000001234.snapshot");
        assertThat(ProducerSnapshotFile.offsetOf(file)).isEqualTo(1234);
        assertThat(ProducerSnapshotFile.read(file)).isEqualTo(ENTRIES);
        assertThat(ProducerSnapshotFile.list(dir)).containsOnlyKeys(1234L);
        assertThat(Files.list(dir)).hasSize(1);
    }

    @Test
    void theLayoutIsKafkasVersionOne() {
        ByteBuffer bytes = ProducerSnapshotFile.encode(ENTRIES.subList(0, 1));
        assertThat(bytes.remaining()).isEqualTo(10 + 46);
        assertThat(bytes.getShort(0)).isEqualTo((short) 1);
        assertThat(bytes.getInt(6)).isEqualTo(1);
        assertThat(bytes.getLong(10)).isEqualTo(1);
        assertThat(bytes.getShort(18)).isZero();
        assertThat(bytes.getInt(20)).isEqualTo(9);
        assertThat(bytes.getLong(24)).isEqualTo(99);
        assertThat(bytes.getInt(32)).isEqualTo(4);
        assertThat(bytes.getLong(36)).isEqualTo(1_700_000_000_000L);
        assertThat(bytes.getInt(44)).isEqualTo(-1);
        assertThat(bytes.getLong(48)).isEqualTo(-1);
        CRC32C crc = new CRC32C();
        crc.update(bytes.duplicate().position(6));
        assertThat(Integer.toUnsignedLong(bytes.getInt(2))).isEqualTo(crc.getValue());
    }

    @Test
    void aDamagedSnapshotIsRejected() throws IOException {
        Path file = ProducerSnapshotFile.write(dir, 5, ENTRIES);
        byte[] bytes = Files.readAllBytes(file);
        bytes[30] ^= 1;
        Files.write(file, bytes);
        assertThatThrownBy(() -> ProducerSnapshotFile.read(file)).isInstanceOf(IOException.class).hasMessageContaining("CRC");
        Files.write(file, new byte[] {0, 2, 0, 0, 0, 0, 0, 0, 0, 0});
        assertThatThrownBy(() -> ProducerSnapshotFile.read(file)).hasMessageContaining("version 2");
    }

    @Test
    void otherFileNamesAreNotSnapshots() {
        assertThat(ProducerSnapshotFile.offsetOf(dir.resolve("00000000000000000000.log"))).isEqualTo(-1);
        assertThat(ProducerSnapshotFile.offsetOf(dir.resolve("0.snapshot"))).isEqualTo(-1);
    }
}

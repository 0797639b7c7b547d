package dev.spool.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spool.protocol.types.Uuid;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetaPropertiesTest {

    @TempDir
    Path dir;

    @Test
    void createdOnFirstStartInKafkasFormat() throws IOException {
        Path logDir = dir.resolve("not-yet/created");

        MetaProperties meta = MetaProperties.loadOrCreate(logDir, 4);

        Properties file = read(logDir.resolve(MetaProperties.FILE_NAME));
        assertThat(file.getProperty("version")).isEqualTo("1");
        assertThat(file.getProperty("node.id")).isEqualTo("4");
        assertThat(file.getProperty("cluster.id")).isEqualTo(meta.clusterId());
        assertThat(file.getProperty("directory.id")).isEqualTo(meta.directoryId());
        assertThat(Uuid.fromString(meta.clusterId())).as("a base64 uuid, as kafka-storage makes").isNotNull();
        assertThat(meta.nodeId()).isEqualTo(4);
        try (Stream<Path> files = Files.list(logDir)) {
            assertThat(files).as("no temporary file left").containsExactly(logDir.resolve(MetaProperties.FILE_NAME));
        }
    }

    @Test
    void reloadKeepsTheClusterId() throws IOException {
        MetaProperties first = MetaProperties.loadOrCreate(dir, 1);

        MetaProperties again = MetaProperties.loadOrCreate(dir, 1);

        assertThat(again).isEqualTo(first);
    }

    @Test
    void eachNewDirectoryGetsItsOwnClusterId() throws IOException {
        MetaProperties one = MetaProperties.loadOrCreate(dir.resolve("one"), 1);
        MetaProperties two = MetaProperties.loadOrCreate(dir.resolve("two"), 1);

        assertThat(one.clusterId()).isNotEqualTo(two.clusterId());
    }

    @Test
    void differentNodeIdIsRefused() throws IOException {
        MetaProperties.loadOrCreate(dir, 1);

        assertThatThrownBy(() -> MetaProperties.loadOrCreate(dir, 2))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("node.id 1")
                .hasMessageContaining("node.id 2")
                .hasMessageContaining(dir.resolve(MetaProperties.FILE_NAME).toString());
    }

    @Test
    void fileWithoutClusterIdIsRefused() throws IOException {
        Files.writeString(dir.resolve(MetaProperties.FILE_NAME), "version=1\nnode.id=1\n");

        assertThatThrownBy(() -> MetaProperties.loadOrCreate(dir, 1))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("cluster.id");
    }

    @Test
    void fileWithInvalidNodeIdIsRefused() throws IOException {
        Files.writeString(dir.resolve(MetaProperties.FILE_NAME), "version=1\ncluster.id=abc\nnode.id=one\n");

        assertThatThrownBy(() -> MetaProperties.loadOrCreate(dir, 1))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("'one'");
    }

    private static Properties read(Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        }
        return properties;
    }
}

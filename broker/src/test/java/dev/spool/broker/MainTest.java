package dev.spool.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {

    @TempDir
    Path dir;

    @Test
    void configFileSettingsAreRead() throws IOException {
        Path config = write("node.id=5\nlog.dir = /var/spool \n# a comment\n");

        assertThat(Main.parseArguments(new String[] {"server", "--config", config.toString()}))
                .containsExactlyInAnyOrderEntriesOf(Map.of("node.id", "5", "log.dir", "/var/spool"));
    }

    @Test
    void overrideWinsOverTheConfigFile() throws IOException {
        Path config = write("node.id=5\nlog.dir=/var/spool\n");

        Map<String, String> properties = Main.parseArguments(
                new String[] {"server", "--config", config.toString(), "--override", "node.id=7"});

        assertThat(properties).containsEntry("node.id", "7").containsEntry("log.dir", "/var/spool");
    }

    @Test
    void overrideWinsOverTheConfigFileWhateverTheirOrder() throws IOException {
        Path config = write("node.id=5\n");

        Map<String, String> properties = Main.parseArguments(
                new String[] {"server", "--override", "node.id=7", "--config", config.toString()});

        assertThat(properties).containsEntry("node.id", "7");
    }

    @Test
    void overrideValueMayContainEqualsSigns() throws IOException {
        assertThat(Main.parseArguments(new String[] {"server", "--override", "listeners=A://h:1,B://h:2",
            "--override", "x= a=b "}))
                .containsEntry("listeners", "A://h:1,B://h:2")
                .containsEntry("x", "a=b");
    }

    @Test
    void serverWithoutOptionsHasNoSettings() throws IOException {
        assertThat(Main.parseArguments(new String[] {"server"})).isEmpty();
    }

    @Test
    void missingCommandThrowsIllegalArgumentException() {
        assertUsageError("'server'");
        assertUsageError("'server'", "--config", "server.properties");
    }

    @Test
    void missingOptionValueThrowsIllegalArgumentException() {
        assertUsageError("--config needs a value", "server", "--config");
        assertUsageError("--override needs a value", "server", "--override");
    }

    @Test
    void overrideWithoutKeyThrowsIllegalArgumentException() {
        assertUsageError("'node.id'", "server", "--override", "node.id");
        assertUsageError("'=7'", "server", "--override", "=7");
    }

    @Test
    void unknownArgumentThrowsIllegalArgumentException() {
        assertUsageError("'--verbose'", "server", "--verbose");
    }

    @Test
    void missingConfigFileThrowsIOExceptionNamingIt() {
        Path missing = dir.resolve("absent.properties");

        assertThatThrownBy(() -> Main.parseArguments(new String[] {"server", "--config", missing.toString()}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(missing.toString());
    }

    private static void assertUsageError(String message, String... args) {
        assertThatThrownBy(() -> Main.parseArguments(args))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }

    private Path write(String content) throws IOException {
        return Files.writeString(dir.resolve("server.properties"), content, StandardCharsets.UTF_8);
    }
}

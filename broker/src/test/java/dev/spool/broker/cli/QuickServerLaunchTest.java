package dev.spool.broker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QuickServerLaunchTest {

    @TempDir
    Path dir;

    @Test
    void takesServerCommandLinesWithBothOptionSpellings() throws IOException {
        Path config = Files.writeString(dir.resolve("server.properties"), "node.id=5\nlog.dirs=/a\n",
                StandardCharsets.UTF_8);

        assertThat(QuickServerLaunch.settings(new String[] {"server"})).isEmpty();
        assertThat(QuickServerLaunch.settings(new String[] {"server", "--override", "node.id=7",
                "--config", config.toString(), "--override=listeners=PLAINTEXT://h:1"}))
                .isEqualTo(Map.of("node.id", "7", "log.dirs", "/a", "listeners", "PLAINTEXT://h:1"));
        assertThat(QuickServerLaunch.settings(new String[] {"server", "--config=" + config}))
                .isEqualTo(Map.of("node.id", "5", "log.dirs", "/a"));
    }

    /** Each of these must reach picocli, which answers help, other commands and usage errors as always. */
    @Test
    void leavesEverythingElseToTheCommandModel() {
        String absent = dir.resolve("absent.properties").toString();
        String[][] others = {
            {}, {"version"}, {"dump-log", "x.log"}, {"--help"}, {"server", "--help"}, {"server", "-h"},
            {"server", "--config"}, {"server", "--override"}, {"server", "--config", absent},
            {"server", "--config", absent, "--config", absent}, {"server", "--override", "node.id"},
            {"server", "--override", "=7"}, {"server", "--verbose", "x"}, {"server", "extra", "x"},
            {"serve"},
        };
        for (String[] args : others) {
            assertThat(QuickServerLaunch.settings(args)).as(String.join(" ", args)).isNull();
        }
    }

    @Test
    void invalidSettingExitsWithTwo() {
        assertThat(QuickServerLaunch.run(new String[] {"server", "--override", "log.dirs=" + dir,
                "--override", "num.partitions=zero"})).hasValue(SpoolCommand.USAGE_ERROR);
    }
}

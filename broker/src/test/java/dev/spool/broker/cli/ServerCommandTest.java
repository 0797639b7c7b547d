package dev.spool.broker.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ServerCommandTest {

    @TempDir
    Path dir;

    @Test
    void configFileSettingsAreRead() throws IOException {
        Path config = write("node.id=5\nlog.dir = /var/spool \n# a comment\n");

        assertThat(properties("server", "--config", config.toString()))
                .containsExactlyInAnyOrderEntriesOf(Map.of("node.id", "5", "log.dir", "/var/spool"));
    }

    @Test
    void overrideWinsOverTheConfigFileWhateverTheirOrder() throws IOException {
        Path config = write("node.id=5\nlog.dir=/var/spool\n");

        assertThat(properties("server", "--config", config.toString(), "--override", "node.id=7"))
                .containsEntry("node.id", "7").containsEntry("log.dir", "/var/spool");
        assertThat(properties("server", "--override", "node.id=7", "--config", config.toString()))
                .containsEntry("node.id", "7");
    }

    @Test
    void overrideValueMayContainEqualsSigns() throws IOException {
        assertThat(properties("server", "--override", "listeners=A://h:1,B://h:2", "--override", "x= a=b "))
                .containsEntry("listeners", "A://h:1,B://h:2")
                .containsEntry("x", "a=b");
    }

    @Test
    void serverWithoutOptionsHasNoSettings() throws IOException {
        assertThat(properties("server")).isEmpty();
    }

    @Test
    void overrideWithoutKeyIsAUsageError() {
        assertThatThrownBy(() -> properties("server", "--override", "node.id"))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("'node.id'");
        assertThatThrownBy(() -> properties("server", "--override", "=7"))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("'=7'");
    }

    @Test
    void usageErrorsExitWithTwo() {
        assertThat(run("server", "--verbose").exitCode).isEqualTo(2);
        assertThat(run("server", "--config").exitCode).isEqualTo(2);
        assertThat(run("server", "--config", dir.resolve("absent.properties").toString()))
                .satisfies(result -> {
                    assertThat(result.exitCode).isEqualTo(2);
                    assertThat(result.err).contains("absent.properties").contains("does not exist");
                });
        assertThat(run().exitCode).isEqualTo(2);
        assertThat(run("serve").exitCode).isEqualTo(2);
    }

    @Test
    void invalidSettingStopsStartUpNamingSettingAndValueWithExitCodeTwo() {
        Result result = run("server", "--override", "log.dirs=" + dir, "--override", "num.partitions=zero");

        assertThat(result.exitCode).isEqualTo(2);
        assertThat(result.err).contains("invalid configuration").contains("num.partitions").contains("'zero'");
    }

    @Test
    void helpAndVersionExitWithZero() {
        Result help = run("server", "--help");
        assertThat(help.exitCode).isZero();
        assertThat(help.out).contains("--config").contains("--override");
        Result version = run("version");
        assertThat(version.exitCode).isZero();
        assertThat(version.out).startsWith("spool ").doesNotContain("${");
        assertThat(run("--help").out).contains("server").contains("dump-log").contains("version");
    }

    private static Map<String, String> properties(String... args) throws IOException {
        CommandLine.ParseResult parsed = SpoolCommand.commandLine().parseArgs(args);
        ServerCommand server = (ServerCommand) parsed.subcommand().commandSpec().userObject();
        return server.properties();
    }

    record Result(int exitCode, String out, String err) {
    }

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = SpoolCommand.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int code = commandLine.execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    private Path write(String content) throws IOException {
        return Files.writeString(dir.resolve("server.properties"), content, StandardCharsets.UTF_8);
    }
}

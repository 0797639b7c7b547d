package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.fixtures.ProcessOutput;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tarball {@code mvn package} builds (dist/target/spool-VERSION.tar.gz), unpacked elsewhere and
 * run with an {@code mvn} on the PATH that fails if called: {@code bin/spool version} and a
 * broker started from it with its sample {@code config/server.properties}, which a client reaches and
 * SIGTERM stops cleanly.
 */
class DistributionIT {

    @TempDir
    Path dir;

    @Test
    void unpackedTarballRunsWithoutMaven() throws Exception {
        Path tarball;
        try (Stream<Path> files = Files.list(SpoolProcess.repositoryRoot().resolve("dist/target"))) {
            tarball = files.filter(file -> file.getFileName().toString().matches("spool-.*\\.tar\\.gz"))
                    .findFirst().orElseThrow(() -> new AssertionError("no dist/target/spool-*.tar.gz: run mvn package"));
        }
        assertThat(ExternalCommand.run(dir, 60, "tar", "xzf", tarball.toString()).exitCode()).isZero();
        Path home;
        try (Stream<Path> unpacked = Files.list(dir)) {
            home = unpacked.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        assertThat(home.resolve("bin/spool")).isExecutable();
        assertThat(home.resolve("config/server.properties")).exists();
        // First on the PATH: an mvn that fails loudly, so a distribution that tried to build would show it.
        Path tools = Files.createDirectory(dir.resolve("tools"));
        Path mvn = Files.writeString(tools.resolve("mvn"), "#!/bin/sh\necho 'mvn called by the distribution' >&2\nexit 99\n");
        mvn.toFile().setExecutable(true);

        Process version = process(home, tools, "version");
        assertThat(version.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).startsWith("spool 0.");
        assertThat(version.exitValue()).isZero();

        Process server = process(home, tools, "server", "--config", "config/server.properties",
                "--override", "listeners=PLAINTEXT://127.0.0.1:0", "--override", "log.dirs=" + dir.resolve("data"));
        ProcessOutput output = ProcessOutput.pump(server, "spool-output-" + server.pid());
        try {
            Matcher started = SpoolProcess.awaitStarted(output, 60_000).orElse(null);
            assertThat(started).as("start-up line in %s", output.lines()).isNotNull();
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", started.group(1) + ":" + started.group(2)))) {
                assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(1);
            }
            server.toHandle().destroy(); // SIGTERM; Process.destroy() would also close our end of its output
            assertThat(server.waitFor(30, TimeUnit.SECONDS)).isTrue();
            output.awaitEnd(10_000);
            assertThat(output.lines()).anySatisfy(line -> assertThat(line).contains("Spool broker stopped"));
            assertThat(output.lines()).noneMatch(line -> line.contains("mvn called"));
        } finally {
            server.destroyForcibly();
        }
        assertThat(dir.resolve("data/meta.properties")).exists();
    }

    private static Process process(Path home, Path tools, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(home.resolve("bin/spool").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(home.toFile()).redirectErrorStream(true);
        builder.environment().put("PATH", tools + java.io.File.pathSeparator + System.getenv("PATH"));
        return builder.start();
    }
}

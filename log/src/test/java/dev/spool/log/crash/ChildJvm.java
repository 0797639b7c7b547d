package dev.spool.log.crash;

import dev.spool.fixtures.JavaCommand;
import dev.spool.fixtures.ProcessOutput;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Test helper for crash tests: runs a main class in a child JVM on the test class path, waits for its
 * "READY" line, lets it run, then kills it with SIGKILL (no shutdown hook, no close, no flush) and hands
 * each line it printed, in order, to a consumer on the calling thread. Stateless.
 */
public final class ChildJvm {
    private ChildJvm() {
    }

    public static void runAndKill(Class<?> mainClass, List<String> args, long runMs, Consumer<String> onLine)
            throws IOException, InterruptedException {
        List<String> command = JavaCommand.onThisClassPath(List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"),
                mainClass.getName(), args);
        Process child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        ProcessOutput output = ProcessOutput.pump(child, mainClass.getSimpleName() + "-output");
        assertThat(output.awaitLine(line -> line.startsWith("READY"), 30_000)).as(mainClass.getSimpleName() + " started")
                .isPresent();
        Thread.sleep(runMs);
        child.destroyForcibly(); // SIGKILL on Linux
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).isEqualTo(137);
        // after the kill the JDK may close the pipe under the reader: the output simply ends there
        assertThat(output.awaitEnd(30_000)).as("the output of " + mainClass.getName() + " ended").isTrue();
        output.lines().forEach(onLine);
    }
}

package dev.spool.log.crash;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Test helper for crash tests: runs a main class in a child JVM on the test class path, hands each line
 * it prints to a consumer (on a reader thread), waits for its "READY" line, lets it run, then kills it
 * with SIGKILL (no shutdown hook, no close, no flush) and waits until every line was consumed.
 */
public final class ChildJvm {
    private ChildJvm() {
    }

    public static void runAndKill(Class<?> mainClass, List<String> args, long runMs, Consumer<String> onLine)
            throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", mainClass.getName()));
        command.addAll(args);
        Process child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        CountDownLatch ready = new CountDownLatch(1);
        AtomicBoolean killed = new AtomicBoolean();
        AtomicReference<IOException> failure = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    if (line.startsWith("READY")) {
                        ready.countDown();
                    }
                    onLine.accept(line);
                }
            } catch (IOException e) {
                // after the kill the JDK may close the pipe under the reader: the output simply ends there
                if (!killed.get()) {
                    failure.set(e);
                }
            }
        });
        reader.start();
        assertThat(ready.await(30, TimeUnit.SECONDS)).as(mainClass.getSimpleName() + " started").isTrue();
        Thread.sleep(runMs);
        killed.set(true);
        child.destroyForcibly(); // SIGKILL on Linux
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).isEqualTo(137);
        reader.join(30_000);
        if (failure.get() != null) {
            throw new IOException("Cannot read the output of " + mainClass.getName(), failure.get());
        }
    }
}

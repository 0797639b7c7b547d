package dev.spool.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a client tool (kcat, node) to completion with a time limit. Thread-safe. */
public final class ExternalCommand {

    /** What a finished command printed and how it exited. */
    public record Result(int exitCode, String output) {
    }

    private ExternalCommand() {
    }

    public static Result run(Path workDir, long timeoutSeconds, String... command) throws IOException, InterruptedException {
        return runWithInput(workDir, timeoutSeconds, new byte[0], command);
    }

    /** Runs the command with {@code stdin} as its standard input (then closed), e.g. lines for a console producer. */
    public static Result runWithInput(Path workDir, long timeoutSeconds, byte[] stdin, String... command)
            throws IOException, InterruptedException {
        Process process;
        try {
            process = new ProcessBuilder(List.of(command)).directory(workDir.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IOException("cannot run " + command[0] + " (bin/test installs it): " + e.getMessage(), e);
        }
        byte[][] output = new byte[1][];
        Thread reader = new Thread(() -> {
            try {
                output[0] = process.getInputStream().readAllBytes();
            } catch (IOException e) {
                output[0] = ("<output unreadable: " + e + ">").getBytes(StandardCharsets.UTF_8);
            }
        });
        reader.start();
        // Written once the output is being drained, so a chatty command cannot block on a full pipe.
        try (var in = process.getOutputStream()) {
            in.write(stdin);
        }
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            reader.join();
            throw new IllegalStateException(String.join(" ", command) + " did not finish in " + timeoutSeconds
                    + " s; output:\n" + new String(output[0], StandardCharsets.UTF_8));
        }
        reader.join();
        return new Result(process.exitValue(), new String(output[0], StandardCharsets.UTF_8));
    }
}

package dev.spool.it.faults;

import dev.spool.it.ExternalCommand;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Thread-safe: runs a short host administration command ({@code ip}, {@code iptables}) to completion and fails with
 * its output when it exits non-zero, so a fault that could not be put in place never passes for one that was.
 */
final class HostCommand {

    /** Generous: the machine is shared, and {@code ip netns del} waits for the kernel to tear the namespace down. */
    private static final long TIMEOUT_SECONDS = 60;

    private HostCommand() {
    }

    /** Runs {@code command}; its output; throws with the output when it fails. */
    static String run(String... command) throws IOException, InterruptedException {
        ExternalCommand.Result result = ExternalCommand.run(Path.of("/"), TIMEOUT_SECONDS, command);
        if (result.exitCode() != 0) {
            throw new IOException(String.join(" ", command) + " exited with " + result.exitCode() + ": "
                    + result.output().strip());
        }
        return result.output();
    }

    /** Runs {@code command}; whether it succeeded (for probes and best-effort clean-up, whose failure is expected). */
    static boolean succeeds(String... command) throws IOException, InterruptedException {
        return ExternalCommand.run(Path.of("/"), TIMEOUT_SECONDS, command).exitCode() == 0;
    }
}

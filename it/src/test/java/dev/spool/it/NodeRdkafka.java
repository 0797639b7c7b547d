package dev.spool.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Stateless, so thread-safe: the node-rdkafka scripts of it/rdkafka, whose install bin/test starts in the background
 * (it compiles librdkafka, about 3 minutes) before Maven builds the modules. bin/test writes .install.log as the
 * install starts and .install.status, its exit status, as it ends.
 */
final class NodeRdkafka {

    private static final long INSTALL_TIMEOUT_SECONDS = 600;
    private static final int LOG_TAIL_LINES = 40;

    private NodeRdkafka() {
    }

    /**
     * The scripts' directory once node-rdkafka is built there: waits for an install in progress and fails, quoting
     * the install's log, when it failed or did not finish in time.
     */
    static Path awaitInstalled() throws IOException, InterruptedException {
        Path directory = SpoolProcess.repositoryRoot().resolve("it/rdkafka");
        Path log = directory.resolve(".install.log");
        Path status = directory.resolve(".install.status");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(INSTALL_TIMEOUT_SECONDS);
        // A log without a status is an install still running; neither is one that bin/test did not need to run.
        while (Files.exists(log) && !Files.exists(status)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("node-rdkafka's install (bin/test) did not finish in " + INSTALL_TIMEOUT_SECONDS
                        + " s; " + log + " ends:\n" + tail(log));
            }
            Thread.sleep(1000);
        }
        if (Files.exists(status) && !Files.readString(status).strip().equals("0")) {
            throw new AssertionError("node-rdkafka's install (bin/test) failed with exit status "
                    + Files.readString(status).strip() + "; " + log + " ends:\n" + tail(log));
        }
        Path addon = directory.resolve("node_modules/node-rdkafka/build/Release/node-librdkafka.node");
        if (!Files.exists(addon)) {
            throw new AssertionError("node-rdkafka is not built in " + directory + ": bin/test builds it");
        }
        return directory;
    }

    private static String tail(Path log) throws IOException {
        if (!Files.exists(log)) {
            return "<no log>";
        }
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
    }
}

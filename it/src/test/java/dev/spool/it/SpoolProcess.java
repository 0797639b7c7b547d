package dev.spool.it;

import dev.spool.fixtures.ProcessOutput;
import dev.spool.log.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A broker started the way a user starts one, {@code bin/spool server}, on a free port (port 0) with
 * its data in a temporary directory. Closing it stops that process by its pid and deletes the data.
 * Not thread-safe.
 */
public final class SpoolProcess implements AutoCloseable {

    private static final Pattern STARTED = Pattern.compile(
            "started in \\d+ ms, listening on \\[(?:PLAINTEXT|CONTROLLER)://([^:\\]]+):(\\d+)");
    private static final Pattern LISTENING = Pattern.compile("listening on \\[([^\\]]+)\\]");
    private static final long START_TIMEOUT_SECONDS = 120;

    private final Process process;
    private final Path dataDir;
    private final String host;
    private final int port;
    private final ProcessOutput output;

    private SpoolProcess(Process process, Path dataDir, String host, int port, ProcessOutput output) {
        this.process = process;
        this.dataDir = dataDir;
        this.host = host;
        this.port = port;
        this.output = output;
    }

    public static Path repositoryRoot() {
        return Path.of(System.getProperty("spool.root", "..")).toAbsolutePath().normalize();
    }

    public static SpoolProcess start(String... overrides) throws IOException, InterruptedException {
        return startIn(Files.createTempDirectory("spool-it-"), overrides);
    }

    /** Starts a broker on the data of {@code dataDir} (a restart, after {@link #stop()} of another). */
    public static SpoolProcess startIn(Path dataDir, String... overrides) throws IOException, InterruptedException {
        return startWithArguments(dataDir, List.of(), overrides);
    }

    /** Starts a broker with more arguments of {@code spool server} (such as {@code --config FILE}) before the overrides. */
    public static SpoolProcess startWithArguments(Path dataDir, List<String> arguments, String... overrides)
            throws IOException, InterruptedException {
        return startWithEnvironment(dataDir, Map.of(), arguments, overrides);
    }

    /**
     * Starts a broker with these environment variables added to this process's (such as {@code SPOOL_OPTS}, which
     * bin/spool hands to the JVM) and more arguments of {@code spool server} before the overrides.
     */
    public static SpoolProcess startWithEnvironment(Path dataDir, Map<String, String> environment,
                                                    List<String> arguments, String... overrides)
            throws IOException, InterruptedException {
        return startThrough(List.of(), dataDir, environment, arguments, overrides);
    }

    /**
     * Starts a broker through a launcher that ends by exec-ing the command it is given, so the pid stays the
     * broker's (such as {@code ip netns exec NS}, which runs it in a network namespace), with these environment
     * variables and more arguments of {@code spool server} before the overrides.
     */
    public static SpoolProcess startThrough(List<String> launcher, Path dataDir, Map<String, String> environment,
                                            List<String> arguments, String... overrides)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(launcher);
        command.addAll(List.of(repositoryRoot().resolve("bin/spool").toString(), "server"));
        command.addAll(arguments);
        command.addAll(List.of("--override", "listeners=PLAINTEXT://127.0.0.1:0", "--override", "log.dirs=" + dataDir));
        for (String override : overrides) {
            command.add("--override");
            command.add(override);
        }
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process = builder.start();
        ProcessOutput output = ProcessOutput.pump(process, "spool-output-" + process.pid());
        Optional<Matcher> started = awaitStarted(output, TimeUnit.SECONDS.toMillis(START_TIMEOUT_SECONDS));
        if (started.isEmpty()) {
            String why = output.ended() ? "its output ended, exit code " + (process.isAlive() ? "none yet" : process.exitValue())
                    : "no start-up line in " + START_TIMEOUT_SECONDS + " s";
            stop(process);
            throw new IllegalStateException("bin/spool server did not start (" + why + "); output:\n"
                    + String.join("\n", output.lines()));
        }
        return new SpoolProcess(process, dataDir, started.get().group(1), Integer.parseInt(started.get().group(2)), output);
    }

    /**
     * The broker's start-up line matched (group 1 the host, 2 the port of its first listener), waiting up to
     * {@code timeoutMillis} for it; empty if none came in time or the output ended without one.
     */
    static Optional<Matcher> awaitStarted(ProcessOutput output, long timeoutMillis) throws InterruptedException {
        return output.awaitLine(line -> STARTED.matcher(line).find(), timeoutMillis).map(STARTED::matcher)
                .filter(Matcher::find);
    }

    public String bootstrap() {
        return host + ":" + port;
    }

    /** Each listener's bound port by listener name, from the broker's start-up line. */
    public Map<String, Integer> listenerPorts() {
        for (String line : output.lines()) {
            Matcher listening = LISTENING.matcher(line);
            if (listening.find()) {
                Map<String, Integer> ports = new HashMap<>();
                for (String endpoint : listening.group(1).split(",\\s*")) {
                    ports.put(endpoint.substring(0, endpoint.indexOf(':')),
                            Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1)));
                }
                return ports;
            }
        }
        throw new IllegalStateException("no start-up line in " + output.lines());
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public List<String> output() {
        return output.lines();
    }

    /** Waits until the broker has printed a line matching {@code test}; false if none came in time or its output ended. */
    public boolean awaitOutput(Predicate<String> test, long timeoutMillis) throws InterruptedException {
        return output.awaitLine(test, timeoutMillis).isPresent();
    }

    public Path dataDir() {
        return dataDir;
    }

    /** Waits for the process to end by itself; its exit code, or null if it still runs after the wait. */
    public Integer awaitExit(long timeoutMillis) throws InterruptedException {
        return process.waitFor(timeoutMillis, TimeUnit.MILLISECONDS) ? process.exitValue() : null;
    }

    /** Stops the broker the way an operator does (SIGTERM: a clean shutdown) and keeps its data. */
    public void stop() throws InterruptedException {
        stop(process);
    }

    /**
     * Stops the process with SIGSTOP (a long pause: it neither answers nor times out) until {@link #resume}; returns
     * once the kernel shows it stopped (the signal reaches every thread of a busy JVM a moment later, not at once).
     */
    public void pause() throws IOException, InterruptedException {
        signal("STOP");
        Path stat = Path.of("/proc/" + process.pid() + "/stat");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (Files.exists(stat) && !isStopped(Files.readAllLines(stat).get(0)) && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    /** Whether a {@code /proc/PID/stat} line says the process is stopped (state T), its name in parentheses first. */
    private static boolean isStopped(String statLine) {
        return statLine.substring(statLine.lastIndexOf(')') + 2).startsWith("T");
    }

    /** Lets a {@link #pause}d process run again (SIGCONT). */
    public void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IOException("kill -" + name + " " + process.pid() + " failed");
        }
    }

    /** Kills the broker with SIGKILL (a crash: no clean shutdown) and keeps its data. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(20, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        stop(process);
        FileTrees.deleteRecursively(dataDir);
    }

    private static void stop(Process process) throws InterruptedException {
        ProcessHandle handle = ProcessHandle.of(process.pid()).orElse(null);
        if (handle == null) {
            return;
        }
        handle.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            handle.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}

package dev.spool.it;

import dev.spool.fixtures.JavaCommand;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Runs one of Kafka 4.4's command-line tools (kafka-topics = {@code org.apache.kafka.tools.TopicCommand},
 * kafka-configs = {@code ConfigCommand}, kafka-delete-records = {@code DeleteRecordsCommand}...) as its
 * Java main class in a child JVM with this test's classpath (the kafka-tools artifact), as the shell
 * scripts of a Kafka distribution do, and returns what it printed and its exit code. A child JVM,
 * because the tools call {@code System.exit}. Thread-safe.
 */
public final class KafkaTool {

    private static final long TIMEOUT_SECONDS = 120;
    private static final List<String> JVM_OPTIONS = jvmOptions("-Xmx256m");

    private KafkaTool() {
    }

    /**
     * Options for a short-lived client JVM: {@code heap}, and a quick start as bin/spool's (the C1 compiler only, the
     * serial collector, no perf data file): a CI run starts about 150 of them on two cores. Its Kafka client logs
     * nothing: the tests' simplelogger.properties would send it to the file the test JVM writes.
     */
    static List<String> jvmOptions(String heap) {
        return List.of(heap, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData",
                "-Dorg.slf4j.simpleLogger.logFile=System.err", "-Dorg.slf4j.simpleLogger.defaultLogLevel=off");
    }

    public static ExternalCommand.Result run(String mainClass, String... args) throws IOException, InterruptedException {
        return runWithInput(new byte[0], mainClass, args);
    }

    /** Runs the tool with {@code stdin} as its standard input (kafka-console-producer reads its records there). */
    public static ExternalCommand.Result runWithInput(byte[] stdin, String mainClass, String... args)
            throws IOException, InterruptedException {
        List<String> command = JavaCommand.onThisClassPath(JVM_OPTIONS, mainClass, List.of(args));
        return ExternalCommand.runWithInput(Path.of(System.getProperty("java.io.tmpdir")), TIMEOUT_SECONDS, stdin,
                command.toArray(String[]::new));
    }
}

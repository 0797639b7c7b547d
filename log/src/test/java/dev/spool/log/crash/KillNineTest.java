package dev.spool.log.crash;

import dev.spool.log.LogConfig;
import dev.spool.log.LogLoadOptions;
import dev.spool.log.PartitionLog;
import dev.spool.log.TestLogs;
import dev.spool.log.record.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Crash test (b): a child JVM appends with flush.messages=1 and reports each acknowledged offset; it is
 * killed with SIGKILL at a random moment; reopening the log (unclean) finds every acknowledged offset.
 * Three rounds on the same directory, so later rounds also recover what earlier kills left.
 */
class KillNineTest {
    @TempDir
    Path root;

    @Test
    void everyAcknowledgedOffsetSurvivesSigkill() throws Exception {
        Path dir = root.resolve("kill-0");
        Random random = new Random();
        long acknowledged = -1;
        for (int round = 0; round < 3; round++) {
            acknowledged = Math.max(acknowledged, runAndKill(dir, 500 + random.nextInt(1500)));
            ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
            try (PartitionLog log = PartitionLog.open(dir, LogConfig.defaults(), System::currentTimeMillis, scheduler,
                    LogLoadOptions.UNKNOWN)) {
                assertThat(acknowledged).as("the child acknowledged something in round " + round).isGreaterThan(0);
                assertThat(log.logEndOffset()).isGreaterThan(acknowledged);
                List<Record> records = TestLogs.readAll(log, 0);
                assertThat(records.size()).isEqualTo(log.logEndOffset());
                for (int i = 0; i < records.size(); i++) {
                    assertThat(records.get(i).offset()).isEqualTo(i);
                    assertThat(new String(records.get(i).valueBytes(), StandardCharsets.UTF_8)).startsWith("acked-" + i + "-");
                }
                IndexConsistency.assertIndexesAgreeWithLog(log);
            } finally {
                scheduler.shutdownNow();
            }
        }
    }

    /** Starts the appender, kills it with SIGKILL after {@code runMs}, returns the last offset it acknowledged. */
    private static long runAndKill(Path dir, long runMs) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", AckingAppender.class.getName(), dir.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        long[] lastAck = {-1};
        boolean[] ready = {false};
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    if (line.startsWith("ACK ")) {
                        synchronized (lastAck) {
                            lastAck[0] = Long.parseLong(line.substring(4));
                        }
                    } else if (line.startsWith("READY")) {
                        synchronized (lastAck) {
                            ready[0] = true;
                            lastAck.notifyAll();
                        }
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException("Cannot read the appender's output", e);
            }
        });
        reader.start();
        synchronized (lastAck) {
            long deadline = System.currentTimeMillis() + 30_000;
            while (!ready[0] && System.currentTimeMillis() < deadline) {
                lastAck.wait(1000);
            }
            assertThat(ready[0]).as("appender started").isTrue();
        }
        Thread.sleep(runMs);
        child.destroyForcibly(); // SIGKILL on Linux: no shutdown hook, no close, no flush
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).isEqualTo(137);
        reader.join(30_000);
        synchronized (lastAck) {
            return lastAck[0];
        }
    }
}

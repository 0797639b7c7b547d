package dev.spool.log.crash;

import dev.spool.log.LogConfig;
import dev.spool.log.LogLoadOptions;
import dev.spool.log.PartitionLog;
import dev.spool.log.TestLogs;
import dev.spool.log.record.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;

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
        AtomicLong lastAck = new AtomicLong(-1);
        ChildJvm.runAndKill(AckingAppender.class, List.of(dir.toString()), runMs, line -> {
            if (line.startsWith("ACK ")) {
                lastAck.set(Long.parseLong(line.substring(4)));
            }
        });
        return lastAck.get();
    }
}

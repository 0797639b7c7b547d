package dev.spool.log.cleaner;

import dev.spool.log.LogConfig;
import dev.spool.log.LogLoadOptions;
import dev.spool.log.PartitionLog;
import dev.spool.log.TestLogs;
import dev.spool.log.TopicPartition;
import dev.spool.log.crash.ChildJvm;
import dev.spool.log.crash.IndexConsistency;
import dev.spool.log.record.Header;
import dev.spool.log.record.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Crash test: a child JVM appends keyed records and cleans its log again and again ({@link CleaningChild});
 * it is killed with SIGKILL at a random moment, usually in the middle of a cleaning (writing
 * {@code .cleaned} files, renaming to {@code .swap}, deleting old segments). Reopening the log (unclean)
 * must complete or roll back the swap: no leftover files, every batch valid, offsets strictly increasing,
 * indexes right, and for every key at least the latest acknowledged version. Several rounds on one directory.
 */
class CleanerKillNineTest {
    @TempDir
    Path root;

    @Test
    void killDuringCleaningNeverLosesTheLatestValueOfAKey() throws Exception {
        Path dir = root.resolve("crash-0");
        Random random = new Random();
        Map<String, Long> acked = new HashMap<>();
        long[] cleanings = {0};
        long version = 0;
        for (int round = 0; round < 3; round++) {
            runAndKill(dir, version, 700 + random.nextInt(1300), acked, cleanings);
            version = acked.values().stream().mapToLong(Math::abs).max().orElse(0) + 1_000_000;
            ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
            LogConfig config = LogConfig.fromProperties(Map.of("cleanup.policy", "compact"));
            try (PartitionLog log = PartitionLog.open(dir, config, System::currentTimeMillis, scheduler,
                    LogLoadOptions.UNKNOWN)) {
                try (Stream<Path> files = Files.list(dir)) {
                    assertThat(files.map(path -> path.getFileName().toString()))
                            .noneMatch(name -> name.endsWith(".cleaned") || name.endsWith(".swap"));
                }
                checkLatestVersions(log, acked, round);
                IndexConsistency.assertIndexesAgreeWithLog(log);
                // the recovered log cleans again
                new Cleaner(1 << 20, System::currentTimeMillis).clean(
                        LogToClean.of(new TopicPartition("crash", 0), log, -1, System.currentTimeMillis()), () -> false);
                checkLatestVersions(log, acked, round);
            } finally {
                scheduler.shutdownNow();
            }
        }
        assertThat(cleanings[0]).as("the child completed cleanings").isGreaterThan(0);
    }

    private static void checkLatestVersions(PartitionLog log, Map<String, Long> acked, int round) throws IOException {
        List<Record> records = TestLogs.readAll(log, log.logStartOffset());
        Map<String, Long> found = new HashMap<>();
        long previous = -1;
        for (Record record : records) {
            assertThat(record.offset()).isGreaterThan(previous);
            previous = record.offset();
            found.put(StandardCharsets.UTF_8.decode(record.key()).toString(), version(record));
        }
        assertThat(acked).as("the child acknowledged writes in round " + round).isNotEmpty();
        for (Map.Entry<String, Long> entry : acked.entrySet()) {
            Long version = found.get(entry.getKey());
            long latest = entry.getValue();
            if (latest > 0) {
                assertThat(version).as("latest value of " + entry.getKey()).isNotNull();
                assertThat(version).as("version of " + entry.getKey()).isGreaterThanOrEqualTo(latest);
            } else if (version != null) {
                // a tombstone may be gone after delete.retention.ms, never replaced by an older value
                assertThat(version).as("version of tombstoned " + entry.getKey()).isGreaterThanOrEqualTo(-latest);
            }
        }
    }

    private static long version(Record record) {
        for (Header header : record.headers()) {
            if (header.key().equals("v")) {
                return Long.parseLong(StandardCharsets.UTF_8.decode(header.value()).toString());
            }
        }
        throw new AssertionError("No version header on " + record);
    }

    private static void runAndKill(Path dir, long firstVersion, long runMs, Map<String, Long> acked, long[] cleanings)
            throws IOException, InterruptedException {
        ChildJvm.runAndKill(CleaningChild.class, List.of(dir.toString(), Long.toString(firstVersion)), runMs, line -> {
            synchronized (acked) {
                if (line.startsWith("ACK ")) {
                    String[] fields = line.split(" ");
                    // a tombstone is recorded as a negative version: the key may then be gone
                    long version = Long.parseLong(fields[2]);
                    acked.merge(fields[1], fields[3].equals("tombstone") ? -version : version,
                            (a, b) -> Math.abs(a) >= Math.abs(b) ? a : b);
                } else if (line.startsWith("CLEANED")) {
                    cleanings[0]++;
                }
            }
        });
    }
}

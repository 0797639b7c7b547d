package dev.spool.log;

import dev.spool.log.cleaner.CleanerConfig;
import dev.spool.log.record.CompressionType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;

import static dev.spool.log.TestLogs.batch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LogManagerTest {
    @TempDir
    Path root;
    private final ScheduledExecutorService scheduler = TestLogs.scheduler();
    private final ManualLogClock clock = new ManualLogClock();
    private static final LogManager.Intervals NEVER = new LogManager.Intervals(3_600_000, 3_600_000, 3_600_000);

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private LogManager open(List<Path> dirs) throws IOException {
        return LogManager.open(dirs, topic -> TestLogs.config("segment.bytes", 1024), clock, scheduler, NEVER);
    }

    @Test
    void theBrokerEpochOfACleanShutdownIsThePreviousOneAtTheNextStartAndACrashLeavesNone() throws IOException {
        List<Path> dirs = List.of(root.resolve("d1"), root.resolve("d2"));
        LogManager first = open(dirs);
        assertThat(first.previousBrokerEpoch()).as("new directories").isEqualTo(-1);
        first.getOrCreate(new TopicPartition("orders", 0));
        first.brokerEpoch(42);
        first.close();
        assertThat(dirs.get(0).resolve(LogManager.CLEAN_SHUTDOWN_FILE))
                .hasContent("{\"version\":0,\"brokerEpoch\":42}");

        LogManager second = open(dirs);
        assertThat(second.previousBrokerEpoch()).isEqualTo(42);
        second.brokerEpoch(77);
        second.close();
        Files.delete(dirs.get(1).resolve(LogManager.CLEAN_SHUTDOWN_FILE)); // as if that directory's process died

        LogManager third = open(dirs);
        assertThat(third.previousBrokerEpoch()).as("one directory not shut down cleanly").isEqualTo(-1);
        third.close();
    }

    @Test
    void cleanShutdownWritesKafkaCheckpointsAndMarkerAndReopens() throws IOException {
        Path dir = root.resolve("d1");
        LogManager manager = open(List.of(dir));
        PartitionLog a = manager.getOrCreate(new TopicPartition("orders", 0));
        PartitionLog b = manager.getOrCreate(new TopicPartition("my-topic", 12));
        for (int i = 0; i < 20; i++) {
            a.appendAsLeader(batch("a" + i, 2, 1000, CompressionType.NONE), 0);
        }
        b.appendAsLeader(batch("b", 3, 1000, CompressionType.NONE), 4);
        a.updateHighWatermark(a.logEndOffset());
        a.deleteRecordsBefore(10);
        a.updateHighWatermark(30);
        manager.close();

        assertThat(dir.resolve("orders-0")).isDirectory();
        assertThat(dir.resolve("my-topic-12/leader-epoch-checkpoint")).hasContent("0\n1\n4 0");
        assertThat(dir.resolve(LogManager.CLEAN_SHUTDOWN_FILE)).exists();
        List<String> recovery = Files.readAllLines(dir.resolve(LogManager.RECOVERY_POINT_CHECKPOINT));
        assertThat(recovery.subList(0, 2)).containsExactly("0", "2");
        assertThat(recovery.subList(2, 4)).containsExactlyInAnyOrder("orders 0 40", "my-topic 12 3");
        assertThat(Files.readAllLines(dir.resolve(LogManager.LOG_START_OFFSET_CHECKPOINT)))
                .contains("orders 0 10", "my-topic 12 0");
        assertThat(Files.readAllLines(dir.resolve(LogManager.REPLICATION_OFFSET_CHECKPOINT))).contains("orders 0 30");

        LogManager reopened = open(List.of(dir));
        assertThat(dir.resolve(LogManager.CLEAN_SHUTDOWN_FILE)).doesNotExist();
        PartitionLog again = reopened.get(new TopicPartition("orders", 0));
        assertThat(again.logEndOffset()).isEqualTo(40);
        assertThat(again.logStartOffset()).isEqualTo(10);
        assertThat(again.highWatermark()).isEqualTo(30);
        assertThat(TestLogs.readAll(again, 10)).hasSize(30);
        reopened.close();
    }

    @Test
    void uncleanStartRecoversAndSpreadsPartitionsOverDirs() throws IOException {
        List<Path> dirs = List.of(root.resolve("d1"), root.resolve("d2"));
        LogManager manager = open(dirs);
        for (int p = 0; p < 4; p++) {
            manager.getOrCreate(new TopicPartition("t", p)).appendAsLeader(batch("x" + p, 5, 1000, CompressionType.NONE), 0);
        }
        assertThat(manager.logs().values()).extracting(log -> log.dir().getParent()).containsOnly(dirs.get(0), dirs.get(1))
                .filteredOn(dirs.get(0)::equals).hasSize(2);
        // No close: as after a crash there is no marker, so every segment is validated on open.
        LogManager reopened = open(dirs);
        assertThat(reopened.logs()).hasSize(4);
        assertEveryLogHolds(reopened, 5);
        reopened.updateTopicConfig("t", TestLogs.config("retention.bytes", 0));
        assertThat(reopened.get(new TopicPartition("t", 2)).config().retentionBytes).isZero();
        reopened.delete(new TopicPartition("t", 1));
        assertThat(reopened.logs()).hasSize(3);
        reopened.close();
        // the first manager stands for the crashed process: it is never closed
    }

    @Test
    void recoveryThreadsOpenEveryPartitionAfterACrash() throws IOException {
        Path dir = root.resolve("d1");
        LogManager crashed = open(List.of(dir));
        for (int p = 0; p < 200; p++) {
            PartitionLog log = crashed.getOrCreate(new TopicPartition("many", p));
            for (int i = 0; i < 3; i++) {
                log.appendAsLeader(batch("m" + p + "-" + i, 2, 1000, CompressionType.NONE), 0);
            }
        }
        LogManager reopened = LogManager.open(List.of(dir), topic -> TestLogs.config("segment.bytes", 1024), clock,
                scheduler, NEVER, CleanerConfig.DEFAULTS, 4, LogManager.ProducerIdExpiration.DEFAULTS);
        assertThat(reopened.logs()).hasSize(200);
        assertEveryLogHolds(reopened, 6);
        reopened.close();
    }

    @Test
    void aPartitionThatCannotBeLoadedFailsTheOpen() throws IOException {
        Path dir = root.resolve("d1");
        LogManager first = open(List.of(dir));
        for (int p = 0; p < 20; p++) {
            first.getOrCreate(new TopicPartition("t", p)).appendAsLeader(batch("x", 1, 1000, CompressionType.NONE), 0);
        }
        first.close();
        // A segment "file" that is a directory: opening its channel fails on one loader thread.
        Files.createDirectories(dir.resolve("broken-0").resolve(LogFileNames.logFile(dir, 0).getFileName()));

        assertThatThrownBy(() -> LogManager.open(List.of(dir), topic -> TestLogs.config(), clock, scheduler, NEVER,
                CleanerConfig.DEFAULTS, 3, LogManager.ProducerIdExpiration.DEFAULTS)).isInstanceOf(IOException.class);
    }

    @Test
    void inactiveSegmentsIndexesAreMappedOnlyWhenRead() throws IOException {
        Path dir = root.resolve("d1");
        TopicPartition partition = new TopicPartition("lazy", 0);
        // An index entry for every batch, so that every segment's index file has bytes to map.
        LogManager first = LogManager.open(List.of(dir), topic -> TestLogs.config("segment.bytes", 1024,
                "index.interval.bytes", 1), clock, scheduler, NEVER);
        PartitionLog log = first.getOrCreate(partition);
        for (int i = 0; i < 30; i++) {
            log.appendAsLeader(batch("l" + i, 2, 1000 + i, CompressionType.NONE), 0);
        }
        assertThat(log.segments()).hasSizeGreaterThanOrEqualTo(3);
        first.close();
        // Opened from a copy: the first manager's replaced mappings of the same paths wait for the GC.
        Path copy = root.resolve("copy");
        try (var files = Files.walk(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.copy(file, copy.resolve(dir.relativize(file).toString()));
            }
        }

        LogManager reopened = LogManager.open(List.of(copy), topic -> TestLogs.config("segment.bytes", 1024,
                "index.interval.bytes", 1), clock, scheduler, NEVER);
        PartitionLog again = reopened.get(partition);
        Path firstIndex = LogFileNames.offsetIndexFile(again.dir(), 0);
        Path activeIndex = LogFileNames.offsetIndexFile(again.dir(), again.activeSegmentBaseOffset());
        assertThat(mappedFiles()).contains(activeIndex.toString()).doesNotContain(firstIndex.toString());

        assertThat(TestLogs.readAll(again, 0)).hasSize(60);
        assertThat(mappedFiles()).contains(firstIndex.toString());
        assertThat(again.offsetForTimestamp(1000).offset()).isZero();
        reopened.close();
    }

    private static void assertEveryLogHolds(LogManager manager, int records) throws IOException {
        for (PartitionLog log : manager.logs().values()) {
            assertThat(log.logEndOffset()).isEqualTo(records);
            assertThat(TestLogs.readAll(log, 0)).hasSize(records);
        }
    }

    /** What this process has mapped, as Linux lists it. */
    private static String mappedFiles() throws IOException {
        return Files.readString(Path.of("/proc/self/maps"));
    }
}

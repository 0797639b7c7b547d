package dev.spool.log.cleaner;

import dev.spool.log.LogConfig;
import dev.spool.log.LogFileNames;
import dev.spool.log.LogLoadOptions;
import dev.spool.log.ManualLogClock;
import dev.spool.log.PartitionLog;
import dev.spool.log.TestLogs;
import dev.spool.log.crash.IndexConsistency;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatchBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every state a crash can leave a compaction swap in, built by hand from a log before cleaning
 * ("old": segments 0, 100, 200 and the active 300) and the segment the cleaning wrote ("new": 0..299):
 * reopening rolls back ({@code .cleaned} files, index {@code .swap}s alone) or completes the swap
 * ({@code .log.swap} present, old segments in any mix of {@code .log} and {@code .deleted}).
 */
class SwapRecoveryTest {
    private static final LogConfig CONFIG = LogConfig.fromProperties(Map.of("cleanup.policy", "compact",
            "index.interval.bytes", "100", "file.delete.delay.ms", "0"));

    @TempDir
    Path root;
    private Path old;
    private Path cleanedSegment;
    private List<String> oldRecords;
    private List<String> cleanedRecords;

    @BeforeEach
    void buildOldAndNew() throws IOException, InterruptedException {
        old = root.resolve("old-0");
        ScheduledExecutorService scheduler = TestLogs.scheduler();
        ManualLogClock clock = new ManualLogClock();
        try (PartitionLog log = PartitionLog.open(old, CONFIG, clock, scheduler, LogLoadOptions.UNKNOWN)) {
            for (int segment = 0; segment < 3; segment++) {
                for (int b = 0; b < 20; b++) {
                    RecordBatchBuilder builder = new RecordBatchBuilder(CompressionType.values()[b % 5]);
                    for (int r = 0; r < 5; r++) {
                        int offset = segment * 100 + b * 5 + r;
                        builder.append(clock.nowMs(), ("key-" + offset % 7).getBytes(StandardCharsets.UTF_8),
                                ("value-" + offset).getBytes(StandardCharsets.UTF_8));
                    }
                    log.appendAsLeader(builder.build(), 0);
                }
                log.roll();
            }
            log.updateHighWatermark(log.logEndOffset());
            oldRecords = describe(log);
        }
        Path cleaned = root.resolve("after-cleaning-0");
        copyTree(old, cleaned);
        try (PartitionLog log = PartitionLog.open(cleaned, CONFIG, clock, scheduler, LogLoadOptions.UNKNOWN)) {
            log.updateHighWatermark(log.logEndOffset());
            CleanerTesting.cleanFully(log, clock, -1);
            assertThat(log.segments()).hasSize(2);
            cleanedRecords = describe(log);
        }
        scheduler.shutdown();
        cleanedSegment = root.resolve("new-segment.log");
        Files.copy(LogFileNames.logFile(cleaned, 0), cleanedSegment);
        assertThat(cleanedRecords).hasSize(7).isNotEqualTo(oldRecords);
    }

    private static List<String> describe(PartitionLog log) throws IOException {
        List<String> out = new ArrayList<>();
        for (Record record : TestLogs.readAll(log, 0)) {
            out.add(record.offset() + ":" + StandardCharsets.UTF_8.decode(record.value()));
        }
        return out;
    }

    private Path state(String name) throws IOException {
        Path dir = root.resolve(name + "-0");
        copyTree(old, dir);
        return dir;
    }

    private List<String> reopen(Path dir) throws IOException {
        ScheduledExecutorService scheduler = TestLogs.scheduler();
        try (PartitionLog log = PartitionLog.open(dir, CONFIG, System::currentTimeMillis, scheduler,
                LogLoadOptions.UNKNOWN)) {
            try (Stream<Path> files = Files.list(dir)) {
                assertThat(files.map(path -> path.getFileName().toString())).noneMatch(name ->
                        name.endsWith(".swap") || name.endsWith(".cleaned") || name.endsWith(".deleted"));
            }
            IndexConsistency.assertIndexesAgreeWithLog(log);
            assertThat(log.logEndOffset()).isEqualTo(300);
            return describe(log);
        } finally {
            scheduler.shutdownNow();
        }
    }

    @Test
    void cleanedFilesAreRolledBack() throws IOException {
        Path dir = state("cleaned");
        Files.copy(cleanedSegment, dir.resolve(LogFileNames.name(0, ".log.cleaned")));
        Files.copy(LogFileNames.offsetIndexFile(old, 0), dir.resolve(LogFileNames.name(0, ".index.cleaned")));
        assertThat(reopen(dir)).isEqualTo(oldRecords);
    }

    @Test
    void anIndexSwapWithoutItsLogIsRolledBack() throws IOException {
        Path dir = state("index-swap");
        Files.copy(LogFileNames.offsetIndexFile(old, 0), dir.resolve(LogFileNames.name(0, ".index.swap")));
        Files.copy(LogFileNames.timeIndexFile(old, 0), dir.resolve(LogFileNames.name(0, ".timeindex.swap")));
        assertThat(reopen(dir)).isEqualTo(oldRecords);
    }

    @Test
    void aLogSwapBesideAllOldSegmentsIsCompleted() throws IOException {
        Path dir = state("swap-all-old");
        Files.copy(cleanedSegment, dir.resolve(LogFileNames.name(0, ".log.swap")));
        assertThat(reopen(dir)).isEqualTo(cleanedRecords);
    }

    @Test
    void aLogSwapWithSomeOldSegmentsAlreadyDeletedIsCompleted() throws IOException {
        Path dir = state("swap-some-deleted");
        Files.copy(cleanedSegment, dir.resolve(LogFileNames.name(0, ".log.swap")));
        for (long base : new long[]{0, 100}) {
            for (Path file : List.of(LogFileNames.logFile(dir, base), LogFileNames.offsetIndexFile(dir, base),
                    LogFileNames.timeIndexFile(dir, base))) {
                Files.move(file, file.resolveSibling(file.getFileName() + ".deleted"));
            }
        }
        assertThat(reopen(dir)).isEqualTo(cleanedRecords);
    }

    @Test
    void aLogSwapWhoseIndexesAlreadyTookTheirNamesIsCompleted() throws IOException {
        Path dir = state("swap-indexes-renamed");
        for (long base : new long[]{0, 100, 200}) {
            Path log = LogFileNames.logFile(dir, base);
            Files.move(log, log.resolveSibling(log.getFileName() + ".deleted"));
        }
        // the old indexes of 0 stand where the new ones were renamed to: they must not be trusted
        Files.copy(cleanedSegment, dir.resolve(LogFileNames.name(0, ".log.swap")));
        assertThat(reopen(dir)).isEqualTo(cleanedRecords);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path file : files.sorted(Comparator.naturalOrder()).toList()) {
                Files.copy(file, to.resolve(file.getFileName()));
            }
        }
    }
}

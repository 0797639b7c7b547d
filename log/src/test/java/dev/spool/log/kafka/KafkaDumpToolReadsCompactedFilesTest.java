package dev.spool.log.kafka;

import dev.spool.log.LogConfig;
import dev.spool.log.LogLoadOptions;
import dev.spool.log.ManualLogClock;
import dev.spool.log.PartitionLog;
import dev.spool.log.TestLogs;
import dev.spool.log.cleaner.CleanerTesting;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatchBuilder;
import org.apache.kafka.tools.DumpLogSegments;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Acceptance: Apache Kafka 4.4's DumpLogSegments reads compacted segments (offset gaps, rebuilt batches
 * in every codec, tombstone batches with a delete horizon, an idempotent producer's emptied last batch)
 * without error, prints exactly the records our reader sees, and finds the indexes right.
 */
class KafkaDumpToolReadsCompactedFilesTest {
    private static final CompressionType[] CODECS = CompressionType.values();

    @TempDir
    Path root;

    @Test
    void dumpToolReadsCompactedSegments() throws IOException {
        Path dir = root.resolve("compacted-0");
        ManualLogClock clock = new ManualLogClock();
        ScheduledExecutorService scheduler = TestLogs.scheduler();
        LogConfig config = LogConfig.fromProperties(Map.of("cleanup.policy", "compact", "segment.bytes", "3000",
                "index.interval.bytes", "200", "delete.retention.ms", "1000", "file.delete.delay.ms", "0"));
        List<Long> expectedOffsets = new ArrayList<>();
        try (PartitionLog log = PartitionLog.open(dir, config, clock, scheduler, LogLoadOptions.UNKNOWN)) {
            int sequence = 0;
            for (int b = 0; b < 80; b++) {
                RecordBatchBuilder builder = new RecordBatchBuilder(CODECS[b % CODECS.length]);
                if (b % 3 == 0) {
                    builder.producer(42, (short) 0, sequence);
                }
                int count = 1 + b % 4;
                for (int r = 0; r < count; r++) {
                    int key = (b * 7 + r) % 15;
                    byte[] value = (b + r) % 9 == 0 ? null : ("value-" + b + "-" + r).getBytes(StandardCharsets.UTF_8);
                    builder.append(clock.nowMs(), ("key-" + key).getBytes(StandardCharsets.UTF_8), value);
                }
                if (b % 3 == 0) {
                    sequence += count;
                }
                log.appendAsLeader(builder.build(), 1);
            }
            log.roll();
            log.updateHighWatermark(log.logEndOffset());
            long firstDirty = CleanerTesting.cleanFully(log, clock, -1);
            clock.advance(5_000);
            // more writes, then a second cleaning that also drops the tombstones whose horizon passed
            for (int k = 0; k < 5; k++) {
                log.appendAsLeader(new RecordBatchBuilder(CompressionType.ZSTD)
                        .append(clock.nowMs(), ("key-" + k).getBytes(StandardCharsets.UTF_8),
                                ("late-" + k).getBytes(StandardCharsets.UTF_8)).build(), 2);
            }
            log.roll();
            log.updateHighWatermark(log.logEndOffset());
            CleanerTesting.cleanFully(log, clock, firstDirty);
            for (Record record : TestLogs.readAll(log, 0)) {
                expectedOffsets.add(record.offset());
            }
            assertThat(expectedOffsets.size()).isLessThan(15 + 5);
        } finally {
            scheduler.shutdown();
        }
        List<String> logs = files(dir, ".log");
        String output = dump("--deep-iteration", "--print-data-log", "--files", String.join(",", logs));
        Pattern record = Pattern.compile("\\| offset: (\\d+) ");
        List<Long> offsets = new ArrayList<>();
        for (String line : output.split("\n")) {
            Matcher m = record.matcher(line);
            if (m.find()) {
                offsets.add(Long.parseLong(m.group(1)));
            }
        }
        assertThat(offsets).as(output).isEqualTo(expectedOffsets);
        assertThat(output).doesNotContainIgnoringCase("corrupt").doesNotContainIgnoringCase("exception")
                .doesNotContain("mismatch").contains("producerId: 42");
        List<String> indexes = new ArrayList<>(files(dir, ".index"));
        indexes.addAll(files(dir, ".timeindex"));
        String verify = dump("--verify-index-only", "--files", String.join(",", indexes));
        assertThat(verify).doesNotContainIgnoringCase("mismatch").doesNotContainIgnoringCase("out of order")
                .doesNotContainIgnoringCase("not found").doesNotContainIgnoringCase("corrupt")
                .doesNotContainIgnoringCase("exception");
    }

    private static List<String> files(Path dir, String suffix) throws IOException {
        try (Stream<Path> stream = Files.list(dir)) {
            return stream.map(Path::toString).filter(name -> name.endsWith(suffix)).sorted().toList();
        }
    }

    /**
     * Runs the tool in this JVM and returns its standard output; its standard error may only list offset
     * gaps ("Non-consecutive offsets in FILE" then "  A is followed by B"), which compaction leaves.
     */
    private static String dump(String... args) throws IOException {
        DumpLogSegmentsRun run = DumpLogSegmentsRun.of(args);
        for (String line : run.errLines()) {
            assertThat(line).as("stderr of DumpLogSegments")
                    .matches("Non-consecutive offsets in .*\\.log|  -?\\d+ is followed by \\d+");
        }
        return run.out();
    }
}

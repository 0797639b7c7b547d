package dev.spool.log.kafka;

import dev.spool.log.LogConfig;
import dev.spool.log.LogLoadOptions;
import dev.spool.log.PartitionLog;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Header;
import dev.spool.log.record.RecordBatchBuilder;
import org.apache.kafka.tools.DumpLogSegments;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Acceptance: Apache Kafka 4.4's own DumpLogSegments reads the segment and index files Spool writes,
 * finds no index or time index mismatch, and prints the offsets, keys and values we wrote.
 */
class KafkaDumpToolReadsOurFilesTest {
    private static final int BATCHES = 60;
    private static final int RECORDS_PER_BATCH = 5;
    private static final CompressionType[] CODECS = CompressionType.values();

    @TempDir
    static Path root;
    private static Path partitionDir;
    private static final ScheduledExecutorService SCHEDULER = Executors.newSingleThreadScheduledExecutor();

    @BeforeAll
    static void writeLog() throws IOException {
        partitionDir = root.resolve("dump-0");
        LogConfig config = LogConfig.fromProperties(Map.of("segment.bytes", "4000", "index.interval.bytes", "300"));
        try (PartitionLog log = PartitionLog.open(partitionDir, config, () -> 1_700_000_000_000L, SCHEDULER,
                LogLoadOptions.UNKNOWN)) {
            long offset = 0;
            for (int b = 0; b < BATCHES; b++) {
                RecordBatchBuilder builder = new RecordBatchBuilder(CODECS[b % CODECS.length]);
                for (int r = 0; r < RECORDS_PER_BATCH; r++) {
                    long o = offset + r;
                    // timestamps go up and down so the time index sees both
                    builder.append(1_700_000_000_000L + (o * 7919) % 1000, ("key-" + o).getBytes(StandardCharsets.UTF_8),
                            ("value-" + o + "-" + "x".repeat((int) (o % 50))).getBytes(StandardCharsets.UTF_8),
                            Header.of("h", ("a" + o).getBytes(StandardCharsets.UTF_8)), Header.of("h", null));
                }
                offset += RECORDS_PER_BATCH;
                log.appendAsLeader(builder.build(), 3);
            }
            assertThat(log.segments()).hasSizeGreaterThanOrEqualTo(4);
        }
    }

    @AfterAll
    static void stop() {
        SCHEDULER.shutdownNow();
    }

    private static List<String> files(String suffix) throws IOException {
        try (Stream<Path> stream = Files.list(partitionDir)) {
            return stream.map(Path::toString).filter(name -> name.endsWith(suffix)).sorted().toList();
        }
    }

    /**
     * Runs the tool in this JVM and returns its standard output. Its standard error must hold nothing but
     * the 4.4 tool's own quirk: it starts each file's offset check at -1, so every segment whose base
     * offset is not 0 is reported as "-1 is followed by BASE" (it does the same for Kafka's own files).
     */
    private static String dump(String... args) throws IOException {
        DumpLogSegmentsRun run = DumpLogSegmentsRun.of(args);
        Pattern file = Pattern.compile("Non-consecutive offsets in .*/(\\d{20})\\.log");
        String base = null;
        for (String line : run.errLines()) {
            Matcher m = file.matcher(line);
            if (m.matches()) {
                base = Long.toString(Long.parseLong(m.group(1)));
            } else {
                assertThat(line).as("stderr of DumpLogSegments").isEqualTo("  -1 is followed by " + base);
            }
        }
        return run.out();
    }

    @Test
    void deepIterationPrintsEveryOffsetKeyAndValue() throws IOException {
        String output = dump("--deep-iteration", "--print-data-log", "--files", String.join(",", files(".log")));
        Pattern record = Pattern.compile("\\| offset: (\\d+) .*key: (\\S+) .*payload: (\\S+)");
        List<Long> offsets = new ArrayList<>();
        for (String line : output.split("\n")) {
            Matcher m = record.matcher(line);
            if (m.find()) {
                long o = Long.parseLong(m.group(1));
                offsets.add(o);
                assertThat(m.group(2)).isEqualTo("key-" + o);
                assertThat(m.group(3)).isEqualTo("value-" + o + "-" + "x".repeat((int) (o % 50)));
            }
        }
        assertThat(offsets).as(output.substring(0, Math.min(3000, output.length())))
                .hasSize(BATCHES * RECORDS_PER_BATCH);
        for (int i = 0; i < offsets.size(); i++) {
            assertThat(offsets.get(i)).isEqualTo(i);
        }
        assertThat(output).doesNotContainIgnoringCase("corrupt").doesNotContainIgnoringCase("exception")
                .doesNotContain("mismatch");
        for (CompressionType codec : CODECS) {
            assertThat(output).contains("compresscodec: " + codec.configName);
        }
    }

    @Test
    void verifyIndexOnlyFindsNoMismatch() throws IOException {
        List<String> indexes = new ArrayList<>(files(".index"));
        indexes.addAll(files(".timeindex"));
        String output = dump("--verify-index-only", "--files", String.join(",", indexes));
        assertThat(output).doesNotContainIgnoringCase("mismatch").doesNotContainIgnoringCase("out of order")
                .doesNotContainIgnoringCase("not found").doesNotContainIgnoringCase("corrupt")
                .doesNotContainIgnoringCase("exception");
        assertThat(output).contains("Dumping");
        String withEntries = dump("--files", String.join(",", indexes));
        assertThat(withEntries).contains("offset:").contains("timestamp:");
    }
}

package dev.spool.log.cleaner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.log.BatchScanner;
import dev.spool.log.LogConfig;
import dev.spool.log.LogLoadOptions;
import dev.spool.log.ManualLogClock;
import dev.spool.log.PartitionLog;
import dev.spool.log.TestLogs;
import dev.spool.log.TopicPartition;
import dev.spool.log.index.AbortedTxn;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatchBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction of a log with transactions: an aborted value never displaces a committed one and goes, a marker whose
 * transaction has nothing left goes (with its abort's index entry) one delete.retention.ms after a cleaning saw it,
 * and a transaction still open bounds what may be cleaned at all.
 */
class TransactionalCompactionTest {

    private static final long COMMITTER = 5;
    private static final long ABORTER = 6;
    private static final long OPEN = 7;

    @TempDir
    Path dir;
    private final ScheduledExecutorService scheduler = TestLogs.scheduler();
    private final ManualLogClock clock = new ManualLogClock();
    private final int[] sequences = new int[8];

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private PartitionLog open() throws IOException {
        LogConfig config = LogConfig.fromProperties(Map.of("cleanup.policy", "compact"));
        return PartitionLog.open(dir.resolve("t-0"), config, clock, scheduler, LogLoadOptions.UNKNOWN);
    }

    private void write(PartitionLog log, long producerId, String key, String value) throws IOException {
        RecordBatchBuilder batch = new RecordBatchBuilder(CompressionType.NONE)
                .producer(producerId, (short) 0, sequences[(int) producerId]++).transactional(true)
                .append(clock.nowMs(), key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
        assertThat(log.appendAsLeader(batch.build(), 0, true).appended()).isTrue();
    }

    /** Every data record's value by key, in log order (markers left out). */
    private static Map<String, List<String>> valuesByKey(PartitionLog log) throws IOException {
        Map<String, List<String>> values = new LinkedHashMap<>();
        BatchScanner.forEachBatch(log, log.logStartOffset(), batch -> {
            if (!batch.isControl()) {
                for (Record record : batch.records()) {
                    values.computeIfAbsent(new String(record.keyBytes(), StandardCharsets.UTF_8), key -> new ArrayList<>())
                            .add(new String(record.valueBytes(), StandardCharsets.UTF_8));
                }
            }
        });
        return values;
    }

    @Test
    void anAbortedValueNeverDisplacesACommittedOneAndIsRemoved() throws IOException {
        try (PartitionLog log = open()) {
            write(log, COMMITTER, "k", "committed");
            log.appendTxnMarker(COMMITTER, (short) 0, 0, true, 0, true);
            write(log, ABORTER, "k", "aborted");
            log.appendTxnMarker(ABORTER, (short) 0, 0, false, 0, true);
            log.roll();
            List<AbortedTxn> abortedBefore = log.abortedTransactions(0, log.logEndOffset());

            CleanerTesting.cleanFully(log, clock, -1);

            assertThat(valuesByKey(log)).containsExactly(Map.entry("k", List.of("committed")));
            assertThat(log.abortedTransactions(0, log.logEndOffset())).as("kept in the cleaned segment's index")
                    .isEqualTo(abortedBefore);
        }
    }

    /** The offsets of the markers in the log. */
    private static List<Long> markerOffsets(PartitionLog log) throws IOException {
        List<Long> markers = new ArrayList<>();
        BatchScanner.forEachBatch(log, log.logStartOffset(), batch -> {
            if (batch.isControl()) {
                markers.add(batch.baseOffset());
            }
        });
        return markers;
    }

    @Test
    void aMarkerWhoseTransactionLeftNothingGoesOneDeleteRetentionAfterTheCleaningThatSawIt() throws IOException {
        try (PartitionLog log = open()) {
            write(log, COMMITTER, "k", "v1");                               // 0
            log.appendTxnMarker(COMMITTER, (short) 0, 0, true, 0, true);    // 1: its value is replaced below
            write(log, COMMITTER, "k", "v2");                               // 2
            log.appendTxnMarker(COMMITTER, (short) 0, 0, true, 0, true);    // 3
            write(log, ABORTER, "k", "aborted");                            // 4
            log.appendTxnMarker(ABORTER, (short) 0, 0, false, 0, true);     // 5: its value goes with the abort
            write(log, ABORTER, "x", "y");                                  // 6
            log.appendTxnMarker(ABORTER, (short) 0, 0, true, 0, true);      // 7
            write(log, COMMITTER, "z", "z1");                               // 8
            log.appendTxnMarker(COMMITTER, (short) 0, 0, true, 0, true);    // 9
            log.roll();

            CleanerTesting.cleanFully(log, clock, -1);
            assertThat(valuesByKey(log)).containsExactly(Map.entry("k", List.of("v2")), Map.entry("x", List.of("y")),
                    Map.entry("z", List.of("z1")));
            assertThat(markerOffsets(log)).as("a reader may still be inside a transaction whose data went")
                    .containsExactly(1L, 3L, 5L, 7L, 9L);
            assertThat(log.abortedTransactions(0, log.logEndOffset())).hasSize(1);

            clock.advance(log.config().deleteRetentionMs - 1);
            CleanerTesting.cleanFully(log, clock, -1);
            assertThat(markerOffsets(log)).as("delete.retention.ms not passed yet")
                    .containsExactly(1L, 3L, 5L, 7L, 9L);

            clock.advance(1);
            CleanerTesting.cleanFully(log, clock, -1);
            assertThat(markerOffsets(log)).as("the markers of transactions with data left stay")
                    .containsExactly(3L, 7L, 9L);
            assertThat(log.abortedTransactions(0, log.logEndOffset())).as("the abort's index entry went with it")
                    .isEmpty();
            assertThat(valuesByKey(log)).containsExactly(Map.entry("k", List.of("v2")), Map.entry("x", List.of("y")),
                    Map.entry("z", List.of("z1")));
        }

        try (Stream<Path> files = Files.list(dir.resolve("t-0"))) {
            for (Path snapshot : files.filter(file -> file.toString().endsWith(".snapshot")).toList()) {
                Files.delete(snapshot); // the producer state is then replayed from the cleaned log
            }
        }
        try (PartitionLog reopened = open()) {
            reopened.loadProducerState();
            reopened.updateHighWatermark(reopened.logEndOffset());
            assertThat(reopened.lastStableOffset()).as("no transaction open after a replay of the cleaned log")
                    .isEqualTo(10);
        }
    }

    @Test
    void anOpenTransactionBoundsTheCleaning() throws IOException {
        try (PartitionLog log = open()) {
            write(log, COMMITTER, "k", "committed");
            log.appendTxnMarker(COMMITTER, (short) 0, 0, true, 0, true);
            log.roll();                                      // segment [0, 2)
            write(log, OPEN, "k", "maybe");                  // 2, open
            log.roll();                                      // segment [2, 3)
            write(log, COMMITTER, "other", "x");
            log.appendTxnMarker(COMMITTER, (short) 0, 0, true, 0, true);
            log.roll();

            LogToClean target = LogToClean.of(new TopicPartition("t", 0), log, -1, clock.nowMs());
            assertThat(target.firstUncleanableOffset()).as("the open transaction's segment").isEqualTo(2);
            CleanerTesting.cleanFully(log, clock, -1);
            log.appendTxnMarker(OPEN, (short) 0, 0, false, 0, true);

            assertThat(valuesByKey(log).get("k")).as("the committed value survived the open transaction's abort")
                    .containsExactly("committed", "maybe");
        }
    }
}

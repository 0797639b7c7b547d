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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction of a log with transactions: an aborted value never displaces a committed one and goes, its transaction
 * stays in the index, and a transaction still open bounds what may be cleaned at all.
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

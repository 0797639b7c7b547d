package dev.spool.log.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.log.LogConfig;
import dev.spool.log.LogLoadOptions;
import dev.spool.log.PartitionLog;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.RecordBatchBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Acceptance: Kafka 4.4's DumpLogSegments reads the transaction markers and the .txnindex Spool writes. */
class KafkaDumpToolReadsOurTransactionsTest {

    @TempDir
    Path root;

    @Test
    void markersAndAbortedTransactionsPrintAsKafkasOwn() throws IOException {
        Path dir = root.resolve("txn-0");
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try (PartitionLog log = PartitionLog.open(dir, LogConfig.defaults(), () -> 1_700_000_000_000L, scheduler,
                LogLoadOptions.UNKNOWN)) {
            for (long producer = 40; producer <= 41; producer++) {
                log.appendAsLeader(new RecordBatchBuilder(CompressionType.NONE).producer(producer, (short) 2, 0)
                        .transactional(true).append(1_700_000_000_000L, null,
                                ("v" + producer).getBytes(StandardCharsets.UTF_8)).build(), 0, true);
            }
            log.appendTxnMarker(40, (short) 2, 7, false, 0, true);  // offset 2, producer 41 still open at 1
            log.appendTxnMarker(41, (short) 2, 7, true, 0, true);   // offset 3
        } finally {
            scheduler.shutdownNow();
        }

        DumpLogSegmentsRun index = DumpLogSegmentsRun.of("--files",
                dir.resolve("00000000000000000000.txnindex").toString());
        assertThat(index.errLines()).isEmpty();
        assertThat(index.out()).contains("version: 0 producerId: 40 firstOffset: 0 lastOffset: 2 lastStableOffset: 1");

        DumpLogSegmentsRun log = DumpLogSegmentsRun.of("--print-data-log", "--files",
                dir.resolve("00000000000000000000.log").toString());
        assertThat(log.errLines()).isEmpty();
        assertThat(log.out()).contains("endTxnMarker: ABORT coordinatorEpoch: 7")
                .contains("endTxnMarker: COMMIT coordinatorEpoch: 7")
                .contains("isTransactional: true isControl: true");
    }
}

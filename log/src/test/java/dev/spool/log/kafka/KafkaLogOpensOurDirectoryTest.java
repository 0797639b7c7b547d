package dev.spool.log.kafka;

import dev.spool.log.LogConfig;
import dev.spool.log.LogLoadOptions;
import dev.spool.log.PartitionLog;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Header;
import dev.spool.log.record.RecordBatchBuilder;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.server.storage.log.FetchIsolation;
import org.apache.kafka.server.util.KafkaScheduler;
import org.apache.kafka.storage.internals.log.FetchDataInfo;
import org.apache.kafka.storage.internals.log.LogDirFailureChannel;
import org.apache.kafka.storage.internals.log.ProducerStateManagerConfig;
import org.apache.kafka.storage.internals.log.UnifiedLog;
import org.apache.kafka.storage.log.metrics.BrokerTopicStats;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kafka 4.4's own UnifiedLog opens a partition directory Spool wrote (trusting our indexes after a
 * clean shutdown, or recovering every segment after an unclean one) and reads every record back.
 */
class KafkaLogOpensOurDirectoryTest {
    private static final int BATCHES = 40;
    private static final int RECORDS_PER_BATCH = 6;

    @TempDir
    Path root;

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void kafkasUnifiedLogReadsEveryRecord(boolean lastShutdownClean) throws Exception {
        Path dir = root.resolve("ours-0");
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        long end;
        try (PartitionLog log = PartitionLog.open(dir, LogConfig.fromProperties(Map.of("segment.bytes", "1500",
                "index.interval.bytes", "200")), () -> 1_700_000_000_000L, scheduler, LogLoadOptions.UNKNOWN)) {
            for (int b = 0; b < BATCHES; b++) {
                RecordBatchBuilder builder = new RecordBatchBuilder(CompressionType.values()[b % 5]);
                for (int r = 0; r < RECORDS_PER_BATCH; r++) {
                    long offset = (long) b * RECORDS_PER_BATCH + r;
                    builder.append(1_700_000_000_000L + offset, ("k" + offset).getBytes(StandardCharsets.UTF_8),
                            ("v" + offset).getBytes(StandardCharsets.UTF_8), Header.of("h", new byte[]{(byte) r}));
                }
                log.appendAsLeader(builder.build(), 2 + b / 10);
            }
            end = log.logEndOffset();
            assertThat(log.segments()).hasSizeGreaterThan(3);
        } finally {
            scheduler.shutdownNow();
        }

        KafkaScheduler kafkaScheduler = new KafkaScheduler(1, true, "kafka-test-");
        kafkaScheduler.startup();
        UnifiedLog kafka = UnifiedLog.create(dir.toFile(), new org.apache.kafka.storage.internals.log.LogConfig(Map.of()),
                0L, lastShutdownClean ? end : 0L, kafkaScheduler, new BrokerTopicStats(), Time.SYSTEM, 300_000,
                new ProducerStateManagerConfig(86_400_000, false), 600_000, new LogDirFailureChannel(1),
                lastShutdownClean, Optional.empty());
        try {
            assertThat(kafka.logEndOffset()).isEqualTo(end);
            assertThat(kafka.leaderEpochCache().latestEpoch()).contains(5);
            long next = 0;
            while (next < end) {
                FetchDataInfo info = kafka.read(next, 2000, FetchIsolation.LOG_END, true);
                for (RecordBatch batch : info.records.batches()) {
                    batch.ensureValid();
                    for (Record record : batch) {
                        if (record.offset() < next) {
                            continue;
                        }
                        assertThat(record.offset()).isEqualTo(next);
                        assertThat(StandardCharsets.UTF_8.decode(record.value()).toString()).isEqualTo("v" + next);
                        assertThat(StandardCharsets.UTF_8.decode(record.key()).toString()).isEqualTo("k" + next);
                        next++;
                    }
                }
            }
            assertThat(next).isEqualTo((long) BATCHES * RECORDS_PER_BATCH);
        } finally {
            kafka.close();
            kafkaScheduler.shutdown();
        }
    }
}

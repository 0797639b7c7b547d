package dev.spool.log.kafka;

import dev.spool.log.LogConfig;
import dev.spool.log.LogLoadOptions;
import dev.spool.log.PartitionLog;
import dev.spool.log.TestLogs;
import dev.spool.log.TimestampOffset;
import dev.spool.log.record.Record;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.CompressionType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.server.util.KafkaScheduler;
import org.apache.kafka.storage.internals.log.LogDirFailureChannel;
import org.apache.kafka.storage.internals.log.ProducerStateManagerConfig;
import org.apache.kafka.storage.internals.log.UnifiedLog;
import org.apache.kafka.storage.log.metrics.BrokerTopicStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Acceptance: a partition directory written by Apache Kafka 4.4's own UnifiedLog (several segments, every
 * codec, headers, null keys) opens in Spool's log, after a clean or an unclean shutdown, and every
 * record reads back.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WeReadKafkaWrittenLogTest {
    private static final int BATCHES = 48;
    private static final int RECORDS_PER_BATCH = 7;
    private static final long BASE_TIME_MS = 1_710_000_000_000L;

    @TempDir
    static Path root;
    private static Path partitionDir;
    private static long kafkaLogEndOffset;
    private static int kafkaSegments;
    private static final ScheduledExecutorService SCHEDULER = Executors.newSingleThreadScheduledExecutor();

    @BeforeAll
    static void writeWithKafka() throws IOException, InterruptedException {
        partitionDir = root.resolve("from-kafka-0");
        KafkaScheduler scheduler = new KafkaScheduler(1, true, "kafka-test-");
        scheduler.startup();
        org.apache.kafka.storage.internals.log.LogConfig config = new org.apache.kafka.storage.internals.log.LogConfig(
                Map.of("index.interval.bytes", "256"));
        UnifiedLog log = UnifiedLog.create(partitionDir.toFile(), config, 0L, 0L, scheduler, new BrokerTopicStats(),
                Time.SYSTEM, 300_000, new ProducerStateManagerConfig(86_400_000, false), 600_000,
                new LogDirFailureChannel(1), true, Optional.empty());
        CompressionType[] codecs = CompressionType.values();
        for (int b = 0; b < BATCHES; b++) {
            MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(4096),
                    Compression.of(codecs[b % codecs.length]).build(), TimestampType.CREATE_TIME, 0L);
            for (int r = 0; r < RECORDS_PER_BATCH; r++) {
                long offset = (long) b * RECORDS_PER_BATCH + r;
                builder.append(new SimpleRecord(BASE_TIME_MS + offset, key(offset), value(offset),
                        new org.apache.kafka.common.header.Header[]{new RecordHeader("trace", key(offset))}));
            }
            log.appendAsLeader(builder.build(), 1 + b / 20);
            if (b % 10 == 9) {
                log.roll();
            }
        }
        kafkaLogEndOffset = log.logEndOffset();
        kafkaSegments = log.numberOfSegments();
        log.close();
        scheduler.shutdown();
        assertThat(kafkaSegments).isGreaterThanOrEqualTo(4);
    }

    @AfterAll
    static void stop() {
        SCHEDULER.shutdownNow();
    }

    private static byte[] key(long offset) {
        return offset % 9 == 0 ? null : ("key-" + offset).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(long offset) {
        return ("value-" + offset).getBytes(StandardCharsets.UTF_8);
    }

    private static void assertEveryRecord(PartitionLog log) throws IOException {
        assertThat(log.logEndOffset()).isEqualTo(kafkaLogEndOffset).isEqualTo((long) BATCHES * RECORDS_PER_BATCH);
        assertThat(log.segments()).hasSize(kafkaSegments);
        List<Record> records = TestLogs.readAll(log, 0);
        assertThat(records).hasSize(BATCHES * RECORDS_PER_BATCH);
        for (int i = 0; i < records.size(); i++) {
            Record record = records.get(i);
            assertThat(record.offset()).isEqualTo(i);
            assertThat(record.timestamp()).isEqualTo(BASE_TIME_MS + i);
            assertThat(record.keyBytes()).isEqualTo(key(i));
            assertThat(record.valueBytes()).isEqualTo(value(i));
            assertThat(record.headers()).hasSize(1);
            assertThat(record.headers().get(0).key()).isEqualTo("trace");
        }
        assertThat(log.offsetForTimestamp(BASE_TIME_MS + 100).offset()).isEqualTo(100);
        assertThat(log.offsetForTimestamp(TimestampOffset.MAX_TIMESTAMP).offset()).isEqualTo(kafkaLogEndOffset - 1);
        assertThat(log.leaderEpochs().entries()).containsEntry(1, 0L).containsEntry(2, 20L * RECORDS_PER_BATCH);
    }

    @Test
    @Order(1) // first, while the index files are still the ones Kafka wrote
    void opensAfterCleanShutdownTrustingKafkasIndexes() throws IOException {
        try (PartitionLog log = PartitionLog.open(partitionDir, LogConfig.defaults(), () -> BASE_TIME_MS, SCHEDULER,
                new LogLoadOptions(kafkaLogEndOffset, 0, true))) {
            assertEveryRecord(log);
        }
    }

    @Test
    @Order(2)
    void opensAfterUncleanShutdownValidatingEveryBatch() throws IOException {
        try (PartitionLog log = PartitionLog.open(partitionDir, LogConfig.defaults(), () -> BASE_TIME_MS, SCHEDULER,
                LogLoadOptions.UNKNOWN)) {
            assertEveryRecord(log);
        }
    }
}

package dev.spool.log.cleaner;

import dev.spool.log.record.CompressionType;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchBuilder;
import dev.spool.log.record.RecordBatchLayout;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What one batch becomes in a cleaning, each output read back by kafka-clients' own record classes
 * (so the delete horizon, offsets and producer fields mean to Kafka what we meant).
 */
class BatchFilterTest {
    private static final long NOW_MS = 1_700_000_000_000L;
    private static final long RETENTION_MS = 86_400_000L;

    private final BatchFilter filter = new BatchFilter();
    private final OffsetMap map = new OffsetMap(64);

    /** Records "key-i" -> "value-i" (null for the indexes in {@code tombstones}) at offsets 100.. with timestamps NOW-1000+i. */
    private static RecordBatch batch(CompressionType codec, long producerId, int count, int... tombstones) {
        RecordBatchBuilder builder = new RecordBatchBuilder(codec).baseOffset(100).partitionLeaderEpoch(3);
        if (producerId >= 0) {
            builder.producer(producerId, (short) 2, 40);
        }
        for (int i = 0; i < count; i++) {
            boolean tombstone = false;
            for (int t : tombstones) {
                tombstone |= t == i;
            }
            builder.append(NOW_MS - 1000 + i, ("key-" + i).getBytes(StandardCharsets.UTF_8),
                    tombstone ? null : ("value-" + i).getBytes(StandardCharsets.UTF_8));
        }
        return new RecordBatch().wrap(builder.build(), 0);
    }

    private void supersede(int... keys) {
        for (int key : keys) {
            map.put(ByteBuffer.wrap(("key-" + key).getBytes(StandardCharsets.UTF_8)), 1_000 + key);
        }
    }

    private static org.apache.kafka.common.record.internal.RecordBatch kafkaBatch(ByteBuffer bytes) {
        List<org.apache.kafka.common.record.internal.RecordBatch> batches = new ArrayList<>();
        MemoryRecords.readableRecords(bytes.duplicate()).batches().forEach(batches::add);
        assertThat(batches).hasSize(1);
        batches.get(0).ensureValid();
        return batches.get(0);
    }

    @Test
    void aBatchKeepingEverythingIsCopiedByteForByte() {
        RecordBatch batch = batch(CompressionType.ZSTD, -1, 3);
        assertThat(filter.filter(batch, map, NOW_MS, RETENTION_MS, false)).isEqualTo(BatchFilter.Outcome.COPIED);
        assertThat(filter.output()).isEqualTo(batch.buffer().duplicate().position(0));
    }

    @Test
    void aPartlySupersededBatchIsRebuiltWithTheSameCodecOffsetsAndProducer() {
        supersede(0, 2);
        RecordBatch batch = batch(CompressionType.SNAPPY, 9, 4);
        assertThat(filter.filter(batch, map, NOW_MS, RETENTION_MS, false)).isEqualTo(BatchFilter.Outcome.REBUILT);
        org.apache.kafka.common.record.internal.RecordBatch kafka = kafkaBatch(filter.output());
        assertThat(kafka.compressionType().name).isEqualTo("snappy");
        assertThat(kafka.baseOffset()).isEqualTo(100);
        assertThat(kafka.lastOffset()).isEqualTo(103);
        assertThat(kafka.producerId()).isEqualTo(9);
        assertThat(kafka.producerEpoch()).isEqualTo((short) 2);
        assertThat(kafka.baseSequence()).isEqualTo(40);
        assertThat(kafka.lastSequence()).isEqualTo(43);
        assertThat(kafka.partitionLeaderEpoch()).isEqualTo(3);
        assertThat(kafka.deleteHorizonMs()).isEmpty();
        List<Long> offsets = new ArrayList<>();
        for (Record record : kafka) {
            offsets.add(record.offset());
            assertThat(record.timestamp()).isEqualTo(NOW_MS - 1000 + (record.offset() - 100));
        }
        assertThat(offsets).containsExactly(101L, 103L);
    }

    @Test
    void aKeptTombstoneGetsADeleteHorizonKafkaReads() {
        RecordBatch batch = batch(CompressionType.LZ4, -1, 3, 1);
        assertThat(filter.filter(batch, map, NOW_MS, RETENTION_MS, false)).isEqualTo(BatchFilter.Outcome.REBUILT);
        assertThat(filter.keptTombstoneHorizonMs()).isEqualTo(NOW_MS + RETENTION_MS);
        org.apache.kafka.common.record.internal.RecordBatch kafka = kafkaBatch(filter.output());
        assertThat(kafka.deleteHorizonMs()).hasValue(NOW_MS + RETENTION_MS);
        List<Long> timestamps = new ArrayList<>();
        for (Record record : kafka) {
            timestamps.add(record.timestamp());
        }
        assertThat(timestamps).containsExactly(NOW_MS - 1000, NOW_MS - 999, NOW_MS - 998);

        // before the horizon the tombstone stays (copied as it is now); after it, it goes
        RecordBatch withHorizon = new RecordBatch().wrap(filter.output(), 0);
        assertThat(new BatchFilter().filter(withHorizon, map, NOW_MS + RETENTION_MS - 1, RETENTION_MS, false))
                .isEqualTo(BatchFilter.Outcome.COPIED);
        BatchFilter later = new BatchFilter();
        assertThat(later.filter(withHorizon, map, NOW_MS + RETENTION_MS, RETENTION_MS, false))
                .isEqualTo(BatchFilter.Outcome.REBUILT);
        assertThat(later.recordsRetained()).isEqualTo(2);
        assertThat(later.keptTombstoneHorizonMs()).isEqualTo(RecordBatchLayout.NO_TIMESTAMP);
    }

    @Test
    void theLastBatchOfAProducerStaysAsAnEmptyHeader() {
        supersede(0, 1, 2);
        RecordBatch batch = batch(CompressionType.GZIP, 9, 3);
        assertThat(filter.filter(batch, map, NOW_MS, RETENTION_MS, true)).isEqualTo(BatchFilter.Outcome.EMPTIED);
        org.apache.kafka.common.record.internal.RecordBatch kafka = kafkaBatch(filter.output());
        assertThat(kafka.countOrNull()).isZero();
        assertThat(kafka.baseOffset()).isEqualTo(100);
        assertThat(kafka.lastOffset()).isEqualTo(102);
        assertThat(kafka.producerId()).isEqualTo(9);
        assertThat(kafka.baseSequence()).isEqualTo(40);
        assertThat(kafka.lastSequence()).isEqualTo(42);
        assertThat(kafka.compressionType().name).isEqualTo("none");

        assertThat(new BatchFilter().filter(batch, map, NOW_MS, RETENTION_MS, false))
                .as("not its producer's last batch").isEqualTo(BatchFilter.Outcome.REMOVED);
    }

    @Test
    void recordsWithoutKeysAreDropped() {
        RecordBatch batch = new RecordBatch().wrap(new RecordBatchBuilder(CompressionType.NONE)
                .append(NOW_MS, null, "x".getBytes(StandardCharsets.UTF_8))
                .append(NOW_MS, "k".getBytes(StandardCharsets.UTF_8), "y".getBytes(StandardCharsets.UTF_8)).build(), 0);
        assertThat(filter.filter(batch, map, NOW_MS, RETENTION_MS, false)).isEqualTo(BatchFilter.Outcome.REBUILT);
        assertThat(filter.recordsRetained()).isEqualTo(1);
    }
}

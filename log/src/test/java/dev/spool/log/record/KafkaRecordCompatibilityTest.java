package dev.spool.log.record;

import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Our batches read by kafka-clients, and kafka-clients' batches read by us, for every codec. */
class KafkaRecordCompatibilityTest {

    private static List<Object[]> sampleRecords(long seed, int count) {
        Random random = new Random(seed);
        List<Object[]> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] key = i % 5 == 0 ? null : ("key-" + i).getBytes(StandardCharsets.UTF_8);
            byte[] value = i % 7 == 3 ? null : new byte[random.nextInt(300)];
            if (value != null) {
                for (int b = 0; b < value.length; b++) {
                    value[b] = (byte) ('a' + random.nextInt(4));
                }
            }
            out.add(new Object[]{1_700_000_000_000L + random.nextInt(10_000), key, value});
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void kafkaReadsBatchesWeBuild(CompressionType type) {
        List<Object[]> samples = sampleRecords(type.id, 200);
        RecordBatchBuilder builder = new RecordBatchBuilder(type).baseOffset(1000).producer(77, (short) 3, 10);
        for (Object[] s : samples) {
            builder.append((Long) s[0], (byte[]) s[1], (byte[]) s[2],
                    Header.of("h", new byte[]{1}), Header.of("h", null), Header.of("ü", new byte[0]));
        }
        ByteBuffer built = builder.build();

        MemoryRecords records = MemoryRecords.readableRecords(built);
        List<org.apache.kafka.common.record.internal.RecordBatch> batches = new ArrayList<>();
        records.batches().forEach(batches::add);
        assertThat(batches).hasSize(1);
        org.apache.kafka.common.record.internal.RecordBatch batch = batches.get(0);
        batch.ensureValid();
        assertThat((int) batch.compressionType().id).isEqualTo(type.id);
        assertThat(batch.baseOffset()).isEqualTo(1000);
        assertThat(batch.lastOffset()).isEqualTo(1199);
        assertThat(batch.producerId()).isEqualTo(77);
        assertThat(batch.baseSequence()).isEqualTo(10);
        long max = samples.stream().mapToLong(s -> (Long) s[0]).max().orElseThrow();
        assertThat(batch.maxTimestamp()).isEqualTo(max);
        int i = 0;
        for (org.apache.kafka.common.record.internal.Record r : batch) {
            Object[] s = samples.get(i);
            assertThat(r.offset()).isEqualTo(1000 + i);
            assertThat(r.timestamp()).isEqualTo((Long) s[0]);
            assertThat(bytes(r.key())).isEqualTo((byte[]) s[1]);
            assertThat(bytes(r.value())).isEqualTo((byte[]) s[2]);
            assertThat(r.headers()).hasSize(3);
            assertThat(r.headers()[0].key()).isEqualTo("h");
            assertThat(r.headers()[1].value()).isNull();
            assertThat(r.headers()[2].key()).isEqualTo("ü");
            i++;
        }
        assertThat(i).isEqualTo(200);
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void weReadBatchesKafkaBuilds(CompressionType type) {
        List<Object[]> samples = sampleRecords(100 + type.id, 300);
        MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(1024),
                Compression.of(org.apache.kafka.common.record.internal.CompressionType.forId(type.id)).build(),
                TimestampType.CREATE_TIME, 42L);
        for (Object[] s : samples) {
            builder.append(new SimpleRecord((Long) s[0], (byte[]) s[1], (byte[]) s[2],
                    new org.apache.kafka.common.header.Header[]{new RecordHeader("k", new byte[]{9}),
                        new RecordHeader("k", null)}));
        }
        ByteBuffer buffer = builder.build().buffer();

        RecordBatch batch = new RecordBatch().wrap(buffer, buffer.position());
        assertThat(batch.validateForProduce()).isEqualTo(BatchValidation.VALID);
        assertThat(batch.sizeInBytes()).isEqualTo(buffer.remaining());
        assertThat(batch.compressionType()).isEqualTo(type);
        assertThat(batch.baseOffset()).isEqualTo(42);
        assertThat(batch.recordCount()).isEqualTo(300);
        List<Record> records = batch.records();
        assertThat(records).hasSize(300);
        for (int i = 0; i < records.size(); i++) {
            Record r = records.get(i);
            Object[] s = samples.get(i);
            assertThat(r.offset()).isEqualTo(42 + i);
            assertThat(r.timestamp()).isEqualTo((Long) s[0]);
            assertThat(r.keyBytes()).isEqualTo((byte[]) s[1]);
            assertThat(r.valueBytes()).isEqualTo((byte[]) s[2]);
            assertThat(r.headers()).extracting(Header::key).containsExactly("k", "k");
            assertThat(r.headers().get(1).value()).isNull();
        }
    }

    /**
     * At the default level lz4 compresses as Kafka does, byte for byte: Kafka keeps the fast compressor
     * there and uses the high-compression one, ~25x slower, only at the other levels (KIP-390).
     */
    @Test
    void lz4AtTheDefaultLevelIsByteForByteKafkas() {
        List<Object[]> samples = sampleRecords(9, 400);
        MemoryRecordsBuilder kafka = MemoryRecords.builder(ByteBuffer.allocate(1024), Compression.lz4().build(),
                TimestampType.CREATE_TIME, 0L);
        RecordBatchBuilder ours = new RecordBatchBuilder(CompressionType.LZ4);
        for (Object[] s : samples) {
            kafka.append(new SimpleRecord((Long) s[0], (byte[]) s[1], (byte[]) s[2]));
            ours.append((Long) s[0], (byte[]) s[1], (byte[]) s[2]);
        }
        ByteBuffer theirs = kafka.build().buffer();
        ByteBuffer built = ours.build();

        assertThat(recordsSection(built)).isEqualTo(recordsSection(theirs));
    }

    private static ByteBuffer recordsSection(ByteBuffer batch) {
        return batch.duplicate().position(batch.position() + RecordBatchLayout.RECORDS_OFFSET);
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void logAppendTimeRewriteIsAcceptedByKafka(CompressionType type) {
        ByteBuffer built = new RecordBatchBuilder(type).append(5, "k".getBytes(), "v".getBytes()).build();
        RecordBatch batch = new RecordBatch().wrap(built, 0);
        batch.setBaseOffset(9);
        batch.setPartitionLeaderEpoch(4);
        batch.setLogAppendTime(123_456L);
        assertThat(batch.validate()).isEqualTo(BatchValidation.VALID);

        org.apache.kafka.common.record.internal.RecordBatch kafka = MemoryRecords.readableRecords(built).batches().iterator().next();
        kafka.ensureValid();
        assertThat(kafka.timestampType()).isEqualTo(TimestampType.LOG_APPEND_TIME);
        assertThat(kafka.maxTimestamp()).isEqualTo(123_456L);
        assertThat(kafka.partitionLeaderEpoch()).isEqualTo(4);
        assertThat(kafka.iterator().next().timestamp()).isEqualTo(123_456L);
        assertThat(kafka.iterator().next().offset()).isEqualTo(9);
        assertThat(batch.records().get(0).timestamp()).isEqualTo(123_456L);
    }

    private static byte[] bytes(ByteBuffer buffer) {
        if (buffer == null) {
            return null;
        }
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }
}

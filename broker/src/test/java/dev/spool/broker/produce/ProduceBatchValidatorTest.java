package dev.spool.broker.produce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.log.LogConfig;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.RecordBatchBuilder;
import dev.spool.log.record.RecordBatchLayout;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ProduceResponseData.BatchIndexAndErrorMessage;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProduceBatchValidatorTest {

    private static final long NOW_MS = 1_800_000_000_000L;
    private static final short VERSION = 9;

    private final ProduceBatchValidator validator = new ProduceBatchValidator();

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static RecordBatchBuilder batch(CompressionType compression) {
        return new RecordBatchBuilder(compression)
                .append(NOW_MS, bytes("k0"), bytes("v0"))
                .append(NOW_MS, bytes("k1"), bytes("v1"));
    }

    private Errors validate(ByteBuffer records, LogConfig config) {
        Rejection rejection = validator.validate(records, VERSION, config, NOW_MS);
        return rejection == null ? Errors.NONE : rejection.error();
    }

    private Errors validate(ByteBuffer records) {
        return validate(records, LogConfig.defaults());
    }

    @Test
    void aWellFormedBatchPasses() {
        for (CompressionType compression : CompressionType.values()) {
            assertThat(validate(batch(compression).build())).as(compression.configName).isEqualTo(Errors.NONE);
        }
        assertThat(validator.batch().recordCount()).isEqualTo(2);
    }

    @Test
    void emptyRecordsOrTwoBatchesAreInvalid() {
        assertThat(validate(ByteBuffer.allocate(0))).isEqualTo(Errors.INVALID_RECORD);
        ByteBuffer one = batch(CompressionType.NONE).build();
        ByteBuffer two = ByteBuffer.allocate(one.remaining() * 2);
        two.put(one.duplicate()).put(one.duplicate()).flip();
        assertThat(validate(two)).isEqualTo(Errors.INVALID_RECORD);
    }

    @Test
    void aTruncatedOrCorruptBatchIsACorruptMessage() {
        ByteBuffer whole = batch(CompressionType.NONE).build();
        assertThat(validate(whole.duplicate().limit(whole.limit() - 1))).isEqualTo(Errors.CORRUPT_MESSAGE);
        ByteBuffer flipped = batch(CompressionType.NONE).build();
        flipped.put(flipped.limit() - 1, (byte) (flipped.get(flipped.limit() - 1) ^ 1));
        assertThat(validate(flipped)).isEqualTo(Errors.CORRUPT_MESSAGE);
    }

    @Test
    void oldMagicIsInvalid() {
        ByteBuffer batch = batch(CompressionType.NONE).build();
        batch.put(RecordBatchLayout.MAGIC_OFFSET, (byte) 1);
        assertThat(validate(batch)).isEqualTo(Errors.INVALID_RECORD);
    }

    @Test
    void aBatchAboveMaxMessageBytesIsTooLargeAndAboveSegmentBytesARecordListTooLarge() {
        ByteBuffer batch = batch(CompressionType.NONE).build();
        int size = batch.remaining();
        assertThat(validate(batch, LogConfig.defaults().with(Map.of("max.message.bytes", String.valueOf(size)))))
                .isEqualTo(Errors.NONE);
        assertThat(validate(batch, LogConfig.defaults().with(Map.of("max.message.bytes", String.valueOf(size - 1)))))
                .isEqualTo(Errors.MESSAGE_TOO_LARGE);
        assertThat(validator.validate(batch, VERSION, LogConfig.defaults().with(Map.of("max.message.bytes",
                String.valueOf(size - 1))), NOW_MS).message()).contains(String.valueOf(size));
    }

    @Test
    void zstdNeedsProduceVersionSeven() {
        ByteBuffer batch = batch(CompressionType.ZSTD).build();
        assertThat(validator.validate(batch, (short) 6, LogConfig.defaults(), NOW_MS).error())
                .isEqualTo(Errors.UNSUPPORTED_COMPRESSION_TYPE);
        assertThat(validator.validate(batch, (short) 7, LogConfig.defaults(), NOW_MS)).isNull();
    }

    @Test
    void aNonZeroBaseOffsetAControlBatchOrANegativeSequenceIsInvalid() {
        assertThat(validate(new RecordBatchBuilder(CompressionType.NONE).baseOffset(5)
                .append(NOW_MS, null, bytes("v")).build())).isEqualTo(Errors.INVALID_RECORD);
        assertThat(validate(batch(CompressionType.NONE).control(true).build())).isEqualTo(Errors.INVALID_RECORD);
        assertThat(validate(batch(CompressionType.NONE).producer(7, (short) 0, -1).build()))
                .isEqualTo(Errors.INVALID_RECORD);
        assertThat(validate(batch(CompressionType.NONE).producer(7, (short) 0, 0).build())).isEqualTo(Errors.NONE);
    }

    @Test
    void aRecordCountThatDisagreesWithTheLastOffsetDeltaIsInvalid() {
        ByteBuffer batch = batch(CompressionType.NONE).build();
        batch.putInt(RecordBatchLayout.LAST_OFFSET_DELTA_OFFSET, 5);
        validator.batch().wrap(batch, 0).writeChecksum();
        assertThat(validate(batch)).isEqualTo(Errors.INVALID_RECORD);
    }

    @Test
    void timestampsOutsideTheAllowedWindowAreRefusedWithTheirRecordIndexes() {
        ByteBuffer batch = new RecordBatchBuilder(CompressionType.NONE)
                .append(NOW_MS, null, bytes("ok"))
                .append(NOW_MS + 3_600_001, null, bytes("too new"))
                .append(NOW_MS - 10_000, null, bytes("old")).build();
        Rejection rejection = validator.validate(batch, VERSION, LogConfig.defaults(), NOW_MS);
        assertThat(rejection.error()).isEqualTo(Errors.INVALID_TIMESTAMP);
        assertThat(rejection.recordErrors()).extracting(BatchIndexAndErrorMessage::batchIndex).containsExactly(1);
        LogConfig strict = LogConfig.defaults().with(Map.of("message.timestamp.before.max.ms", "1000"));
        assertThat(validator.validate(batch, VERSION, strict, NOW_MS).recordErrors())
                .extracting(BatchIndexAndErrorMessage::batchIndex).containsExactly(1, 2);
        LogConfig appendTime = LogConfig.defaults().with(Map.of("message.timestamp.type", "LogAppendTime"));
        assertThat(validator.validate(batch, VERSION, appendTime, NOW_MS)).isNull();
    }

    @Test
    void compressedBatchesAreInflatedToFindBadTimestamps() {
        ByteBuffer batch = new RecordBatchBuilder(CompressionType.LZ4)
                .append(NOW_MS, null, bytes("ok"))
                .append(NOW_MS + 7_200_000, null, bytes("too new")).build();
        Rejection rejection = validator.validate(batch, VERSION, LogConfig.defaults(), NOW_MS);
        assertThat(rejection.error()).isEqualTo(Errors.INVALID_TIMESTAMP);
        assertThat(rejection.recordErrors()).extracting(BatchIndexAndErrorMessage::batchIndex).containsExactly(1);
    }

    @Test
    void compressedRecordsThatDoNotInflateAreACorruptMessageEvenWithAValidCrc() {
        for (CompressionType compression : CompressionType.values()) {
            if (compression == CompressionType.NONE) {
                continue;
            }
            ByteBuffer batch = batch(compression).build();
            int records = batch.position() + RecordBatchLayout.RECORDS_OFFSET;
            for (int at = records; at < batch.limit(); at++) {
                batch.put(at, (byte) 0xFF);
            }
            if (compression == CompressionType.SNAPPY) {
                // xerial framing: magic header (16 bytes), then a chunk size of -1 (snappy-java throws an Error)
                batch.put(records, new byte[] {(byte) 0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0, 0, 0, 0, 1, 0, 0, 0, 1});
            }
            validator.batch().wrap(batch, batch.position());
            validator.batch().writeChecksum();
            assertThat(validate(batch)).as(compression.configName).isEqualTo(Errors.CORRUPT_MESSAGE);
        }
    }

    @Test
    void aRecordWhoseFieldsDoNotMatchItsLengthIsAnInvalidRecordAsInKafka() {
        for (CompressionType compression : new CompressionType[] {CompressionType.NONE, CompressionType.GZIP}) {
            // One record: length, attributes, timestamp delta, offset delta, key -1, value 1 byte, headers.
            for (byte headers : new byte[] {(byte) 0x65 /* -51 */, 2 /* one header, missing */}) {
                byte[] record = {0, 0, 0, 0, 1, 2, 'v', headers};
                record[0] = (byte) ((record.length - 1) << 1);
                ByteBuffer batch = new RecordBatchBuilder(compression).append(NOW_MS, null, bytes("v")).build();
                ByteBuffer damaged = withRecordsSection(batch, compression, record);
                assertThat(validate(damaged)).as("%s, header count byte %d", compression.configName, headers)
                        .isEqualTo(Errors.INVALID_RECORD);
            }
        }
    }

    @Test
    void recordsWhoseOffsetDeltasAreNotTheirIndexesAreInvalid() {
        // Found by the protocol fuzzer: a gzip/snappy batch whose third record said offset delta 48 was
        // stored, and consumers reading it jumped 46 offsets ahead, past the records that followed it.
        for (CompressionType compression : new CompressionType[] {CompressionType.NONE, CompressionType.GZIP}) {
            for (int[] deltas : new int[][] {{0, 1, 48}, {0, 2, 2}, {1, 0, 2}, {0, 0, 2}, {0, 1, -1}}) {
                ByteBuffer batch = threeRecords(compression);
                java.io.ByteArrayOutputStream records = new java.io.ByteArrayOutputStream();
                for (int delta : deltas) {
                    // length, attributes, timestamp delta, offset delta (zigzag), key -1, value 1 byte, no headers
                    byte[] record = {0, 0, 0, (byte) ((delta << 1) ^ (delta >> 31)), 1, 2, 'v', 0};
                    record[0] = (byte) ((record.length - 1) << 1);
                    records.writeBytes(record);
                }
                Rejection rejection = validator.validate(withRecordsSection(batch, compression, records.toByteArray()),
                        VERSION, LogConfig.defaults(), NOW_MS);
                assertThat(rejection).as("%s, deltas %s", compression.configName, java.util.Arrays.toString(deltas))
                        .isNotNull();
                assertThat(rejection.error()).isEqualTo(Errors.INVALID_RECORD);
                assertThat(rejection.message()).contains("offset delta");
            }
            // The same hand-written records with deltas 0, 1, 2 pass: only the deltas were wrong.
            ByteBuffer batch = threeRecords(compression);
            byte[] records = {14, 0, 0, 0, 1, 2, 'v', 0, 14, 0, 0, 2, 1, 2, 'v', 0, 14, 0, 0, 4, 1, 2, 'v', 0};
            assertThat(validate(withRecordsSection(batch, compression, records))).isEqualTo(Errors.NONE);
        }
    }

    private static ByteBuffer threeRecords(CompressionType compression) {
        return new RecordBatchBuilder(compression).append(NOW_MS, null, bytes("v")).append(NOW_MS, null, bytes("v"))
                .append(NOW_MS, null, bytes("v")).build();
    }

    /** The batch with its records section replaced by {@code record} (compressed like the batch), CRC fixed. */
    private ByteBuffer withRecordsSection(ByteBuffer batch, CompressionType compression, byte[] record) {
        byte[] section = record;
        if (compression != CompressionType.NONE) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            try (java.io.OutputStream gzip = new java.util.zip.GZIPOutputStream(out)) {
                gzip.write(record);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            section = out.toByteArray();
        }
        ByteBuffer damaged = ByteBuffer.allocate(RecordBatchLayout.RECORDS_OFFSET + section.length);
        damaged.put(batch.duplicate().limit(batch.position() + RecordBatchLayout.RECORDS_OFFSET)).put(section).flip();
        damaged.putInt(8, damaged.remaining() - 12);
        validator.batch().wrap(damaged, 0);
        validator.batch().writeChecksum();
        return damaged;
    }

    @Test
    void aSnappyChunkClaimingGigabytesIsRefusedWithoutAllocatingThem() {
        ByteBuffer batch = batch(CompressionType.SNAPPY).build();
        int records = batch.position() + RecordBatchLayout.RECORDS_OFFSET;
        // xerial header, then a 6-byte chunk whose raw block claims 0x7FFFFFFF inflated bytes
        byte[] chunk = {(byte) 0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0, 0, 0, 0, 1, 0, 0, 0, 1,
            0, 0, 0, 6, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07, 0};
        ByteBuffer damaged = ByteBuffer.allocate(RecordBatchLayout.RECORDS_OFFSET + chunk.length);
        damaged.put(batch.duplicate().limit(records)).put(chunk).flip();
        damaged.putInt(RecordBatchLayout.BATCH_LENGTH_OFFSET, damaged.remaining() - 12);
        validator.batch().wrap(damaged, 0);
        validator.batch().writeChecksum();
        Rejection rejection = validator.validate(damaged, VERSION, LogConfig.defaults(), NOW_MS);
        assertThat(rejection.error()).isEqualTo(Errors.CORRUPT_MESSAGE);
        assertThat(rejection.message()).contains("not a valid snappy block");
    }

    @Test
    void compactedTopicsNeedKeys() {
        LogConfig compacted = LogConfig.defaults().with(Map.of("cleanup.policy", "compact"));
        for (CompressionType compression : new CompressionType[] {CompressionType.NONE, CompressionType.GZIP}) {
            ByteBuffer batch = new RecordBatchBuilder(compression)
                    .append(NOW_MS, bytes("k"), bytes("v"))
                    .append(NOW_MS, null, bytes("no key")).build();
            Rejection rejection = validator.validate(batch, VERSION, compacted, NOW_MS);
            assertThat(rejection.error()).as(compression.configName).isEqualTo(Errors.INVALID_RECORD);
            assertThat(rejection.recordErrors()).extracting(BatchIndexAndErrorMessage::batchIndex).containsExactly(1);
            assertThat(validator.validate(batch, VERSION, LogConfig.defaults(), NOW_MS)).isNull();
        }
    }
}

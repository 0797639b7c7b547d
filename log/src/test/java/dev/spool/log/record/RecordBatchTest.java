package dev.spool.log.record;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;

class RecordBatchTest {
    private static ByteBuffer threeRecords() {
        return new RecordBatchBuilder(CompressionType.NONE).baseOffset(10)
                .append(100, "a".getBytes(), "1".getBytes())
                .append(300, null, null)
                .append(200, "c".getBytes(), "3".getBytes(), Header.of("x", "y".getBytes()))
                .build();
    }

    @Test
    void headerFieldsReadBackAsBuilt() {
        RecordBatch batch = new RecordBatch().wrap(threeRecords(), 0);
        assertThat(batch.baseOffset()).isEqualTo(10);
        assertThat(batch.lastOffsetDelta()).isEqualTo(2);
        assertThat(batch.lastOffset()).isEqualTo(12);
        assertThat(batch.recordCount()).isEqualTo(3);
        assertThat(batch.baseTimestamp()).isEqualTo(100);
        assertThat(batch.maxTimestamp()).isEqualTo(300);
        assertThat(batch.magic()).isEqualTo((byte) 2);
        assertThat(batch.producerId()).isEqualTo(-1);
        assertThat(batch.isLogAppendTime()).isFalse();
        assertThat(batch.validateForProduce()).isEqualTo(BatchValidation.VALID);
        assertThat(batch.records()).extracting(Record::offset).containsExactly(10L, 11L, 12L);
        assertThat(batch.records().get(1).key()).isNull();
        assertThat(batch.records().get(1).value()).isNull();
    }

    @Test
    void flippedBitInCrcRegionIsReportedAsCorruptCrc() {
        ByteBuffer buffer = threeRecords();
        buffer.put(buffer.limit() - 1, (byte) (buffer.get(buffer.limit() - 1) ^ 1));
        assertThat(new RecordBatch().wrap(buffer, 0).validate()).isEqualTo(BatchValidation.CORRUPT_CRC);
    }

    @Test
    void rewritingBaseOffsetAndEpochKeepsCrcValid() {
        ByteBuffer buffer = threeRecords();
        RecordBatch batch = new RecordBatch().wrap(buffer, 0);
        batch.setBaseOffset(1L << 40);
        batch.setPartitionLeaderEpoch(17);
        assertThat(batch.validate()).isEqualTo(BatchValidation.VALID);
        assertThat(batch.lastOffset()).isEqualTo((1L << 40) + 2);
    }

    @Test
    void shortBufferIsTruncatedAndBadMagicIsReported() {
        ByteBuffer buffer = threeRecords();
        ByteBuffer cut = buffer.duplicate().limit(buffer.limit() - 1);
        assertThat(new RecordBatch().wrap(cut, 0).validate()).isEqualTo(BatchValidation.TRUNCATED);
        assertThat(new RecordBatch().wrap(buffer.duplicate().limit(30), 0).validate())
                .isEqualTo(BatchValidation.TRUNCATED);
        buffer.put(RecordBatchLayout.MAGIC_OFFSET, (byte) 1);
        assertThat(new RecordBatch().wrap(buffer, 0).validate()).isEqualTo(BatchValidation.UNSUPPORTED_MAGIC);
        ByteBuffer small = threeRecords();
        small.putInt(RecordBatchLayout.BATCH_LENGTH_OFFSET, 10);
        assertThat(new RecordBatch().wrap(small, 0).validate()).isEqualTo(BatchValidation.INVALID_LENGTH);
    }

    @Test
    void inconsistentRecordCountFailsProduceValidationOnly() {
        ByteBuffer buffer = threeRecords();
        RecordBatch batch = new RecordBatch().wrap(buffer, 0);
        buffer.putInt(RecordBatchLayout.LAST_OFFSET_DELTA_OFFSET, 5);
        batch.writeChecksum();
        assertThat(batch.validate()).isEqualTo(BatchValidation.VALID);
        assertThat(batch.validateForProduce()).isEqualTo(BatchValidation.INVALID_RECORD_COUNT);
    }

    @Test
    void unknownCodecIsReported() {
        ByteBuffer buffer = threeRecords();
        RecordBatch batch = new RecordBatch().wrap(buffer, 0);
        buffer.putShort(RecordBatchLayout.ATTRIBUTES_OFFSET, (short) 6);
        batch.writeChecksum();
        assertThat(batch.validate()).isEqualTo(BatchValidation.UNSUPPORTED_COMPRESSION);
    }

    @Test
    void varintsRoundTripAtBoundaries() {
        ByteBuffer buffer = ByteBuffer.allocate(16);
        for (long v : new long[]{0, 1, -1, 63, -64, 64, Integer.MAX_VALUE, Integer.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE}) {
            buffer.clear();
            Varints.writeVarlong(buffer, v);
            assertThat(buffer.position()).isEqualTo(Varints.sizeOfVarlong(v));
            buffer.flip();
            assertThat(Varints.readVarlong(buffer)).isEqualTo(v);
            if (v == (int) v) {
                buffer.clear();
                Varints.writeVarint(buffer, (int) v);
                assertThat(buffer.position()).isEqualTo(Varints.sizeOfVarint((int) v));
                buffer.flip();
                assertThat(Varints.readVarint(buffer)).isEqualTo((int) v);
            }
        }
    }

    @Test
    void timestampsOutsideTheAllowedWindowAreReported() {
        for (CompressionType codec : CompressionType.values()) {
            RecordBatch batch = new RecordBatch().wrap(new RecordBatchBuilder(codec)
                    .append(1_000, null, "a".getBytes()).append(5_000, null, "b".getBytes()).build(), 0);
            assertThat(batch.validateTimestamps(3_000, 2_000, 2_000)).as(codec.configName).isEqualTo(BatchValidation.VALID);
            assertThat(batch.validateTimestamps(3_000, 1_999, 2_000)).as(codec.configName)
                    .isEqualTo(BatchValidation.INVALID_TIMESTAMP);
            assertThat(batch.validateTimestamps(3_000, 2_000, 1_999)).as(codec.configName)
                    .isEqualTo(BatchValidation.INVALID_TIMESTAMP);
            assertThat(batch.validateTimestamps(3_000, Long.MAX_VALUE, Long.MAX_VALUE)).isEqualTo(BatchValidation.VALID);
        }
    }

    @Test
    void recordLengthsPastTheBatchAreCorruptRecords() {
        ByteBuffer buffer = threeRecords();
        RecordBatch batch = new RecordBatch().wrap(buffer, 0);
        buffer.put(RecordBatchLayout.RECORDS_OFFSET, (byte) 0x7e); // first record length varint: 63 bytes
        batch.writeChecksum();
        assertThat(batch.validate()).isEqualTo(BatchValidation.VALID);
        assertThat(batch.validateTimestamps(100, Long.MAX_VALUE, Long.MAX_VALUE)).isEqualTo(BatchValidation.CORRUPT_RECORDS);
    }
}

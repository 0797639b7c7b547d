package dev.spool.broker.produce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.log.LogConfig;
import dev.spool.log.record.CompressionCodecs;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchBuilder;
import dev.spool.log.record.RecordBatchLayout;
import dev.spool.log.record.Varints;
import dev.spool.protocol.Errors;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Compressed batches whose records inflate to far more than they weigh, honest or lying: the
 * validator answers with the right error and the heap it allocates on this thread stays bounded
 * (measured with {@code ThreadMXBean#getCurrentThreadAllocatedBytes}; native codec memory is not
 * counted there, but zstd and zlib write into the validator's window, never a buffer of the
 * inflated size).
 */
class DecompressionBombTest {

    private static final long NOW_MS = 1_800_000_000_000L;
    private static final short VERSION = 9;
    private static final int MIB = 1024 * 1024;
    /** Window, codec buffers (lz4: two 64 KiB blocks; snappy: one 32 KiB chunk) and the answer. */
    private static final long ALLOCATION_BOUND_BYTES = 4L * MIB;

    private final ProduceBatchValidator validator = new ProduceBatchValidator();

    /** What the section writer writes, before compression. */
    private interface SectionWriter {
        void writeTo(OutputStream out) throws IOException;
    }

    /** Writes a record's value. */
    private interface ValueWriter {
        void write() throws IOException;
    }

    private record Outcome(Rejection rejection, long allocatedBytes) {
    }

    @ParameterizedTest
    @EnumSource(value = CompressionType.class, names = {"GZIP", "SNAPPY", "LZ4", "ZSTD"})
    void tenMegabytesOfZerosUnderALyingCountAreAnInvalidRecordAndNeverInflatedWhole(CompressionType codec)
            throws IOException {
        ByteBuffer bomb = batch(codec, 1, out -> writeZeros(out, 10L * MIB));
        assertThat(bomb.remaining()).as("compressed size").isLessThan(MIB);

        Outcome outcome = validate(bomb, LogConfig.defaults());

        assertThat(outcome.rejection()).isNotNull();
        assertThat(outcome.rejection().error()).isEqualTo(Errors.INVALID_RECORD);
        assertThat(outcome.allocatedBytes()).isLessThan(ALLOCATION_BOUND_BYTES);
    }

    @ParameterizedTest
    @EnumSource(value = CompressionType.class, names = {"GZIP", "SNAPPY", "LZ4", "ZSTD"})
    void aRecordClaimingAGigabyteIsTooLargeWithoutInflatingIt(CompressionType codec) throws IOException {
        ByteBuffer bomb = batch(codec, 1, out -> {
            writeVarint(out, 1 << 30); // the record's length
            writeZeros(out, 4096);
        });

        Outcome outcome = validate(bomb, LogConfig.defaults());

        assertThat(outcome.rejection().error()).isEqualTo(Errors.MESSAGE_TOO_LARGE);
        assertThat(outcome.rejection().message()).contains("announces " + (1 << 30) + " bytes");
        assertThat(outcome.allocatedBytes()).isLessThan(ALLOCATION_BOUND_BYTES);
    }

    @ParameterizedTest
    @EnumSource(value = CompressionType.class, names = {"GZIP", "LZ4", "ZSTD"})
    void aHundredHonestRecordsOfAMegabyteOfZerosAreTooLargeOnceTheLimitIsInflated(CompressionType codec)
            throws IOException {
        int valueBytes = MIB;
        ByteBuffer bomb = batch(codec, 100, out -> {
            for (int i = 0; i < 100; i++) {
                writeRecordHeader(out, i, valueBytes, () -> writeZeros(out, valueBytes));
            }
        });
        assertThat(bomb.remaining()).as("compressed size").isLessThan(MIB);

        Outcome outcome = validate(bomb, LogConfig.defaults());

        assertThat(outcome.rejection().error()).isEqualTo(Errors.MESSAGE_TOO_LARGE);
        // Record 63 is the first whose end lies past the limit: refused once 63 MiB were inflated.
        assertThat(outcome.rejection().message()).contains("Record 63 announces")
                .contains(ProduceBatchValidator.MIN_MAX_INFLATED_BYTES + " bytes");
        assertThat(outcome.allocatedBytes()).isLessThan(ALLOCATION_BOUND_BYTES);
    }

    @ParameterizedTest
    @EnumSource(value = CompressionType.class, names = {"GZIP", "LZ4", "ZSTD"})
    void seventyThousandSmallRecordsAreTooLargeWhenTheStreamReachesTheLimit(CompressionType codec) throws IOException {
        int records = 70_000;
        int valueBytes = 1000;
        ByteBuffer bomb = batch(codec, records, out -> {
            for (int i = 0; i < records; i++) {
                writeRecordHeader(out, i, valueBytes, () -> writeZeros(out, valueBytes));
            }
        });

        Outcome outcome = validate(bomb, LogConfig.defaults());

        assertThat(outcome.rejection().error()).isEqualTo(Errors.MESSAGE_TOO_LARGE);
        // The first record whose end lies past 64 MiB is refused, before it is inflated.
        long end = 0;
        int first = 0;
        int bodyBytes = 0;
        for (; end <= ProduceBatchValidator.MIN_MAX_INFLATED_BYTES; first++) {
            bodyBytes = 1 + 1 + Varints.sizeOfVarint(first) + 1 + Varints.sizeOfVarint(valueBytes) + valueBytes + 1;
            end += Varints.sizeOfVarint(bodyBytes) + bodyBytes;
        }
        assertThat(outcome.rejection().message()).contains("Record " + (first - 1) + " announces " + bodyBytes + " bytes")
                .contains(ProduceBatchValidator.MIN_MAX_INFLATED_BYTES + " bytes");
        assertThat(outcome.allocatedBytes()).isLessThan(ALLOCATION_BOUND_BYTES);
    }

    @Test
    void snappyCannotExceedTheRatioSoItsChunksAreSummedBeforeInflating() throws IOException {
        // snappy inflates at most ~21:1, below the ratio: only a section whose chunk headers lie could pass
        // the limit, and snappy's own validation refuses those (SnappyChunks).
        ByteBuffer honest = batch(CompressionType.SNAPPY, 1,
                out -> writeRecordHeader(out, 0, 8 * MIB, () -> writeZeros(out, 8 * MIB)));
        LogConfig largeBatches = LogConfig.defaults().with(Map.of("max.message.bytes", String.valueOf(16 * MIB)));
        Outcome outcome = validate(honest, largeBatches);
        assertThat(outcome.rejection()).isNull();
        assertThat(outcome.allocatedBytes()).isLessThan(ALLOCATION_BOUND_BYTES);
        assertThat(ProduceBatchValidator.maxInflatedBytes(honest.remaining())).isGreaterThan(8L * MIB);
    }

    @ParameterizedTest
    @EnumSource(value = CompressionType.class, names = {"GZIP", "SNAPPY", "LZ4", "ZSTD"})
    void aLegitimateBatchInflatingToTwentyMegabytesIsAcceptedInBoundedMemory(CompressionType codec) {
        RecordBatchBuilder builder = new RecordBatchBuilder(codec).producer(7L, (short) 0, 0);
        byte[] value = new byte[1000];
        for (int i = 0; i < 20_000; i++) {
            value[i % value.length] = (byte) i;
            builder.append(NOW_MS, ("key-" + i).getBytes(), value);
        }
        ByteBuffer batch = builder.build();
        assertThat(builder.uncompressedSizeInBytes()).isGreaterThan(20 * 1000 * 1000);
        LogConfig config = LogConfig.defaults().with(Map.of("max.message.bytes", String.valueOf(16 * MIB)));

        Outcome outcome = validate(batch, config);

        assertThat(outcome.rejection()).as(codec.configName).isNull();
        assertThat(validator.batch().recordCount()).isEqualTo(20_000);
        assertThat(outcome.allocatedBytes()).isLessThan(ALLOCATION_BOUND_BYTES);
    }

    @Test
    void theLimitGrowsWithTheCompressedSize() {
        assertThat(ProduceBatchValidator.maxInflatedBytes(1000)).isEqualTo(64L * MIB);
        assertThat(ProduceBatchValidator.maxInflatedBytes(10 * MIB)).isEqualTo(640L * MIB);
        assertThat(ProduceBatchValidator.maxInflatedBytes(Integer.MAX_VALUE)).isEqualTo(64L * Integer.MAX_VALUE);
    }

    private Outcome validate(ByteBuffer records, LogConfig config) {
        // A small batch of the same codec first: the reader's window and the codec's classes are loaded once.
        CompressionType codec = CompressionType.forId(records.getShort(RecordBatchLayout.ATTRIBUTES_OFFSET)
                & RecordBatchLayout.COMPRESSION_CODEC_MASK);
        assertThat(validator.validate(new RecordBatchBuilder(codec).append(NOW_MS, null, new byte[10]).build(),
                VERSION, config, NOW_MS)).isNull();
        long before = allocatedBytes();
        Rejection rejection = validator.validate(records, VERSION, config, NOW_MS);
        return new Outcome(rejection, allocatedBytes() - before);
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    /**
     * A batch whose header announces {@code recordCount} records and whose records section is what
     * {@code section} writes, compressed with {@code codec}; CRC and length right, so the validator has
     * to look inside.
     */
    private static ByteBuffer batch(CompressionType codec, int recordCount, SectionWriter section) {
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        try (OutputStream out = CompressionCodecs.wrapForOutput(codec, compressed)) {
            section.writeTo(out);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        ByteBuffer header = new RecordBatchBuilder(codec).producer(7L, (short) 0, 0)
                .append(NOW_MS, null, new byte[1]).build();
        ByteBuffer batch = ByteBuffer.allocate(RecordBatchLayout.RECORDS_OFFSET + compressed.size());
        batch.put(header.duplicate().limit(header.position() + RecordBatchLayout.RECORDS_OFFSET))
                .put(compressed.toByteArray()).flip();
        batch.putInt(RecordBatchLayout.BATCH_LENGTH_OFFSET, batch.remaining() - RecordBatchLayout.LOG_OVERHEAD_BYTES);
        batch.putInt(RecordBatchLayout.RECORD_COUNT_OFFSET, recordCount);
        batch.putInt(RecordBatchLayout.LAST_OFFSET_DELTA_OFFSET, recordCount - 1);
        new RecordBatch().wrap(batch, 0).writeChecksum();
        return batch;
    }

    /**
     * Record {@code index} of a batch, without key or headers, whose value of {@code valueBytes} the {@code value}
     * writer writes.
     */
    private static void writeRecordHeader(OutputStream out, int index, int valueBytes, ValueWriter value)
            throws IOException {
        // attributes, timestamp delta 0, offset delta = index, key -1, value length, value, no headers
        int bodyBytes = 1 + 1 + Varints.sizeOfVarint(index) + 1 + Varints.sizeOfVarint(valueBytes) + valueBytes + 1;
        writeVarint(out, bodyBytes);
        out.write(new byte[] {0, 0});
        writeVarint(out, index);
        out.write(1);
        writeVarint(out, valueBytes);
        value.write();
        out.write(0);
    }

    private static void writeVarint(OutputStream out, int value) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(5);
        Varints.writeVarint(bytes, value);
        out.write(bytes.array(), 0, bytes.position());
    }

    private static void writeZeros(OutputStream out, long bytes) throws IOException {
        byte[] zeros = new byte[64 * 1024];
        for (long left = bytes; left > 0; left -= zeros.length) {
            out.write(zeros, 0, (int) Math.min(zeros.length, left));
        }
    }
}

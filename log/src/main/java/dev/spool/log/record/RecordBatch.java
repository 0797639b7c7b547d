package dev.spool.log.record;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.zip.CRC32C;

import static dev.spool.log.record.RecordBatchLayout.*;

/**
 * Not thread-safe: a reusable flyweight over one record batch v2 inside a big-endian {@link ByteBuffer},
 * reading and rewriting header fields in place without copying (layout in {@link RecordBatchLayout}).
 *
 * <p>Wrap it over a batch with {@link #wrap(ByteBuffer, int)}; all positions are absolute, the
 * buffer's own position and limit are never changed. The batch must lie below the buffer's limit
 * for {@link #validate()} to pass.
 */
public final class RecordBatch {
    private final CRC32C crc = new CRC32C();
    private ByteBuffer buffer;
    private int start;

    /** Points this flyweight at the batch starting at absolute index {@code startIndex} of {@code buffer}. */
    public RecordBatch wrap(ByteBuffer buffer, int startIndex) {
        this.buffer = buffer;
        this.start = startIndex;
        return this;
    }

    /**
     * The total size in bytes of the batch starting at {@code startIndex}, read from its length field,
     * or -1 when fewer than {@link RecordBatchLayout#LOG_OVERHEAD_BYTES} bytes remain before the limit.
     */
    public static int sizeAt(ByteBuffer buffer, int startIndex) {
        if (buffer.limit() - startIndex < LOG_OVERHEAD_BYTES) {
            return -1;
        }
        return LOG_OVERHEAD_BYTES + buffer.getInt(startIndex + BATCH_LENGTH_OFFSET);
    }

    /**
     * How many bytes from the buffer's position up to its limit are whole batches: a fetch response may end
     * inside its last batch, whose part is left for the next fetch.
     */
    public static int wholeBatchesLength(ByteBuffer buffer) {
        int end = buffer.position();
        while (true) {
            int size = sizeAt(buffer, end);
            if (size < 0 || buffer.limit() - end < size) {
                return end - buffer.position();
            }
            end += size;
        }
    }

    /**
     * Whether the batch starting at {@code startIndex} names a codec other than none in its attributes;
     * false when the bytes before the limit end before its attributes.
     */
    public static boolean isCompressedAt(ByteBuffer buffer, int startIndex) {
        return buffer.limit() - startIndex >= ATTRIBUTES_OFFSET + Short.BYTES
                && (buffer.getShort(startIndex + ATTRIBUTES_OFFSET) & COMPRESSION_CODEC_MASK) != 0;
    }

    public ByteBuffer buffer() {
        return buffer;
    }

    /** Absolute index of the batch's first byte in {@link #buffer()}. */
    public int startIndex() {
        return start;
    }

    public int sizeInBytes() {
        return LOG_OVERHEAD_BYTES + batchLength();
    }

    public long baseOffset() {
        return buffer.getLong(start + BASE_OFFSET_OFFSET);
    }

    public int batchLength() {
        return buffer.getInt(start + BATCH_LENGTH_OFFSET);
    }

    public int partitionLeaderEpoch() {
        return buffer.getInt(start + PARTITION_LEADER_EPOCH_OFFSET);
    }

    public byte magic() {
        return buffer.get(start + MAGIC_OFFSET);
    }

    /** The stored CRC as an unsigned 32-bit value. */
    public long checksum() {
        return Integer.toUnsignedLong(buffer.getInt(start + CRC_OFFSET));
    }

    public short attributes() {
        return buffer.getShort(start + ATTRIBUTES_OFFSET);
    }

    public int lastOffsetDelta() {
        return buffer.getInt(start + LAST_OFFSET_DELTA_OFFSET);
    }

    public long lastOffset() {
        return baseOffset() + lastOffsetDelta();
    }

    public long nextOffset() {
        return lastOffset() + 1;
    }

    public long baseTimestamp() {
        return buffer.getLong(start + BASE_TIMESTAMP_OFFSET);
    }

    public long maxTimestamp() {
        return buffer.getLong(start + MAX_TIMESTAMP_OFFSET);
    }

    public long producerId() {
        return buffer.getLong(start + PRODUCER_ID_OFFSET);
    }

    public short producerEpoch() {
        return buffer.getShort(start + PRODUCER_EPOCH_OFFSET);
    }

    public int baseSequence() {
        return buffer.getInt(start + BASE_SEQUENCE_OFFSET);
    }

    public int recordCount() {
        return buffer.getInt(start + RECORD_COUNT_OFFSET);
    }

    /** The codec named by attribute bits 0-2, or null for the undefined ids 5-7. */
    public CompressionType compressionType() {
        return CompressionType.forId(attributes() & COMPRESSION_CODEC_MASK);
    }

    public boolean isLogAppendTime() {
        return (attributes() & TIMESTAMP_TYPE_MASK) != 0;
    }

    public boolean isTransactional() {
        return (attributes() & TRANSACTIONAL_FLAG_MASK) != 0;
    }

    public boolean isControl() {
        return (attributes() & CONTROL_FLAG_MASK) != 0;
    }

    /** Attribute bit 6 (KIP-534): the base timestamp holds the time after which the cleaner may drop tombstones. */
    public boolean hasDeleteHorizon() {
        return (attributes() & DELETE_HORIZON_FLAG_MASK) != 0;
    }

    /** The delete horizon in ms, or {@link RecordBatchLayout#NO_TIMESTAMP} if the batch has none. */
    public long deleteHorizonMs() {
        return hasDeleteHorizon() ? baseTimestamp() : NO_TIMESTAMP;
    }

    /** CRC-32C of bytes [21, end) as they are now. */
    public long computeChecksum() {
        ByteBuffer view = buffer.duplicate();
        view.limit(start + sizeInBytes()).position(start + CRC_START_OFFSET);
        crc.reset();
        crc.update(view);
        return crc.getValue();
    }

    /**
     * Structural checks, in the order a reader needs them: enough bytes for the header and for the
     * announced length, magic 2, CRC, a known codec, a non-negative record count. This is what
     * recovery applies to each batch on disk; it allows offset gaps left by compaction.
     */
    public BatchValidation validate() {
        int available = buffer.limit() - start;
        if (available < HEADER_SIZE_BYTES) {
            return BatchValidation.TRUNCATED;
        }
        int length = batchLength();
        if (length < HEADER_SIZE_BYTES - LOG_OVERHEAD_BYTES) {
            return BatchValidation.INVALID_LENGTH;
        }
        if (LOG_OVERHEAD_BYTES + (long) length > available) {
            return BatchValidation.TRUNCATED;
        }
        if (magic() != MAGIC_V2) {
            return BatchValidation.UNSUPPORTED_MAGIC;
        }
        if (computeChecksum() != checksum()) {
            return BatchValidation.CORRUPT_CRC;
        }
        if (compressionType() == null) {
            return BatchValidation.UNSUPPORTED_COMPRESSION;
        }
        if (recordCount() < 0 || lastOffsetDelta() < 0) {
            return BatchValidation.INVALID_RECORD_COUNT;
        }
        return BatchValidation.VALID;
    }

    /**
     * {@link #validate()} plus what a producer's batch must also satisfy: {@code lastOffsetDelta + 1 ==
     * recordCount > 0} (no gaps, not empty).
     */
    public BatchValidation validateForProduce() {
        BatchValidation structural = validate();
        if (!structural.isValid()) {
            return structural;
        }
        int count = recordCount();
        if (count <= 0 || lastOffsetDelta() + 1 != count) {
            return BatchValidation.INVALID_RECORD_COUNT;
        }
        return BatchValidation.VALID;
    }

    /**
     * KIP-937: every CreateTime record timestamp must lie in [now - beforeMaxMs, now + afterMaxMs].
     * Uncompressed batches are scanned in place without allocating; compressed ones are inflated (as
     * Kafka does to validate them). LogAppendTime batches pass: the broker stamps them. Call after
     * {@link #validate()} passed.
     */
    public BatchValidation validateTimestamps(long nowMs, long beforeMaxMs, long afterMaxMs) {
        if (isLogAppendTime()) {
            return BatchValidation.VALID;
        }
        long earliest = beforeMaxMs >= nowMs ? Long.MIN_VALUE : nowMs - beforeMaxMs;
        long latest = afterMaxMs > Long.MAX_VALUE - nowMs ? Long.MAX_VALUE : nowMs + afterMaxMs;
        if (compressionType() != CompressionType.NONE) {
            try {
                for (Record record : records()) {
                    if (record.timestamp() < earliest || record.timestamp() > latest) {
                        return BatchValidation.INVALID_TIMESTAMP;
                    }
                }
                return BatchValidation.VALID;
            } catch (CorruptRecordException e) {
                return BatchValidation.CORRUPT_RECORDS;
            }
        }
        ByteBuffer view = buffer.duplicate();
        int end = start + sizeInBytes();
        view.limit(end).position(start + RECORDS_OFFSET);
        long base = baseTimestamp();
        try {
            for (int i = recordCount(); i > 0; i--) {
                int length = Varints.readVarint(view);
                int bodyStart = view.position();
                view.get(); // attributes
                long timestamp = base + Varints.readVarlong(view);
                if (timestamp < earliest || timestamp > latest) {
                    return BatchValidation.INVALID_TIMESTAMP;
                }
                if (length < 0 || bodyStart + length > end) {
                    return BatchValidation.CORRUPT_RECORDS;
                }
                view.position(bodyStart + length);
            }
        } catch (BufferUnderflowException | CorruptRecordException e) {
            return BatchValidation.CORRUPT_RECORDS;
        }
        return view.position() == end ? BatchValidation.VALID : BatchValidation.CORRUPT_RECORDS;
    }

    /** Writes the base offset in place; outside the CRC, so the CRC stays valid. */
    public void setBaseOffset(long baseOffset) {
        buffer.putLong(start + BASE_OFFSET_OFFSET, baseOffset);
    }

    /** Writes the partition leader epoch in place; outside the CRC, so the CRC stays valid. */
    public void setPartitionLeaderEpoch(int epoch) {
        buffer.putInt(start + PARTITION_LEADER_EPOCH_OFFSET, epoch);
    }

    /**
     * Stamps the batch with the broker's time: sets the LogAppendTime attribute bit and the max
     * timestamp, then recomputes the CRC (both fields are covered by it).
     */
    public void setLogAppendTime(long appendTimeMs) {
        buffer.putShort(start + ATTRIBUTES_OFFSET, (short) (attributes() | TIMESTAMP_TYPE_MASK));
        buffer.putLong(start + MAX_TIMESTAMP_OFFSET, appendTimeMs);
        writeChecksum();
    }

    /** Recomputes the CRC over [21, end) and stores it. */
    public void writeChecksum() {
        buffer.putInt(start + CRC_OFFSET, (int) computeChecksum());
    }

    /**
     * Decodes every record of the batch, inflating it first if compressed. Allocates; meant for tools,
     * tests, compaction and the broker's recompression (compression.type), never the fetch path or an
     * append kept in the producer's codec.
     *
     * @throws CorruptRecordException if the records section does not decode to {@link #recordCount()} records
     */
    public List<Record> records() {
        CompressionType type = compressionType();
        if (type == null) {
            throw new CorruptRecordException("Unknown compression id " + (attributes() & COMPRESSION_CODEC_MASK)
                    + " in batch at base offset " + baseOffset());
        }
        ByteBuffer section = buffer.duplicate();
        section.limit(start + sizeInBytes()).position(start + RECORDS_OFFSET);
        ByteBuffer plain = type == CompressionType.NONE ? section.slice() : inflate(type, section);
        return RecordDecoder.decodeAll(plain, this);
    }

    private ByteBuffer inflate(CompressionType type, ByteBuffer compressed) {
        try (InputStream in = CompressionCodecs.wrapForInput(type, new ByteBufferInputStream(compressed))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, compressed.remaining() * 2));
            in.transferTo(out);
            return ByteBuffer.wrap(out.toByteArray());
        } catch (IOException e) {
            throw new CorruptRecordException("Cannot inflate " + type.configName + " batch at base offset "
                    + baseOffset() + " (" + compressed.remaining() + " compressed bytes)", e);
        }
    }

    @Override
    public String toString() {
        return "RecordBatch(baseOffset=" + baseOffset() + ", lastOffset=" + lastOffset() + ", size="
                + sizeInBytes() + ", count=" + recordCount() + ", compression=" + compressionType()
                + ", maxTimestamp=" + maxTimestamp() + ")";
    }
}

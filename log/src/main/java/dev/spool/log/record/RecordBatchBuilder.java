package dev.spool.log.record;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static dev.spool.log.record.RecordBatchLayout.*;

/**
 * Not thread-safe: writes one record batch v2, compressed or not, for tests, tools and compaction.
 * Records are encoded as they are appended (layout in {@link Record}); {@link #build()} compresses
 * them, writes the header ({@link RecordBatchLayout}) and the CRC.
 */
public final class RecordBatchBuilder {
    private final CompressionType compression;
    private int compressionLevel;
    private long baseOffset;
    private int partitionLeaderEpoch = NO_PARTITION_LEADER_EPOCH;
    private long producerId = NO_PRODUCER_ID;
    private short producerEpoch = NO_PRODUCER_EPOCH;
    private int baseSequence = NO_SEQUENCE;
    private boolean transactional;
    private boolean control;
    private long logAppendTimeMs = NO_TIMESTAMP;
    private boolean useLogAppendTime;
    private long deleteHorizonMs = NO_TIMESTAMP;
    private int minLastOffsetDelta = -1;

    private ByteBuffer records = ByteBuffer.allocate(256);
    private int recordCount;
    private int lastOffsetDelta = -1;
    private long baseTimestamp = NO_TIMESTAMP;
    private long maxTimestamp = NO_TIMESTAMP;

    public RecordBatchBuilder(CompressionType compression) {
        this.compression = compression;
        this.compressionLevel = CompressionCodecs.defaultLevel(compression);
    }

    /**
     * The level gzip, lz4 or zstd compresses at (see
     * {@link CompressionCodecs#wrapForOutput(CompressionType, int, java.io.OutputStream)}).
     */
    public RecordBatchBuilder compressionLevel(int level) {
        this.compressionLevel = level;
        return this;
    }

    public RecordBatchBuilder baseOffset(long offset) {
        if (recordCount > 0) {
            throw new IllegalStateException("Set the base offset before appending records");
        }
        this.baseOffset = offset;
        return this;
    }

    public RecordBatchBuilder partitionLeaderEpoch(int epoch) {
        this.partitionLeaderEpoch = epoch;
        return this;
    }

    public RecordBatchBuilder producer(long id, short epoch, int firstSequence) {
        this.producerId = id;
        this.producerEpoch = epoch;
        this.baseSequence = firstSequence;
        return this;
    }

    public RecordBatchBuilder transactional(boolean isTransactional) {
        this.transactional = isTransactional;
        return this;
    }

    public RecordBatchBuilder control(boolean isControl) {
        this.control = isControl;
        return this;
    }

    /** Marks the batch LogAppendTime: its max timestamp, and so every record's timestamp, becomes this. */
    public RecordBatchBuilder logAppendTime(long appendTimeMs) {
        this.useLogAppendTime = true;
        this.logAppendTimeMs = appendTimeMs;
        return this;
    }

    /**
     * KIP-534: sets attribute bit 6 and writes {@code horizonMs} as the base timestamp, to which record
     * timestamp deltas are then relative (they may be negative). Call before appending records.
     */
    public RecordBatchBuilder deleteHorizon(long horizonMs) {
        if (recordCount > 0) {
            throw new IllegalStateException("Set the delete horizon before appending records");
        }
        this.deleteHorizonMs = horizonMs;
        return this;
    }

    /**
     * Makes the batch's last offset at least {@code lastOffset} even if its last record is below it, as
     * compaction does to keep a producer's batch spanning the same offsets (and so the same sequences).
     */
    public RecordBatchBuilder lastOffsetAtLeast(long lastOffset) {
        long delta = lastOffset - baseOffset;
        if (delta < 0 || delta > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("Last offset " + lastOffset + " is outside the batch at base offset " + baseOffset);
        }
        this.minLastOffsetDelta = (int) delta;
        return this;
    }

    /** Appends a record at the next offset (base offset + records so far). Null key or value allowed. */
    public RecordBatchBuilder append(long timestampMs, byte[] key, byte[] value, Header... headers) {
        return appendWithOffset(baseOffset + lastOffsetDelta + 1, timestampMs,
                key == null ? null : ByteBuffer.wrap(key), value == null ? null : ByteBuffer.wrap(value),
                Arrays.asList(headers));
    }

    /**
     * Appends a record with an explicit absolute offset, which must be above the previous record's (gaps
     * are allowed, as compaction leaves them).
     */
    public RecordBatchBuilder appendWithOffset(long offset, long timestampMs, ByteBuffer key, ByteBuffer value,
                                               List<Header> headers) {
        long delta = offset - baseOffset;
        if (delta <= lastOffsetDelta || delta > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("Offset " + offset + " does not follow offset "
                    + (baseOffset + lastOffsetDelta) + " in batch with base offset " + baseOffset);
        }
        if (recordCount == 0) {
            baseTimestamp = deleteHorizonMs != NO_TIMESTAMP ? deleteHorizonMs : timestampMs;
        }
        long timestampDelta = timestampMs - baseTimestamp;
        int bodySize = bodySize((int) delta, timestampDelta, key, value, headers);
        ensureCapacity(Varints.sizeOfVarint(bodySize) + bodySize);
        Varints.writeVarint(records, bodySize);
        records.put((byte) 0);
        Varints.writeVarlong(records, timestampDelta);
        Varints.writeVarint(records, (int) delta);
        writeBytes(key);
        writeBytes(value);
        Varints.writeVarint(records, headers.size());
        for (Header header : headers) {
            writeBytes(ByteBuffer.wrap(header.key().getBytes(StandardCharsets.UTF_8)));
            writeBytes(header.value());
        }
        recordCount++;
        lastOffsetDelta = (int) delta;
        maxTimestamp = Math.max(maxTimestamp, timestampMs);
        return this;
    }

    public int recordCount() {
        return recordCount;
    }

    /** Uncompressed size of the batch so far: header plus encoded records. */
    public int uncompressedSizeInBytes() {
        return HEADER_SIZE_BYTES + records.position();
    }

    /** Writes the batch into a new heap buffer, position 0 and limit at its end. */
    public ByteBuffer build() {
        if (recordCount == 0) {
            throw new IllegalStateException("A batch needs at least one record");
        }
        ByteBuffer body = compressedRecords();
        ByteBuffer batch = ByteBuffer.allocate(HEADER_SIZE_BYTES + body.remaining());
        int attributes = compression.id
                | (deleteHorizonMs != NO_TIMESTAMP ? DELETE_HORIZON_FLAG_MASK : 0)
                | (useLogAppendTime ? TIMESTAMP_TYPE_MASK : 0)
                | (transactional ? TRANSACTIONAL_FLAG_MASK : 0)
                | (control ? CONTROL_FLAG_MASK : 0);
        batch.putLong(BASE_OFFSET_OFFSET, baseOffset)
                .putInt(BATCH_LENGTH_OFFSET, batch.capacity() - LOG_OVERHEAD_BYTES)
                .putInt(PARTITION_LEADER_EPOCH_OFFSET, partitionLeaderEpoch)
                .put(MAGIC_OFFSET, MAGIC_V2)
                .putShort(ATTRIBUTES_OFFSET, (short) attributes)
                .putInt(LAST_OFFSET_DELTA_OFFSET, Math.max(lastOffsetDelta, minLastOffsetDelta))
                .putLong(BASE_TIMESTAMP_OFFSET, baseTimestamp)
                .putLong(MAX_TIMESTAMP_OFFSET, useLogAppendTime ? logAppendTimeMs : maxTimestamp)
                .putLong(PRODUCER_ID_OFFSET, producerId)
                .putShort(PRODUCER_EPOCH_OFFSET, producerEpoch)
                .putInt(BASE_SEQUENCE_OFFSET, baseSequence)
                .putInt(RECORD_COUNT_OFFSET, recordCount);
        batch.position(RECORDS_OFFSET);
        batch.put(body);
        batch.flip();
        new RecordBatch().wrap(batch, 0).writeChecksum();
        return batch;
    }

    private ByteBuffer compressedRecords() {
        ByteBuffer plain = records.duplicate().flip();
        if (compression == CompressionType.NONE) {
            return plain;
        }
        ByteArrayOutputStream sink = new ByteArrayOutputStream(Math.max(64, plain.remaining() / 2));
        try (OutputStream out = CompressionCodecs.wrapForOutput(compression, compressionLevel, sink)) {
            out.write(plain.array(), plain.arrayOffset(), plain.remaining());
        } catch (IOException e) {
            throw new IllegalStateException("Cannot compress " + plain.remaining() + " bytes with "
                    + compression.configName, e);
        }
        return ByteBuffer.wrap(sink.toByteArray());
    }

    private static int bodySize(int offsetDelta, long timestampDelta, ByteBuffer key, ByteBuffer value,
                                List<Header> headers) {
        int size = 1 + Varints.sizeOfVarlong(timestampDelta) + Varints.sizeOfVarint(offsetDelta)
                + sizeOfBytes(key) + sizeOfBytes(value) + Varints.sizeOfVarint(headers.size());
        for (Header header : headers) {
            int keyBytes = header.key().getBytes(StandardCharsets.UTF_8).length;
            size += Varints.sizeOfVarint(keyBytes) + keyBytes + sizeOfBytes(header.value());
        }
        return size;
    }

    private static int sizeOfBytes(ByteBuffer bytes) {
        if (bytes == null) {
            return Varints.sizeOfVarint(-1);
        }
        return Varints.sizeOfVarint(bytes.remaining()) + bytes.remaining();
    }

    private void writeBytes(ByteBuffer bytes) {
        if (bytes == null) {
            Varints.writeVarint(records, -1);
            return;
        }
        Varints.writeVarint(records, bytes.remaining());
        records.put(bytes.duplicate());
    }

    private void ensureCapacity(int extraBytes) {
        if (records.remaining() < extraBytes) {
            int capacity = Math.max(records.capacity() * 2, records.position() + extraBytes);
            ByteBuffer bigger = ByteBuffer.allocate(capacity);
            records.flip();
            bigger.put(records);
            records = bigger;
        }
    }
}

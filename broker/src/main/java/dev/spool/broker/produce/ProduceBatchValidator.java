package dev.spool.broker.produce;

import dev.spool.log.LogConfig;
import dev.spool.log.record.BatchValidation;
import dev.spool.log.record.CompressionCodecs;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.CorruptRecordException;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchLayout;
import dev.spool.log.record.Varints;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ProduceResponseData.BatchIndexAndErrorMessage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Not thread-safe: owned by one partition's append queue (it reuses a {@link RecordBatch} flyweight).
 * Checks the records a client sent for one partition before they are appended, in Kafka's order and
 * with Kafka's error codes:
 *
 * <ol>
 *   <li>exactly one batch (Produce v3+), magic 2 ({@code INVALID_RECORD}); zstd only from Produce v7
 *       ({@code UNSUPPORTED_COMPRESSION_TYPE});</li>
 *   <li>base offset 0 ({@code INVALID_RECORD}); batch size at most {@code max.message.bytes}
 *       ({@code MESSAGE_TOO_LARGE}); CRC and structure ({@code CORRUPT_MESSAGE}); at most
 *       {@code segment.bytes} ({@code RECORD_LIST_TOO_LARGE});</li>
 *   <li>{@code lastOffsetDelta + 1 == recordCount > 0}, no control batch, a sequence with a producer
 *       id ({@code INVALID_RECORD});</li>
 *   <li>per record: fields that decode and end where the record's length says
 *       ({@code CORRUPT_MESSAGE}); offset delta equal to the record's index ({@code INVALID_RECORD});
 *       timestamps within {@code message.timestamp.before.max.ms} / {@code after.max.ms} of now under
 *       CreateTime ({@code INVALID_TIMESTAMP}), a key on compacted topics ({@code INVALID_RECORD}), each
 *       with its record index (KIP-467).</li>
 * </ol>
 *
 * <p>Design note: an uncompressed batch's records are walked in place, allocating nothing; a
 * compressed batch is always inflated and walked. Offset deltas that are not 0, 1, 2... are refused
 * rather than rewritten: consumers compute each record's offset from its delta, so a batch of three
 * records whose last delta is 48 makes them skip the next 46 offsets of the log. Kafka rebuilds such a
 * compressed batch with consecutive offsets (recompressing it) and stores an uncompressed one as it
 * came; no client writes such batches.
 */
public final class ProduceBatchValidator {

    /** The first Produce version allowed to carry zstd batches (KIP-110). */
    static final short ZSTD_MIN_PRODUCE_VERSION = 7;

    private static final String ONE_BATCH =
            "Produce requests of version 3 and later must carry exactly one record batch per partition";

    private final RecordBatch batch = new RecordBatch();

    /** The flyweight over the batch last validated; valid until the next call. */
    public RecordBatch batch() {
        return batch;
    }

    /**
     * Validates {@code records} (position to limit) for an append at {@code nowMs}; returns null when
     * it may be appended, with {@link #batch()} over its single batch.
     */
    public Rejection validate(ByteBuffer records, short produceVersion, LogConfig config, long nowMs) {
        int start = records.position();
        if (!records.hasRemaining()) {
            return Rejection.of(Errors.INVALID_RECORD, ONE_BATCH);
        }
        int size = RecordBatch.sizeAt(records, start);
        if (size < 0 || records.remaining() <= RecordBatchLayout.MAGIC_OFFSET) {
            return Rejection.of(Errors.CORRUPT_MESSAGE, "The " + records.remaining()
                    + " bytes of records do not hold a record batch header");
        }
        byte magic = records.get(start + RecordBatchLayout.MAGIC_OFFSET);
        if (magic != RecordBatchLayout.MAGIC_V2) {
            return Rejection.of(Errors.INVALID_RECORD,
                    "Produce requests of version 3 and later need magic 2 batches, got magic " + magic);
        }
        if (size < RecordBatchLayout.HEADER_SIZE_BYTES || start + (long) size > records.limit()) {
            return Rejection.of(Errors.CORRUPT_MESSAGE, "The " + records.remaining()
                    + " bytes of records do not hold the whole batch of " + size + " bytes it announces");
        }
        if (start + size < records.limit()) {
            return Rejection.of(Errors.INVALID_RECORD, ONE_BATCH);
        }
        batch.wrap(records, start);
        CompressionType compression = batch.compressionType();
        if (compression == CompressionType.ZSTD && produceVersion < ZSTD_MIN_PRODUCE_VERSION) {
            return Rejection.of(Errors.UNSUPPORTED_COMPRESSION_TYPE,
                    "Produce requests with zstd batches need version 7 or later, got version " + produceVersion);
        }
        if (batch.baseOffset() != 0) {
            return Rejection.of(Errors.INVALID_RECORD, "The base offset of a produced batch must be 0, got "
                    + batch.baseOffset());
        }
        if (size > config.maxMessageBytes) {
            return Rejection.of(Errors.MESSAGE_TOO_LARGE, "The batch of " + size
                    + " bytes is larger than max.message.bytes = " + config.maxMessageBytes);
        }
        BatchValidation validation = batch.validate();
        if (validation == BatchValidation.UNSUPPORTED_COMPRESSION) {
            return Rejection.of(Errors.UNSUPPORTED_COMPRESSION_TYPE, "Unknown compression codec id "
                    + (batch.attributes() & RecordBatchLayout.COMPRESSION_CODEC_MASK));
        }
        if (!validation.isValid() && validation != BatchValidation.INVALID_RECORD_COUNT) {
            return Rejection.of(Errors.CORRUPT_MESSAGE, "Record batch is corrupt: " + validation);
        }
        if (size > config.segmentBytes) {
            return Rejection.of(Errors.RECORD_LIST_TOO_LARGE, "The batch of " + size
                    + " bytes is larger than segment.bytes = " + config.segmentBytes);
        }
        int count = batch.recordCount();
        if (count <= 0 || batch.lastOffsetDelta() + 1 != count) {
            return Rejection.of(Errors.INVALID_RECORD, "Record count " + count + " and last offset delta "
                    + batch.lastOffsetDelta() + " do not agree");
        }
        if (batch.isControl()) {
            return Rejection.of(Errors.INVALID_RECORD, "Clients may not write control batches");
        }
        if (batch.producerId() != RecordBatchLayout.NO_PRODUCER_ID && batch.baseSequence() < 0) {
            return Rejection.of(Errors.INVALID_RECORD, "Base sequence " + batch.baseSequence()
                    + " is invalid for producer id " + batch.producerId());
        }
        return validateRecords(config, nowMs, compression);
    }

    private Rejection validateRecords(LogConfig config, long nowMs, CompressionType compression) {
        boolean checkTimestamps = !config.logAppendTime;
        long lowestMs = config.messageTimestampBeforeMaxMs == Long.MAX_VALUE ? Long.MIN_VALUE
                : nowMs - config.messageTimestampBeforeMaxMs;
        long highestMs = nowMs > Long.MAX_VALUE - config.messageTimestampAfterMaxMs ? Long.MAX_VALUE
                : nowMs + config.messageTimestampAfterMaxMs;
        ByteBuffer plain;
        if (compression == CompressionType.NONE) {
            plain = batch.buffer().duplicate();
            plain.limit(batch.startIndex() + batch.sizeInBytes()).position(batch.startIndex() + RecordBatchLayout.RECORDS_OFFSET);
        } else {
            // Always inflated, as Kafka does: a compressed batch whose CRC holds may still carry records
            // that do not decode, which every consumer would then fail on.
            try {
                plain = inflate(compression);
            } catch (IOException | RuntimeException | org.xerial.snappy.SnappyError e) {
                // snappy-java reports a damaged stream with an Error (bad chunk sizes), not an IOException.
                return Rejection.of(Errors.CORRUPT_MESSAGE, "Cannot inflate the " + compression.configName
                        + " batch: " + e.getMessage());
            }
        }
        try {
            return walk(plain, config.compact, checkTimestamps, lowestMs, highestMs);
        } catch (CorruptRecordException | BufferUnderflowException | IllegalArgumentException e) {
            return Rejection.of(Errors.CORRUPT_MESSAGE, "Records of the batch do not decode: " + e);
        }
    }

    /** Walks the records section without allocating unless a record is bad. */
    private Rejection walk(ByteBuffer plain, boolean keysRequired, boolean checkTimestamps, long lowestMs,
                           long highestMs) {
        int count = batch.recordCount();
        long baseTimestamp = batch.baseTimestamp();
        List<BatchIndexAndErrorMessage> recordErrors = null;
        boolean timestampError = false;
        for (int index = 0; index < count; index++) {
            int length = Varints.readVarint(plain);
            int recordStart = plain.position();
            if (length < 0 || recordStart + length > plain.limit()) {
                return Rejection.of(Errors.CORRUPT_MESSAGE, "Record " + index + " announces " + length
                        + " bytes, beyond the end of its batch");
            }
            plain.get(); // attributes, unused in v2
            long timestampMs = baseTimestamp + Varints.readVarlong(plain);
            int offsetDelta = Varints.readVarint(plain);
            if (offsetDelta != index) {
                // Consumers take a record's offset from its delta: a gap or a jump would make them skip
                // the records of later batches up to it.
                return Rejection.of(Errors.INVALID_RECORD, "Record " + index + " has offset delta " + offsetDelta
                        + "; the records of a produced batch must have offset deltas 0, 1, 2...");
            }
            int keyLength = Varints.readVarint(plain);
            String malformed = malformedRecordBody(plain, keyLength, recordStart + length);
            if (malformed != null) {
                return Rejection.of(Errors.CORRUPT_MESSAGE, "Record " + index + " is malformed: " + malformed);
            }
            String problem = null;
            if (checkTimestamps && (timestampMs < lowestMs || timestampMs > highestMs)) {
                problem = "Timestamp " + timestampMs + " of record " + index + " is outside ["
                        + lowestMs + ", " + highestMs + "], the range message.timestamp.before.max.ms and "
                        + "message.timestamp.after.max.ms allow";
                timestampError = true;
            } else if (keysRequired && keyLength < 0) {
                problem = "Compacted topics need a key on every record; record " + index + " has none";
            }
            if (problem != null) {
                if (recordErrors == null) {
                    recordErrors = new ArrayList<>();
                }
                recordErrors.add(new BatchIndexAndErrorMessage().setBatchIndex(index).setBatchIndexErrorMessage(problem));
            }
            plain.position(recordStart + length);
        }
        if (plain.hasRemaining()) {
            return Rejection.of(Errors.CORRUPT_MESSAGE, plain.remaining() + " bytes follow the last of the "
                    + count + " records the batch announces");
        }
        if (recordErrors == null) {
            return null;
        }
        return timestampError
                ? new Rejection(Errors.INVALID_TIMESTAMP, "One or more records have an invalid timestamp", recordErrors)
                : new Rejection(Errors.INVALID_RECORD, "One or more records have no key, which compacted topics need",
                        recordErrors);
    }

    /**
     * Reads the rest of a record after its key length, as every consumer will: key, value, header count
     * and headers must fit and end exactly where the record's length says. Returns what is wrong, or null.
     * Allocates nothing unless the record is malformed.
     */
    private static String malformedRecordBody(ByteBuffer plain, int keyLength, int recordEnd) {
        if (!skip(plain, keyLength, recordEnd)) {
            return "key of " + keyLength + " bytes";
        }
        int valueLength = Varints.readVarint(plain);
        if (!skip(plain, valueLength, recordEnd)) {
            return "value of " + valueLength + " bytes";
        }
        int headers = Varints.readVarint(plain);
        if (headers < 0) {
            return headers + " headers";
        }
        for (int header = 0; header < headers; header++) {
            int headerKeyLength = Varints.readVarint(plain);
            if (headerKeyLength < 0 || !skip(plain, headerKeyLength, recordEnd)) {
                return "header key of " + headerKeyLength + " bytes";
            }
            int headerValueLength = Varints.readVarint(plain);
            if (!skip(plain, headerValueLength, recordEnd)) {
                return "header value of " + headerValueLength + " bytes";
            }
        }
        return plain.position() == recordEnd ? null
                : "its fields end at " + plain.position() + ", its length says " + recordEnd;
    }

    /** Skips a nullable field of {@code length} bytes (-1 is null) if it ends by {@code end}. */
    private static boolean skip(ByteBuffer plain, int length, int end) {
        if (length < -1 || length > end - plain.position()) {
            return false;
        }
        if (length > 0) {
            plain.position(plain.position() + length);
        }
        return true;
    }

    private ByteBuffer inflate(CompressionType compression) throws IOException {
        int sectionStart = batch.startIndex() + RecordBatchLayout.RECORDS_OFFSET;
        int sectionLength = batch.sizeInBytes() - RecordBatchLayout.RECORDS_OFFSET;
        byte[] compressed = new byte[sectionLength];
        batch.buffer().get(sectionStart, compressed);
        if (compression == CompressionType.SNAPPY) {
            String invalid = SnappyChunks.invalidChunk(compressed);
            if (invalid != null) {
                throw new IOException(invalid);
            }
        }
        try (InputStream in = CompressionCodecs.wrapForInput(compression, new ByteArrayInputStream(compressed))) {
            return ByteBuffer.wrap(in.readAllBytes());
        }
    }
}

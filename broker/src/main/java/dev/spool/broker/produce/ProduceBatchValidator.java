package dev.spool.broker.produce;

import dev.spool.log.LogConfig;
import dev.spool.log.record.BatchValidation;
import dev.spool.log.record.CompressionCodecs;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.CorruptRecordException;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchLayout;
import dev.spool.log.record.ByteBufferInputStream;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ProduceResponseData.BatchIndexAndErrorMessage;
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
 *   <li>every record decodes to its end, {@code recordCount} of them and nothing after
 *       ({@code INVALID_RECORD}, as Kafka); a compressed batch inflates ({@code CORRUPT_MESSAGE}) to
 *       no more than {@link #maxInflatedBytes(int)} ({@code MESSAGE_TOO_LARGE});</li>
 *   <li>per record: offset delta equal to the record's index ({@code INVALID_RECORD}); timestamps within
 *       {@code message.timestamp.before.max.ms} / {@code after.max.ms} of now under CreateTime
 *       ({@code INVALID_TIMESTAMP}), a key on compacted topics ({@code INVALID_RECORD}), each with its
 *       record index (KIP-467).</li>
 * </ol>
 *
 * <p>Design note: an uncompressed batch's records are walked in place, allocating nothing. A
 * compressed batch is always inflated, but streamed: {@link RecordSectionReader} holds a fixed window
 * of the inflated records, so neither a record count nor a length nor the codec's claimed size decides
 * what is allocated; per batch, only the codec's stream is (snappy-java's holds one chunk, whose
 * inflated length is checked first). Offset deltas that are not 0, 1, 2... are refused rather than
 * rewritten: consumers compute each record's offset from its delta, so a batch of three records whose
 * last delta is 48 makes them skip the next 46 offsets of the log. Kafka rebuilds such a compressed
 * batch with consecutive offsets (recompressing it) and stores an uncompressed one as it came; no
 * client writes such batches.
 */
public final class ProduceBatchValidator {

    /** The first Produce version allowed to carry zstd batches (KIP-110). */
    static final short ZSTD_MIN_PRODUCE_VERSION = 7;

    private static final String ONE_BATCH =
            "Produce requests of version 3 and later must carry exactly one record batch per partition";

    /**
     * A compressed batch may inflate to {@link #INFLATION_RATIO} times its compressed size, or to
     * {@link #MIN_MAX_INFLATED_BYTES}, whichever is more; beyond that it is MESSAGE_TOO_LARGE. Design note:
     * memory does not depend on these (the records are streamed through a fixed window); they bound the
     * work one request can ask for, which Kafka does not bound at all. 64 MiB is 64 times Kafka's default
     * {@code message.max.bytes} and 4096 times the Java producer's default {@code batch.size}; librdkafka
     * bounds a batch by its {@code batch.size} (1 MB) before compression. Kafka's Java producer, which
     * sizes batches by an estimated compression ratio, splits a batch answered MESSAGE_TOO_LARGE and
     * starts over from a ratio of 1, so even a client with extremely compressible data recovers. The ratio
     * keeps large batches on topics with a larger {@code max.message.bytes} acceptable: 64:1 is beyond what
     * real data compresses to (text and JSON: about 3:1 to 20:1), while zeros reach 1000:1 under gzip and
     * more under zstd.
     */
    static final long MIN_MAX_INFLATED_BYTES = 64L * 1024 * 1024;
    static final int INFLATION_RATIO = 64;

    private final RecordBatch batch = new RecordBatch();
    private final RecordSectionReader section = new RecordSectionReader();

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
        Rejection tooLarge = aboveMaxMessageBytes(size, config);
        if (tooLarge != null) {
            return tooLarge;
        }
        BatchValidation validation = batch.validate();
        if (validation == BatchValidation.UNSUPPORTED_COMPRESSION) {
            return Rejection.of(Errors.UNSUPPORTED_COMPRESSION_TYPE, "Unknown compression codec id "
                    + (batch.attributes() & RecordBatchLayout.COMPRESSION_CODEC_MASK));
        }
        if (!validation.isValid() && validation != BatchValidation.INVALID_RECORD_COUNT) {
            return Rejection.of(Errors.CORRUPT_MESSAGE, "Record batch is corrupt: " + validation);
        }
        Rejection tooLargeForSegment = aboveSegmentBytes(size, config);
        if (tooLargeForSegment != null) {
            return tooLargeForSegment;
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

    /** Whether a batch of {@code size} bytes may be stored under {@code config}: null, or why not. */
    static Rejection checkSize(int size, LogConfig config) {
        Rejection tooLarge = aboveMaxMessageBytes(size, config);
        return tooLarge != null ? tooLarge : aboveSegmentBytes(size, config);
    }

    private static Rejection aboveMaxMessageBytes(int size, LogConfig config) {
        return size <= config.maxMessageBytes ? null : Rejection.of(Errors.MESSAGE_TOO_LARGE, "The batch of " + size
                + " bytes is larger than max.message.bytes = " + config.maxMessageBytes);
    }

    private static Rejection aboveSegmentBytes(int size, LogConfig config) {
        return size <= config.segmentBytes ? null : Rejection.of(Errors.RECORD_LIST_TOO_LARGE, "The batch of " + size
                + " bytes is larger than segment.bytes = " + config.segmentBytes);
    }

    private Rejection validateRecords(LogConfig config, long nowMs, CompressionType compression) {
        boolean checkTimestamps = !config.logAppendTime;
        long lowestMs = config.messageTimestampBeforeMaxMs == Long.MAX_VALUE ? Long.MIN_VALUE
                : nowMs - config.messageTimestampBeforeMaxMs;
        long highestMs = nowMs > Long.MAX_VALUE - config.messageTimestampAfterMaxMs ? Long.MAX_VALUE
                : nowMs + config.messageTimestampAfterMaxMs;
        int sectionStart = batch.startIndex() + RecordBatchLayout.RECORDS_OFFSET;
        int sectionEnd = batch.startIndex() + batch.sizeInBytes();
        if (compression == CompressionType.NONE) {
            section.wrap(batch.buffer(), sectionStart, sectionEnd);
            try {
                return walkOrReject(compression, config.compact, checkTimestamps, lowestMs, highestMs);
            } catch (IOException e) {
                throw new IllegalStateException("An in-place records section does no I/O", e);
            }
        }
        // Always inflated, as Kafka does: a compressed batch whose CRC holds may still carry records that
        // do not decode, which every consumer would then fail on. Streamed through the reader's window,
        // never inflated whole: what the batch claims or holds inflated does not decide what is allocated.
        long maxInflatedBytes = maxInflatedBytes(sectionEnd - sectionStart);
        ByteBuffer compressed = batch.buffer().duplicate();
        compressed.limit(sectionEnd).position(sectionStart);
        try {
            if (compression == CompressionType.SNAPPY) {
                Rejection refused = checkSnappyChunks(compressed, maxInflatedBytes);
                if (refused != null) {
                    return refused;
                }
            }
            try (InputStream in = CompressionCodecs.wrapForInput(compression, new ByteBufferInputStream(compressed))) {
                section.wrap(in, maxInflatedBytes);
                return walkOrReject(compression, config.compact, checkTimestamps, lowestMs, highestMs);
            }
        } catch (IOException | RuntimeException | org.xerial.snappy.SnappyError e) {
            // snappy-java reports a damaged stream with an Error (bad chunk sizes), not an IOException.
            return Rejection.of(Errors.CORRUPT_MESSAGE, "Cannot inflate the " + compression.configName
                    + " batch: " + e.getMessage());
        }
    }

    /**
     * The most a compressed section of {@code compressedBytes} may inflate to: {@link #INFLATION_RATIO}
     * times its size, and never less than {@link #MIN_MAX_INFLATED_BYTES}.
     */
    static long maxInflatedBytes(int compressedBytes) {
        return Math.max(MIN_MAX_INFLATED_BYTES, (long) INFLATION_RATIO * compressedBytes);
    }

    /** snappy-java allocates each chunk's inflated length at once: checked, and summed against the limit. */
    private static Rejection checkSnappyChunks(ByteBuffer compressed, long maxInflatedBytes) throws IOException {
        byte[] bytes = new byte[compressed.remaining()];
        compressed.duplicate().get(bytes);
        String invalid = SnappyChunks.invalidChunk(bytes);
        if (invalid != null) {
            return Rejection.of(Errors.CORRUPT_MESSAGE, "Cannot inflate the snappy batch: " + invalid);
        }
        long inflated = SnappyChunks.inflatedBytes(bytes);
        return inflated <= maxInflatedBytes ? null : tooLarge(inflated + " bytes", maxInflatedBytes);
    }

    private static Rejection tooLarge(String inflated, long maxInflatedBytes) {
        return Rejection.of(Errors.MESSAGE_TOO_LARGE, "The records of the batch inflate to " + inflated
                + ", more than the " + maxInflatedBytes + " bytes a batch of its compressed size may inflate to");
    }

    /**
     * Walks the records; a walk that ran into the inflation limit is MESSAGE_TOO_LARGE whatever broke
     * first, records that do not decode are INVALID_RECORD (Kafka's answer for a batch whose records do
     * not match its count and lengths), a stream the codec cannot inflate CORRUPT_MESSAGE.
     */
    private Rejection walkOrReject(CompressionType compression, boolean keysRequired, boolean checkTimestamps,
                                   long lowestMs, long highestMs) throws IOException {
        Rejection rejection;
        try {
            rejection = walk(keysRequired, checkTimestamps, lowestMs, highestMs);
        } catch (CorruptRecordException | BufferUnderflowException | IllegalArgumentException e) {
            rejection = Rejection.of(Errors.INVALID_RECORD, "Records of the batch do not decode: " + e);
        } catch (IOException e) {
            if (!section.exceededLimit()) {
                throw e;
            }
            rejection = null;
        }
        if (section.exceededLimit()) {
            return tooLarge("more than " + section.limit() + " bytes (" + compression.configName + ")",
                    section.limit());
        }
        return rejection;
    }

    /** Walks the records section without allocating unless a record is bad. */
    private Rejection walk(boolean keysRequired, boolean checkTimestamps, long lowestMs, long highestMs)
            throws IOException {
        RecordSectionReader plain = section;
        int count = batch.recordCount();
        long baseTimestamp = batch.baseTimestamp();
        List<BatchIndexAndErrorMessage> recordErrors = null;
        boolean timestampError = false;
        for (int index = 0; index < count; index++) {
            int length = plain.readVarint();
            long recordStart = plain.position();
            if (length < 0 || recordStart + length > plain.limit()) {
                // Inflating, the limit is not the end of the section: the record may be honest and too large.
                return Rejection.of(length >= 0 && plain.inflating() ? Errors.MESSAGE_TOO_LARGE : Errors.INVALID_RECORD,
                        "Record " + index + " announces " + length + " bytes, beyond the "
                                + (plain.inflating() ? plain.limit() + " bytes its batch may inflate to"
                                        : "end of its batch"));
            }
            long recordEnd = recordStart + length;
            plain.readByte(); // attributes, unused in v2
            long timestampMs = baseTimestamp + plain.readVarlong();
            int offsetDelta = plain.readVarint();
            if (offsetDelta != index) {
                // Consumers take a record's offset from its delta: a gap or a jump would make them skip
                // the records of later batches up to it.
                return Rejection.of(Errors.INVALID_RECORD, "Record " + index + " has offset delta " + offsetDelta
                        + "; the records of a produced batch must have offset deltas 0, 1, 2...");
            }
            int keyLength = plain.readVarint();
            String malformed = malformedRecordBody(plain, keyLength, recordEnd);
            if (malformed != null) {
                return Rejection.of(Errors.INVALID_RECORD, "Record " + index + " is malformed: " + malformed);
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
        }
        if (!plain.atEnd()) {
            return Rejection.of(Errors.INVALID_RECORD, "Bytes follow the last of the " + count
                    + " records the batch announces, at byte " + plain.position() + " of its records");
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
    private static String malformedRecordBody(RecordSectionReader plain, int keyLength, long recordEnd)
            throws IOException {
        if (!skip(plain, keyLength, recordEnd)) {
            return "key of " + keyLength + " bytes";
        }
        int valueLength = plain.readVarint();
        if (!skip(plain, valueLength, recordEnd)) {
            return "value of " + valueLength + " bytes";
        }
        int headers = plain.readVarint();
        if (headers < 0) {
            return headers + " headers";
        }
        for (int header = 0; header < headers; header++) {
            int headerKeyLength = plain.readVarint();
            if (headerKeyLength < 0 || !skip(plain, headerKeyLength, recordEnd)) {
                return "header key of " + headerKeyLength + " bytes";
            }
            int headerValueLength = plain.readVarint();
            if (!skip(plain, headerValueLength, recordEnd)) {
                return "header value of " + headerValueLength + " bytes";
            }
        }
        return plain.position() == recordEnd ? null
                : "its fields end at " + plain.position() + ", its length says " + recordEnd;
    }

    /** Skips a nullable field of {@code length} bytes (-1 is null) if it ends by {@code end}. */
    private static boolean skip(RecordSectionReader plain, int length, long end) throws IOException {
        if (length < -1 || length > end - plain.position()) {
            return false;
        }
        if (length > 0) {
            plain.skip(length);
        }
        return true;
    }
}

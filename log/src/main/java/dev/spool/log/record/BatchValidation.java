package dev.spool.log.record;

/**
 * Immutable: the outcome of validating one record batch, naming the first problem found so the broker
 * can answer with the matching error code without an exception on the hot path.
 */
public enum BatchValidation {
    /** The batch is well formed. */
    VALID,
    /** Fewer bytes than a batch header, or fewer than the batch length announces (a torn write). */
    TRUNCATED,
    /** The batch length is smaller than the header it must contain (CORRUPT_MESSAGE). */
    INVALID_LENGTH,
    /** Magic byte is not 2 (UNSUPPORTED_FOR_MESSAGE_FORMAT / CORRUPT_MESSAGE). */
    UNSUPPORTED_MAGIC,
    /** CRC-32C of bytes [21, end) does not match the stored value (CORRUPT_MESSAGE). */
    CORRUPT_CRC,
    /** recordCount is zero or negative, or lastOffsetDelta + 1 != recordCount (INVALID_RECORD / CORRUPT_MESSAGE). */
    INVALID_RECORD_COUNT,
    /** Compression codec id 5-7 (UNSUPPORTED_COMPRESSION_TYPE). */
    UNSUPPORTED_COMPRESSION,
    /** A CreateTime record timestamp outside message.timestamp.before/after.max.ms of now (INVALID_TIMESTAMP). */
    INVALID_TIMESTAMP,
    /** The records section does not decode to recordCount records (CORRUPT_MESSAGE). */
    CORRUPT_RECORDS;

    public boolean isValid() {
        return this == VALID;
    }
}

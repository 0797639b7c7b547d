package dev.spool.log;

/**
 * Immutable: what one append did.
 *
 * @param firstOffset       offset of the first record appended
 * @param lastOffset        offset of the last record appended
 * @param maxTimestampMs    largest batch max timestamp appended (the append time under LogAppendTime)
 * @param logAppendTimeMs   the time stamped into the batches under LogAppendTime, else -1 (ProduceResponse)
 * @param logStartOffset    the log start offset after the append (ProduceResponse)
 * @param batchCount        batches appended
 * @param sizeInBytes       bytes appended
 */
public record AppendInfo(long firstOffset, long lastOffset, long maxTimestampMs, long logAppendTimeMs,
                         long logStartOffset, int batchCount, int sizeInBytes) {
}

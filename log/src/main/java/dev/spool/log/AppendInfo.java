package dev.spool.log;

import dev.spool.log.producer.SequenceCheck;

/**
 * Immutable: what one append did. A leader's append of an idempotent producer's batch may append
 * nothing: {@code outcome} then says why, as the idempotence check under the log's lock decided.
 *
 * @param firstOffset       offset of the first record appended (of the original batch for a DUPLICATE, else -1)
 * @param lastOffset        offset of the last record appended (of the original batch for a DUPLICATE, else -1)
 * @param maxTimestampMs    largest batch max timestamp appended (the append time under LogAppendTime)
 * @param logAppendTimeMs   the time stamped into the batches under LogAppendTime, else -1 (ProduceResponse)
 * @param logStartOffset    the log start offset after the append (ProduceResponse), -1 for a refused batch
 * @param batchCount        batches appended
 * @param sizeInBytes       bytes appended
 * @param outcome           {@link SequenceCheck#APPEND} when the batches were appended; else why not
 * @param refusal           for an error outcome, the explanation the client gets; else null
 */
public record AppendInfo(long firstOffset, long lastOffset, long maxTimestampMs, long logAppendTimeMs,
                         long logStartOffset, int batchCount, int sizeInBytes, SequenceCheck outcome, String refusal) {

    /** Batches appended. */
    public AppendInfo(long firstOffset, long lastOffset, long maxTimestampMs, long logAppendTimeMs,
                      long logStartOffset, int batchCount, int sizeInBytes) {
        this(firstOffset, lastOffset, maxTimestampMs, logAppendTimeMs, logStartOffset, batchCount, sizeInBytes,
                SequenceCheck.APPEND, null);
    }

    /** A retry of a batch already written: nothing appended; the answer carries the original's offsets and time. */
    static AppendInfo duplicate(long firstOffset, long lastOffset, long maxTimestampMs, boolean logAppendTime,
                                long logStartOffset) {
        return new AppendInfo(firstOffset, lastOffset, maxTimestampMs, logAppendTime ? maxTimestampMs : -1,
                logStartOffset, 0, 0, SequenceCheck.DUPLICATE, null);
    }

    /** A batch the idempotence rules refuse ({@code check} is an error), with the reason. */
    static AppendInfo refused(SequenceCheck check, String refusal) {
        return new AppendInfo(-1, -1, -1, -1, -1, 0, 0, check, refusal);
    }

    /** Whether the batches were written (else a duplicate was recognised or the batch refused). */
    public boolean appended() {
        return outcome == SequenceCheck.APPEND;
    }
}

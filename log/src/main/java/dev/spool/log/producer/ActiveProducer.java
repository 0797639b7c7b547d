package dev.spool.log.producer;

/**
 * Immutable: one idempotent producer of a partition as DescribeProducers (KIP-664) reports it, copied
 * out of the partition's producer state under the log's lock.
 *
 * @param lastSequence          last sequence of its newest batch, or -1
 * @param lastTimestampMs       max timestamp of its newest batch, or -1
 * @param coordinatorEpoch      the epoch of the transaction coordinator that wrote its last marker, or -1
 * @param currentTxnStartOffset first offset of its open transaction, or -1
 */
public record ActiveProducer(long producerId, short producerEpoch, int lastSequence, long lastTimestampMs,
                             int coordinatorEpoch, long currentTxnStartOffset) {
}

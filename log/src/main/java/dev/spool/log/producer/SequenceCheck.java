package dev.spool.log.producer;

/**
 * Immutable: what {@link ProducerStateManager#check} decided about an idempotent batch (or
 * {@link ProducerStateManager#checkMarker} about a transaction marker), without an exception or an allocation
 * (Kafka's rules since KIP-98 and KIP-360).
 */
public enum SequenceCheck {
    /** In sequence (or a producer or epoch seen for the first time): append it. */
    APPEND,
    /** A retry of one of the producer's last five batches: answer with its original offsets, append nothing. */
    DUPLICATE,
    /** A gap, a repeat that is not one of the cached batches, or a new epoch not starting at 0. */
    OUT_OF_ORDER_SEQUENCE,
    /** An epoch older than the producer's current one (a zombie). */
    INVALID_PRODUCER_EPOCH,
    /** A batch outside a transaction while the producer has one open here. */
    INVALID_TXN_STATE,
    /** A marker from a transaction coordinator older than the one that wrote the producer's last marker. */
    TRANSACTION_COORDINATOR_FENCED
}

package dev.spool.log.producer;

/**
 * Immutable: what {@link ProducerStateManager#check} decided about an idempotent batch, without an
 * exception or an allocation (Kafka's rules since KIP-360).
 */
public enum SequenceCheck {
    /** In sequence (or a producer or epoch seen for the first time): append it. */
    APPEND,
    /** A retry of one of the producer's last five batches: answer with its original offsets, append nothing. */
    DUPLICATE,
    /** A gap, a repeat that is not one of the cached batches, or a new epoch not starting at 0. */
    OUT_OF_ORDER_SEQUENCE,
    /** An epoch older than the producer's current one (a zombie). */
    INVALID_PRODUCER_EPOCH
}

package dev.spool.broker.produce;

import dev.spool.log.TopicPartition;

/**
 * Told of each transaction marker this broker wrote as leader once it is committed: the group coordinator then
 * completes the offsets a transaction committed to that {@code __consumer_offsets} partition. Implementations are
 * thread-safe (called on the purgatory's or an io thread) and must not block.
 */
@FunctionalInterface
public interface TxnMarkerListener {

    TxnMarkerListener NONE = (partition, producerId, commit) -> { };

    void onMarker(TopicPartition partition, long producerId, boolean commit);
}

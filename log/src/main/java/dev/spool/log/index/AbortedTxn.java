package dev.spool.log.index;

/**
 * Immutable: one aborted transaction of a partition, as its {@link TransactionIndex} and a read_committed
 * Fetch answer carry it.
 *
 * @param producerId       the producer that aborted it
 * @param firstOffset      its first record
 * @param lastOffset       its ABORT marker
 * @param lastStableOffset the partition's last stable offset once it was aborted: no transaction open then
 *                         began below it, so a reader bounded by it need look no further back
 */
public record AbortedTxn(long producerId, long firstOffset, long lastOffset, long lastStableOffset) {
}

package dev.spool.log.producer;

import dev.spool.log.index.AbortedTxn;

/**
 * Immutable: a transaction a marker just ended in one partition.
 *
 * @param firstOffset      its first record (the marker's own offset for a transaction that wrote nothing here)
 * @param lastOffset       its marker
 * @param lastStableOffset the partition's last stable offset once it ended, were it replicated: the first
 *                         offset of the oldest transaction still open, or just after the marker
 */
public record CompletedTxn(long producerId, long firstOffset, long lastOffset, boolean aborted,
                           long lastStableOffset) {

    public AbortedTxn asAborted() {
        return new AbortedTxn(producerId, firstOffset, lastOffset, lastStableOffset);
    }
}

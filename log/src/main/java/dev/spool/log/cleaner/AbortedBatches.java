package dev.spool.log.cleaner;

import dev.spool.log.index.AbortedTxn;
import dev.spool.log.record.RecordBatch;
import java.util.List;

/**
 * Immutable: the aborted transactions of a log's cleanable section, to tell the batches a cleaning drops: a
 * transactional data batch of a producer whose aborted transaction spans it. Such records never count as a key's
 * latest (an aborted value must not displace a committed one), and go, as Kafka's cleaner removes them.
 */
final class AbortedBatches {

    private final List<AbortedTxn> aborted;

    AbortedBatches(List<AbortedTxn> aborted) {
        this.aborted = List.copyOf(aborted);
    }

    boolean contains(RecordBatch batch) {
        if (!batch.isTransactional() || batch.isControl()) {
            return false;
        }
        for (AbortedTxn txn : aborted) {
            if (txn.producerId() == batch.producerId() && txn.firstOffset() <= batch.baseOffset()
                    && batch.lastOffset() <= txn.lastOffset()) {
                return true;
            }
        }
        return false;
    }
}

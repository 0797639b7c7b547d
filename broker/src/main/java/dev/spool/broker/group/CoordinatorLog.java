package dev.spool.broker.group;

import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;

/**
 * Where one coordinator shard's records live: a partition of {@code __consumer_offsets}. Appends
 * return once the records are in the log, so a caller acknowledges nothing before that; replay reads
 * every record from the log start. Not thread-safe: owned by the shard's coordinator thread.
 */
interface CoordinatorLog {

    /** What a replay meets: records, some in a producer's transaction, and the markers that end transactions. */
    interface TransactionalReplay {
        /** A record; {@code producerId} is its transaction's producer, or -1 outside any. */
        void record(long producerId, CoordinatorRecord record);

        /** The producer's transaction ended: its records count if {@code commit}. */
        void marker(long producerId, boolean commit);
    }

    /** Appends the records as one batch. */
    void append(List<CoordinatorRecord> records) throws IOException;

    /**
     * Appends the records as one transactional batch of producer {@code producerId} (TxnOffsetCommit): they count
     * once the producer's COMMIT marker follows them. False, with nothing written, for a fenced producer epoch.
     */
    boolean appendTransactional(List<CoordinatorRecord> records, long producerId, short producerEpoch)
            throws IOException;

    /** Feeds every record, oldest first, to {@code consumer}, those of transactions as if outside any. */
    default void replay(Consumer<CoordinatorRecord> consumer) throws IOException {
        replay(new TransactionalReplay() {
            @Override
            public void record(long producerId, CoordinatorRecord record) {
                consumer.accept(record);
            }

            @Override
            public void marker(long producerId, boolean commit) {
            }
        });
    }

    /** Feeds every record and transaction marker, oldest first, to {@code replay}. */
    void replay(TransactionalReplay replay) throws IOException;
}

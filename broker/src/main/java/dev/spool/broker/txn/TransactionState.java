package dev.spool.broker.txn;

/**
 * Immutable: where a transactional id's transaction is, with the id Kafka's {@code __transaction_state} records carry
 * and the name DescribeTransactions and ListTransactions answer ({@code kafka-transactions} prints it).
 */
enum TransactionState {
    /** No transaction open: after InitProducerId, or once one ended. */
    EMPTY(0, "Empty"),
    /** Partitions were added: records may be written. */
    ONGOING(1, "Ongoing"),
    /** EndTxn(commit) was accepted: the COMMIT markers are being written. */
    PREPARE_COMMIT(2, "PrepareCommit"),
    /** EndTxn(abort), a timeout or a new producer: the ABORT markers are being written. */
    PREPARE_ABORT(3, "PrepareAbort"),
    COMPLETE_COMMIT(4, "CompleteCommit"),
    COMPLETE_ABORT(5, "CompleteAbort"),
    /** The transactional id expired (its record is a tombstone). */
    DEAD(6, "Dead"),
    /** The epoch is being bumped to fence a producer, before its transaction is aborted. */
    PREPARE_EPOCH_FENCE(7, "PrepareEpochFence");

    final byte id;
    final String kafkaName;

    TransactionState(int id, String kafkaName) {
        this.id = (byte) id;
        this.kafkaName = kafkaName;
    }

    static TransactionState of(byte id) {
        for (TransactionState state : values()) {
            if (state.id == id) {
                return state;
            }
        }
        throw new IllegalArgumentException("Unknown transaction state " + id);
    }

    /** Markers are being written: the transaction has ended but not completed. */
    boolean isPreparing() {
        return this == PREPARE_COMMIT || this == PREPARE_ABORT;
    }

    /** No transaction is open or ending: a new one may begin. */
    boolean isIdle() {
        return this == EMPTY || this == COMPLETE_COMMIT || this == COMPLETE_ABORT;
    }
}

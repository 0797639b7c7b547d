package dev.spool.broker.txn;

import dev.spool.log.TopicPartition;
import java.util.Set;
import java.util.TreeSet;

/**
 * Immutable: one transactional id's state as its {@code __transaction_state} record holds it. A change is a new
 * value, written as a record first and taken as the state second.
 *
 * @param producerId         the producer id in use
 * @param lastProducerId     the one before it, after the epoch ran out and a new id was given (else -1)
 * @param nextProducerId     while a transactions v2 end whose epoch ran out is written: the id the producer goes on
 *                           with, at epoch 0, once it completes (else -1)
 * @param producerEpoch      the current epoch
 * @param lastProducerEpoch  the epoch before the last bump a producer asked for with its own epoch (KIP-360), so
 *                           that its retry gets the same session; -1 after any other bump (a new session, a fence), so
 *                           that a zombie of the previous one cannot claim the new
 * @param timeoutMs          {@code transaction.timeout.ms} the producer asked for
 * @param state              where the transaction is
 * @param partitions         the partitions of the open (or ending) transaction, empty when idle
 * @param startTimestampMs   when the open transaction began (-1 when none is open)
 * @param updateTimestampMs  the last change
 * @param clientTransactionVersion 2 when the producer's last end was an EndTxn v5 (transactions v2, KIP-890: the
 *                           epoch bumped at each end), else 0
 */
record TransactionMetadata(String transactionalId, long producerId, long lastProducerId, long nextProducerId,
                           short producerEpoch, short lastProducerEpoch, int timeoutMs, TransactionState state,
                           Set<TopicPartition> partitions, long startTimestampMs, long updateTimestampMs,
                           short clientTransactionVersion) {

    /** The level of {@code transaction.version} whose clients bump the epoch at each end. */
    static final short TRANSACTIONS_V2 = 2;

    TransactionMetadata {
        partitions = Set.copyOf(partitions);
    }

    /** A transactional id seen for the first time, given {@code producerId} at epoch 0. */
    static TransactionMetadata first(String transactionalId, long producerId, int timeoutMs, long nowMs) {
        return new TransactionMetadata(transactionalId, producerId, -1, -1, (short) 0, (short) -1, timeoutMs,
                TransactionState.EMPTY, Set.of(), -1, nowMs, (short) 0);
    }

    /** The partitions sorted by topic and index (records, answers and logs name them in this order). */
    TreeSet<TopicPartition> sortedPartitions() {
        TreeSet<TopicPartition> sorted = new TreeSet<>((a, b) -> a.topic().equals(b.topic())
                ? Integer.compare(a.partition(), b.partition()) : a.topic().compareTo(b.topic()));
        sorted.addAll(partitions);
        return sorted;
    }

    /**
     * A new producer session (InitProducerId): the next epoch, or {@code freshProducerId} at 0 once it ran out.
     * {@code askedByItsProducer}: the current session's producer asked for it with its own id and epoch (KIP-360).
     */
    TransactionMetadata nextSession(long freshProducerId, int newTimeoutMs, long nowMs, boolean askedByItsProducer) {
        if (producerEpoch >= Short.MAX_VALUE - 1) {
            return new TransactionMetadata(transactionalId, freshProducerId, producerId, -1, (short) 0, (short) -1,
                    newTimeoutMs, TransactionState.EMPTY, Set.of(), -1, nowMs, (short) 0);
        }
        return new TransactionMetadata(transactionalId, producerId, lastProducerId, -1, (short) (producerEpoch + 1),
                askedByItsProducer ? producerEpoch : (short) -1, newTimeoutMs, TransactionState.EMPTY, Set.of(), -1,
                nowMs, (short) 0);
    }

    /**
     * The epoch bumped to fence the producer of the open transaction, which then aborts (a timeout, a new session).
     * A transactions v2 producer's by two: its own end bumps by one, and a retry of that end names the epoch just
     * below the current one, which must never be a fenced producer's. At most to {@link Short#MAX_VALUE}, reserved
     * for this (the next session then gets a fresh producer id).
     */
    TransactionMetadata fenced(long nowMs) {
        int bump = clientTransactionVersion >= TRANSACTIONS_V2 ? 2 : 1;
        short epoch = (short) Math.min(Short.MAX_VALUE, producerEpoch + bump);
        return new TransactionMetadata(transactionalId, producerId, lastProducerId, -1, epoch, (short) -1, timeoutMs,
                TransactionState.PREPARE_ABORT, partitions, startTimestampMs, nowMs, clientTransactionVersion);
    }

    /** EndTxn of transactions v1: the transaction ends ({@code ending}: a Prepare state) in its epoch. */
    TransactionMetadata ended(TransactionState ending, long nowMs) {
        return new TransactionMetadata(transactionalId, producerId, lastProducerId, -1, producerEpoch,
                lastProducerEpoch, timeoutMs, ending, partitions, startTimestampMs, nowMs, (short) 0);
    }

    /** Partitions join the transaction, which is open from now on. */
    TransactionMetadata withPartitions(Set<TopicPartition> added, long nowMs) {
        Set<TopicPartition> all = new java.util.HashSet<>(partitions);
        all.addAll(added);
        long start = state == TransactionState.ONGOING ? startTimestampMs : nowMs;
        return new TransactionMetadata(transactionalId, producerId, lastProducerId, nextProducerId, producerEpoch,
                lastProducerEpoch, timeoutMs, TransactionState.ONGOING, all, start, nowMs, clientTransactionVersion);
    }

    /**
     * EndTxn v5 (transactions v2): the transaction ends ({@code ending}: PrepareCommit or PrepareAbort) with the epoch
     * bumped, so that each transaction is its own (producer id, epoch) and a late write or marker of this one cannot
     * join the next. At the last epoch the markers carry it, and the producer goes on with {@code freshProducerId}
     * at epoch 0 once they are written ({@link #completed}).
     */
    TransactionMetadata endedWithBump(TransactionState ending, long freshProducerId, long nowMs) {
        short epoch = (short) (producerEpoch + 1);
        long next = epoch == Short.MAX_VALUE ? freshProducerId : -1;
        return new TransactionMetadata(transactionalId, producerId, lastProducerId, next, epoch, (short) -1,
                timeoutMs, ending, partitions, startTimestampMs, nowMs, TRANSACTIONS_V2);
    }

    /** Whether the next bump reaches the last epoch, and so needs a fresh producer id for the producer to go on. */
    boolean bumpNeedsFreshProducerId() {
        return producerEpoch + 1 >= Short.MAX_VALUE;
    }

    /** The producer id and epoch the client continues with once this transaction completes (EndTxn v5's answer). */
    long continuingProducerId() {
        return nextProducerId >= 0 ? nextProducerId : producerId;
    }

    short continuingProducerEpoch() {
        return nextProducerId >= 0 ? 0 : producerEpoch;
    }

    /**
     * The markers are written: the transaction is complete and holds no partition any more; after a transactions
     * v2 end at the last epoch, the producer's next id takes over at epoch 0.
     */
    TransactionMetadata completed(long nowMs) {
        TransactionState done = state == TransactionState.PREPARE_COMMIT ? TransactionState.COMPLETE_COMMIT
                : TransactionState.COMPLETE_ABORT;
        if (nextProducerId >= 0) {
            return new TransactionMetadata(transactionalId, nextProducerId, producerId, -1, (short) 0, (short) -1,
                    timeoutMs, done, Set.of(), -1, nowMs, clientTransactionVersion);
        }
        return new TransactionMetadata(transactionalId, producerId, lastProducerId, -1, producerEpoch,
                lastProducerEpoch, timeoutMs, done, Set.of(), -1, nowMs, clientTransactionVersion);
    }

    boolean hasExpired(long nowMs) {
        return state == TransactionState.ONGOING && startTimestampMs >= 0 && nowMs - startTimestampMs > timeoutMs;
    }
}

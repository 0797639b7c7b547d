package dev.spool.broker.txn;

import dev.spool.broker.coordinator.CoordinatorShard;
import dev.spool.broker.coordinator.PartitionRecordLog;
import dev.spool.broker.coordinator.PartitionRecordLog.KeyValue;
import dev.spool.broker.partition.LeadershipMovedException;
import dev.spool.log.TopicPartition;
import dev.spool.protocol.Errors;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transactions of the transactional ids that hash to one {@code __transaction_state} partition: each id's
 * producer id and epoch, its open transaction's partitions and its state (KIP-98, transactions v1). Every change is a
 * record appended first and taken as the state second, so a new coordinator (this partition's next leader) rebuilds
 * what was acknowledged. Ending a transaction is two records: PrepareCommit or PrepareAbort (after which the client
 * is answered), then, once the markers are in every partition ({@link MarkerWriter}), CompleteCommit or CompleteAbort.
 * A coordinator that loads a transaction still preparing writes its markers again. Markers are written only once the
 * Prepare record is committed (a coordinator elected after a loss then knows of the end, and finishes it the same way).
 *
 * <p>Not thread-safe: every method runs on the shard's coordinator thread.
 */
final class TransactionShard implements CoordinatorShard {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionShard.class);

    /** What InitProducerId answers. */
    record Session(Errors error, long producerId, short producerEpoch) {
        static Session failed(Errors error) {
            return new Session(error, -1, (short) -1);
        }
    }

    /**
     * What EndTxn answers: the error and, for transactions v2, the producer id and epoch the client goes on with.
     * {@link #NEEDS_PRODUCER_ID}: the end would use the last epoch; ask again with a fresh producer id.
     */
    record Ended(Errors error, long producerId, short producerEpoch) {
        static final Ended NEEDS_PRODUCER_ID = new Ended(null, -1, (short) -1);

        /** An answer without a producer id and epoch: an error, or the end of a transactions v1 transaction. */
        static Ended of(Errors error) {
            return new Ended(error, -1, (short) -1);
        }
    }

    /** Finishes a transaction whose markers a {@link MarkerWriter} wrote: called back on this shard's thread. */
    interface Completions {
        /**
         * Once what this shard wrote is committed, writes {@code ending}'s markers, then runs {@link #complete} on
         * this shard (unless it was unloaded).
         */
        void writeMarkers(TransactionShard shard, TransactionMetadata ending);
    }

    private final int partition;
    private final PartitionRecordLog log;
    private final LongSupplier clockMs;
    private final TransactionSettings settings;
    private final Completions completions;
    private final Map<String, TransactionMetadata> transactions = new HashMap<>();

    TransactionShard(int partition, PartitionRecordLog log, LongSupplier clockMs, TransactionSettings settings,
                     Completions completions) {
        this.partition = partition;
        this.log = log;
        this.clockMs = clockMs;
        this.settings = settings;
        this.completions = completions;
    }

    int partition() {
        return partition;
    }

    /** This coordinator's epoch: the leader epoch of its partition, which every marker it writes carries. */
    int coordinatorEpoch() {
        return log.leaderEpoch();
    }

    @Override
    public void load() throws IOException {
        log.replay((key, value) -> {
            TransactionRecords.Read read = TransactionRecords.read(key, value);
            if (read.metadata() == null) {
                transactions.remove(read.transactionalId());
            } else {
                transactions.put(read.transactionalId(), read.metadata());
            }
        });
        if (!transactions.isEmpty()) {
            LOG.info("Loaded __transaction_state-{} (coordinator epoch {}): {} transactional ids, {} ending", partition,
                    coordinatorEpoch(), transactions.size(),
                    transactions.values().stream().filter(metadata -> metadata.state().isPreparing()).count());
        }
    }

    /** The markers of transactions still ending may be missing anywhere: written again (the same end to a partition). */
    @Override
    public void onLoaded() {
        for (TransactionMetadata metadata : List.copyOf(transactions.values())) {
            if (metadata.state().isPreparing()) {
                completions.writeMarkers(this, metadata);
            }
        }
    }

    @Override
    public void unload() {
        // Nothing parked here: answers wait in the runtime, markers in the MarkerWriter, which stops on its own.
    }

    /**
     * InitProducerId with a transactional id: a first one gets {@code freshProducerId} at epoch 0; a known one its
     * next epoch (a zombie of the previous session is fenced by it). An open transaction is aborted first, with the
     * epoch bumped to fence its producer: CONCURRENT_TRANSACTIONS, which the client retries until the abort is done.
     * {@code expectedProducerId}/{@code expectedEpoch} (KIP-360, -1 when not sent) name the session the client had:
     * another one than the current or the one just before is PRODUCER_FENCED.
     */
    Session initProducerId(String transactionalId, int timeoutMs, long expectedProducerId, short expectedEpoch,
                           long freshProducerId) {
        long nowMs = clockMs.getAsLong();
        TransactionMetadata current = transactions.get(transactionalId);
        if (current == null) {
            TransactionMetadata first = TransactionMetadata.first(transactionalId, freshProducerId, timeoutMs, nowMs);
            return write(first) ? new Session(Errors.NONE, first.producerId(), first.producerEpoch())
                    : Session.failed(Errors.NOT_COORDINATOR);
        }
        if (expectedProducerId >= 0) {
            boolean currentSession = expectedProducerId == current.producerId()
                    && expectedEpoch == current.producerEpoch();
            boolean retriedBump = expectedProducerId == current.producerId()
                    && expectedEpoch == current.lastProducerEpoch() && current.state().isIdle();
            if (retriedBump) {
                return new Session(Errors.NONE, current.producerId(), current.producerEpoch());
            }
            if (!currentSession) {
                return Session.failed(Errors.PRODUCER_FENCED);
            }
        }
        switch (current.state()) {
            case ONGOING -> {
                endTransaction(current.fenced(nowMs));
                return Session.failed(Errors.CONCURRENT_TRANSACTIONS);
            }
            case PREPARE_COMMIT, PREPARE_ABORT, PREPARE_EPOCH_FENCE -> {
                return Session.failed(Errors.CONCURRENT_TRANSACTIONS);
            }
            default -> {
                TransactionMetadata next = current.nextSession(freshProducerId, timeoutMs, nowMs,
                        expectedProducerId >= 0);
                return write(next) ? new Session(Errors.NONE, next.producerId(), next.producerEpoch())
                        : Session.failed(Errors.NOT_COORDINATOR);
            }
        }
    }

    /**
     * AddPartitionsToTxn and AddOffsetsToTxn, and a partition leader's AddPartitionsToTxn v4+ for a transactional
     * batch: the partitions join the producer's transaction, which is open from then on. With {@code verifyOnly}
     * (transactions v1: the client added the partitions itself) nothing is written: NONE when they are all in the
     * open transaction, else INVALID_TXN_STATE, so a late write of a transaction that ended cannot open another in
     * the partition (a hanging transaction, KIP-890). NONE, or the error for every partition.
     */
    Errors addPartitions(String transactionalId, long producerId, short producerEpoch, Set<TopicPartition> added,
                         boolean verifyOnly) {
        TransactionMetadata current = transactions.get(transactionalId);
        if (current != null && current.state().isPreparing() && producerId == current.nextProducerId()) {
            return Errors.CONCURRENT_TRANSACTIONS; // the id it goes on with after its last epoch, not taken yet
        }
        Errors refused = checkProducer(current, producerId, producerEpoch);
        if (refused != Errors.NONE) {
            return refused;
        }
        boolean open = current.state() == TransactionState.ONGOING;
        if (verifyOnly) {
            return open && current.partitions().containsAll(added) ? Errors.NONE : Errors.INVALID_TXN_STATE;
        }
        if (current.state().isPreparing() || current.state() == TransactionState.PREPARE_EPOCH_FENCE) {
            return Errors.CONCURRENT_TRANSACTIONS;
        }
        if (open && current.partitions().containsAll(added)) {
            return Errors.NONE;
        }
        return write(current.withPartitions(added, clockMs.getAsLong())) ? Errors.NONE : Errors.NOT_COORDINATOR;
    }

    /**
     * EndTxn: the transaction ends with COMMIT or ABORT markers, written after this answers NONE. A retry of an end
     * already done (or under way, CONCURRENT_TRANSACTIONS while its markers are written) gets the same answer; the
     * other end of a transaction that ended, or the end of none, INVALID_TXN_STATE.
     *
     * <p>With {@code bumpEpoch} (EndTxn v5, transactions v2) the end bumps the epoch, and the answer names the id and
     * epoch to go on with; a retry comes with the epoch before the bump. An abort with nothing open bumps it too (the
     * client's way out of an abortable error). {@code freshProducerId} is -1 until {@link Ended#NEEDS_PRODUCER_ID}
     * asked for one.
     */
    Ended endTxn(String transactionalId, long producerId, short producerEpoch, boolean commit, boolean bumpEpoch,
                 long freshProducerId) {
        TransactionMetadata current = transactions.get(transactionalId);
        TransactionState preparing = commit ? TransactionState.PREPARE_COMMIT : TransactionState.PREPARE_ABORT;
        TransactionState completed = commit ? TransactionState.COMPLETE_COMMIT : TransactionState.COMPLETE_ABORT;
        if (bumpEpoch && current != null && (current.state() == preparing || current.state() == completed)
                && isBumpedFrom(current, producerId, producerEpoch)) {
            return new Ended(Errors.NONE, current.continuingProducerId(), current.continuingProducerEpoch());
        }
        Errors refused = checkProducer(current, producerId, producerEpoch);
        if (refused != Errors.NONE) {
            return Ended.of(refused);
        }
        TransactionState state = current.state();
        if (bumpEpoch && (state == TransactionState.ONGOING || !commit && state.isIdle())) {
            if (current.bumpNeedsFreshProducerId() && freshProducerId < 0) {
                return Ended.NEEDS_PRODUCER_ID;
            }
            TransactionMetadata ending = current.endedWithBump(preparing, freshProducerId, clockMs.getAsLong());
            return endTransaction(ending) ? new Ended(Errors.NONE, ending.continuingProducerId(),
                    ending.continuingProducerEpoch()) : Ended.of(Errors.NOT_COORDINATOR);
        }
        if (state == TransactionState.ONGOING) {
            return Ended.of(endTransaction(current.ended(preparing, clockMs.getAsLong())) ? Errors.NONE
                    : Errors.NOT_COORDINATOR);
        }
        if (state == preparing || state == TransactionState.PREPARE_EPOCH_FENCE) {
            return Ended.of(Errors.CONCURRENT_TRANSACTIONS);
        }
        return Ended.of(state == completed && !bumpEpoch ? Errors.NONE : Errors.INVALID_TXN_STATE);
    }

    /**
     * Whether {@code producerId} at {@code producerEpoch} is the session that {@code current}'s transactions v2 end
     * bumped from: the epoch just below, from the records alone, so a new coordinator knows it too. Never a fenced
     * producer's: a fence of a v2 producer bumps by two ({@link TransactionMetadata#fenced}).
     */
    private static boolean isBumpedFrom(TransactionMetadata current, long producerId, short producerEpoch) {
        if (current.clientTransactionVersion() < TransactionMetadata.TRANSACTIONS_V2) {
            return false;
        }
        boolean bumped = producerId == current.producerId() && producerEpoch == current.producerEpoch() - 1;
        boolean ranOut = current.nextProducerId() < 0 && producerId == current.lastProducerId()
                && current.producerEpoch() == 0 && producerEpoch == Short.MAX_VALUE - 1;
        return bumped || ranOut;
    }

    /** The markers of {@code ended} are in all its partitions: the transaction completes, if still the one ended. */
    void complete(TransactionMetadata ended) {
        TransactionMetadata current = transactions.get(ended.transactionalId());
        if (current == null || current.producerId() != ended.producerId()
                || current.producerEpoch() != ended.producerEpoch() || current.state() != ended.state()) {
            return; // completed by an earlier round of the same markers
        }
        write(current.completed(clockMs.getAsLong()));
    }

    /** Aborts the transactions open longer than their timeout, fencing their producers (an epoch bump). */
    void abortExpired() {
        long nowMs = clockMs.getAsLong();
        for (TransactionMetadata metadata : List.copyOf(transactions.values())) {
            if (metadata.hasExpired(nowMs)) {
                LOG.info("Aborting the transaction of '{}' (producer {} epoch {}): open for more than its timeout of {} "
                        + "ms", metadata.transactionalId(), metadata.producerId(), metadata.producerEpoch(),
                        metadata.timeoutMs());
                endTransaction(metadata.fenced(nowMs));
            }
        }
    }

    /** Forgets the transactional ids idle for {@code transactional.id.expiration.ms} (a tombstone each). */
    void expireTransactionalIds() {
        long nowMs = clockMs.getAsLong();
        List<KeyValue> tombstones = new ArrayList<>();
        List<String> expired = new ArrayList<>();
        for (TransactionMetadata metadata : transactions.values()) {
            if (metadata.state().isIdle()
                    && nowMs - metadata.updateTimestampMs() >= settings.transactionalIdExpirationMs()) {
                tombstones.add(new KeyValue(TransactionRecords.key(metadata.transactionalId()), null));
                expired.add(metadata.transactionalId());
            }
        }
        if (!expired.isEmpty() && append(tombstones)) {
            expired.forEach(transactions::remove);
            LOG.info("Expired {} transactional ids of __transaction_state-{}", expired.size(), partition);
        }
    }

    /** The transactions, as of now (DescribeTransactions, ListTransactions). */
    Collection<TransactionMetadata> transactions() {
        return List.copyOf(transactions.values());
    }

    TransactionMetadata transaction(String transactionalId) {
        return transactions.get(transactionalId);
    }

    /** The producer must be the id's current one: Kafka's errors otherwise. */
    private static Errors checkProducer(TransactionMetadata current, long producerId, short producerEpoch) {
        if (current == null || current.producerId() != producerId) {
            return Errors.INVALID_PRODUCER_ID_MAPPING;
        }
        return current.producerEpoch() != producerEpoch ? Errors.PRODUCER_FENCED : Errors.NONE;
    }

    /** Writes {@code ending} (a Prepare state) and starts writing its markers. */
    private boolean endTransaction(TransactionMetadata ending) {
        if (!write(ending)) {
            return false;
        }
        completions.writeMarkers(this, ending);
        return true;
    }

    private boolean write(TransactionMetadata next) {
        if (!append(List.of(new KeyValue(TransactionRecords.key(next.transactionalId()),
                TransactionRecords.value(next))))) {
            return false;
        }
        transactions.put(next.transactionalId(), next);
        return true;
    }

    private boolean append(List<KeyValue> records) {
        try {
            log.append(records);
            return true;
        } catch (LeadershipMovedException e) {
            LOG.info("Cannot append to __transaction_state-{}: {}", partition, e.getMessage());
            return false;
        } catch (IOException | RuntimeException e) {
            LOG.error("Cannot append to __transaction_state-{}", partition, e);
            return false;
        }
    }

    @Override
    public String toString() {
        return "TransactionShard(__transaction_state-" + partition + ")";
    }
}

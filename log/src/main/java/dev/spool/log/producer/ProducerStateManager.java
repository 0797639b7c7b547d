package dev.spool.log.producer;

import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchLayout;
import dev.spool.log.record.TxnMarker;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Not thread-safe: guarded by the lock of the partition log that owns it ({@code dev.spool.log.PartitionLog}),
 * which checks and records each append in the same locked step as the append. The idempotent
 * producers of one partition and the batches each wrote, up to {@link #mapEndOffset()}: every batch
 * below that offset has been applied, so a snapshot taken now is valid for the log up to there.
 *
 * <p>The rules, as Kafka applies them to client appends (KIP-98, KIP-360):
 * <ol>
 *   <li>a batch equal (epoch, first and last sequence) to one of the producer's last five is a
 *       duplicate: it gets the original offsets and is not appended;</li>
 *   <li>an epoch older than the producer's current one is {@link SequenceCheck#INVALID_PRODUCER_EPOCH};</li>
 *   <li>a newer epoch must start at sequence 0, unless the producer is unknown here (its state may have
 *       expired or been removed with old segments, so the broker cannot tell a gap from a restart:
 *       Kafka accepts any sequence since 2.5 and no longer answers UNKNOWN_PRODUCER_ID);</li>
 *   <li>within an epoch the first sequence must follow the last one written, wrapping at
 *       {@link Integer#MAX_VALUE}; anything else is {@link SequenceCheck#OUT_OF_ORDER_SEQUENCE};</li>
 *   <li>a producer with a transaction open here may write only transactional batches (KIP-98);</li>
 *   <li>a transaction marker of an older epoch is {@link SequenceCheck#INVALID_PRODUCER_EPOCH}, one from an older
 *       coordinator than the last marker's {@link SequenceCheck#TRANSACTION_COORDINATOR_FENCED}.</li>
 * </ol>
 *
 * <p>Transactions: a producer's first transactional batch opens its transaction at that batch's offset; its next
 * marker ends it. The open transactions, and the ended ones whose markers may not be replicated yet, bound the
 * last stable offset ({@link #unstableOffsets()}).
 */
public final class ProducerStateManager {

    private final Map<Long, ProducerStateEntry> producers = new HashMap<>();
    /** The open transactions: first offset to producer id. */
    private final TreeMap<Long, Long> openTransactions = new TreeMap<>();
    /** Transactions ended whose markers may not be replicated yet: first offset to marker offset. */
    private final TreeMap<Long, Long> endedTransactions = new TreeMap<>();
    /** The highest offset of a marker applied, or -1 (as far as this state knows; see {@link #restore}). */
    private long lastMarkerOffset = -1;
    private long mapEndOffset;
    private ProducerStateEntry duplicateEntry;
    private int duplicateSlot = -1;

    public ProducerStateManager(long mapEndOffset) {
        this.mapEndOffset = mapEndOffset;
    }

    /** The offset up to which (exclusive) every batch has been applied. */
    public long mapEndOffset() {
        return mapEndOffset;
    }

    /** The state of one producer, or null if it has written nothing (that is still known) here. */
    public ProducerStateEntry producer(long producerId) {
        return producers.get(producerId);
    }

    public Collection<ProducerStateEntry> producers() {
        return Collections.unmodifiableCollection(producers.values());
    }

    /** Each producer as DescribeProducers reports it, copied: the entries change with the next append. */
    public List<ActiveProducer> activeProducers() {
        List<ActiveProducer> active = new ArrayList<>(producers.size());
        for (ProducerStateEntry producer : producers.values()) {
            active.add(new ActiveProducer(producer.producerId(), producer.producerEpoch(), producer.lastSequence(),
                    producer.lastTimestampMs(), producer.coordinatorEpoch(), producer.currentTxnFirstOffset()));
        }
        return active;
    }

    /**
     * Checks an idempotent batch (producer id >= 0) from a client. After {@link SequenceCheck#DUPLICATE},
     * {@link #duplicateFirstOffset()} and friends describe the original batch.
     */
    public SequenceCheck check(long producerId, short epoch, int firstSequence, int lastSequence,
                               boolean transactional) {
        duplicateEntry = null;
        duplicateSlot = -1;
        ProducerStateEntry entry = producers.get(producerId);
        if (entry == null) {
            return SequenceCheck.APPEND;
        }
        int slot = entry.findDuplicate(epoch, firstSequence, lastSequence);
        if (slot >= 0) {
            duplicateEntry = entry;
            duplicateSlot = slot;
            return SequenceCheck.DUPLICATE;
        }
        short current = entry.producerEpoch();
        if (epoch < current) {
            return SequenceCheck.INVALID_PRODUCER_EPOCH;
        }
        if (!transactional && entry.inTransaction()) {
            return SequenceCheck.INVALID_TXN_STATE;
        }
        if (epoch != current) {
            boolean knownEpoch = current != RecordBatchLayout.NO_PRODUCER_EPOCH;
            return firstSequence != 0 && knownEpoch ? SequenceCheck.OUT_OF_ORDER_SEQUENCE : SequenceCheck.APPEND;
        }
        int last = entry.lastSequence();
        if (last == RecordBatchLayout.NO_SEQUENCE) {
            return firstSequence == 0 ? SequenceCheck.APPEND : SequenceCheck.OUT_OF_ORDER_SEQUENCE;
        }
        return Sequences.follows(last, firstSequence) ? SequenceCheck.APPEND : SequenceCheck.OUT_OF_ORDER_SEQUENCE;
    }

    /**
     * Checks a transaction marker for {@code producerId} from a coordinator (written by the leader). A marker of
     * transactions v2 ({@code epochBumped}, KIP-1228) carries the epoch the coordinator bumped at the end, above that
     * of the transaction's batches: one at the producer's epoch either repeats the marker last written (no transaction
     * open since: {@link SequenceCheck#DUPLICATE}, nothing to write) or is a stale one that must not end the next
     * transaction, already open at that epoch (INVALID_PRODUCER_EPOCH).
     */
    public SequenceCheck checkMarker(long producerId, short epoch, int coordinatorEpoch, boolean epochBumped) {
        ProducerStateEntry entry = producers.get(producerId);
        if (entry == null) {
            return SequenceCheck.APPEND;
        }
        if (epoch < entry.producerEpoch()) {
            return SequenceCheck.INVALID_PRODUCER_EPOCH;
        }
        if (coordinatorEpoch < entry.coordinatorEpoch()) {
            return SequenceCheck.TRANSACTION_COORDINATOR_FENCED;
        }
        if (epochBumped && epoch == entry.producerEpoch()) {
            return entry.inTransaction() ? SequenceCheck.INVALID_PRODUCER_EPOCH : SequenceCheck.DUPLICATE;
        }
        return SequenceCheck.APPEND;
    }

    public long duplicateFirstOffset() {
        return duplicateEntry.firstOffsetAt(duplicateSlot);
    }

    public long duplicateLastOffset() {
        return duplicateEntry.lastOffsetAt(duplicateSlot);
    }

    public long duplicateTimestampMs() {
        return duplicateEntry.timestampAt(duplicateSlot);
    }

    /** Records a batch written at [firstOffset, lastOffset] by an idempotent producer. */
    public void onBatchWritten(long producerId, short epoch, int firstSequence, int lastSequence, long firstOffset,
                               long lastOffset, long maxTimestampMs) {
        ProducerStateEntry entry = producers.get(producerId);
        if (entry == null) {
            entry = new ProducerStateEntry(producerId, epoch);
            producers.put(producerId, entry);
        }
        entry.addBatch(epoch, firstSequence, lastSequence, firstOffset, lastOffset, maxTimestampMs);
        advanceTo(lastOffset + 1);
    }

    /**
     * Applies a written batch: a leader's checked one, a follower's, or one read back from the log (recovery).
     * Returns the transaction a marker ended, else null.
     */
    public CompletedTxn replay(RecordBatch batch) {
        long producerId = batch.producerId();
        if (producerId == RecordBatchLayout.NO_PRODUCER_ID) {
            advanceTo(batch.nextOffset());
            return null;
        }
        if (TxnMarker.isMarker(batch)) {
            return endTransaction(batch, TxnMarker.of(batch));
        }
        if (batch.isControl()) {
            advanceTo(batch.nextOffset()); // no other control records are written to data partitions
            return null;
        }
        int first = batch.baseSequence();
        ProducerStateEntry entry;
        if (first == RecordBatchLayout.NO_SEQUENCE) {
            // A coordinator's batch on the producer's behalf (transactional offset commits): no sequence to cache.
            entry = producers.computeIfAbsent(producerId, id -> new ProducerStateEntry(id, batch.producerEpoch()));
            advanceTo(batch.nextOffset());
        } else {
            onBatchWritten(producerId, batch.producerEpoch(), first, Sequences.lastSequence(first,
                    batch.lastOffsetDelta()), batch.baseOffset(), batch.lastOffset(), batch.maxTimestamp());
            entry = producers.get(producerId);
        }
        if (batch.isTransactional() && !entry.inTransaction()) {
            entry.beginTransaction(batch.baseOffset());
            openTransactions.put(batch.baseOffset(), producerId);
        }
        return null;
    }

    private CompletedTxn endTransaction(RecordBatch batch, TxnMarker marker) {
        long producerId = batch.producerId();
        long markerOffset = batch.baseOffset();
        ProducerStateEntry entry = producers.computeIfAbsent(producerId,
                id -> new ProducerStateEntry(id, batch.producerEpoch()));
        long firstOffset = markerOffset;
        if (entry.inTransaction()) {
            firstOffset = entry.currentTxnFirstOffset();
            openTransactions.remove(firstOffset);
        }
        entry.endTransaction(batch.producerEpoch(), marker.coordinatorEpoch(), batch.maxTimestamp());
        endedTransactions.put(firstOffset, markerOffset);
        lastMarkerOffset = Math.max(lastMarkerOffset, markerOffset);
        advanceTo(batch.nextOffset());
        long lastStable = openTransactions.isEmpty() ? markerOffset + 1 : openTransactions.firstKey();
        return new CompletedTxn(producerId, firstOffset, markerOffset, !marker.commit(), lastStable);
    }

    /**
     * The transactions that may bound the last stable offset, forgetting the ended ones whose markers are below
     * {@code highWatermark} (replicated: they bound nothing any more).
     */
    public UnstableOffsets unstableOffsets(long highWatermark) {
        endedTransactions.values().removeIf(markerOffset -> markerOffset < highWatermark);
        if (openTransactions.isEmpty() && endedTransactions.isEmpty()) {
            return UnstableOffsets.NONE;
        }
        TreeMap<Long, Long> all = new TreeMap<>(endedTransactions);
        for (Long firstOffset : openTransactions.keySet()) {
            all.put(firstOffset, Long.MAX_VALUE);
        }
        long[] firstOffsets = new long[all.size()];
        long[] lastOffsets = new long[all.size()];
        int i = 0;
        for (Map.Entry<Long, Long> txn : all.entrySet()) {
            firstOffsets[i] = txn.getKey();
            lastOffsets[i++] = txn.getValue();
        }
        return new UnstableOffsets(firstOffsets, lastOffsets);
    }

    /**
     * Whether a snapshot at {@code offset} below {@link #mapEndOffset()} could miss transaction state: an open
     * transaction (its first offset may lie in a batch no longer cached) or a marker at or after it.
     */
    public boolean hasTransactionStateFrom(long offset) {
        return !openTransactions.isEmpty() || lastMarkerOffset >= offset;
    }

    /** Moves {@link #mapEndOffset()} up to {@code offset} (batches without a producer id change no state). */
    public void advanceTo(long offset) {
        mapEndOffset = Math.max(mapEndOffset, offset);
    }

    /**
     * Restores one producer from a snapshot entry (its last batch only, as Kafka's snapshots keep), with its open
     * transaction. A producer a coordinator wrote markers for may have had one anywhere below the snapshot, as far
     * as this state can tell ({@link #hasTransactionStateFrom}).
     */
    public void restore(ProducerSnapshotFile.Entry entry) {
        ProducerStateEntry state = new ProducerStateEntry(entry.producerId(), entry.epoch());
        if (entry.lastSequence() != RecordBatchLayout.NO_SEQUENCE) {
            state.addBatch(entry.epoch(), Sequences.firstSequence(entry.lastSequence(), entry.offsetDelta()),
                    entry.lastSequence(), entry.lastOffset() - entry.offsetDelta(), entry.lastOffset(),
                    entry.timestampMs());
        }
        state.restoreTransactionState(entry.coordinatorEpoch(), entry.currentTxnFirstOffset(), entry.timestampMs());
        if (entry.currentTxnFirstOffset() >= 0) {
            openTransactions.put(entry.currentTxnFirstOffset(), entry.producerId());
        }
        if (entry.coordinatorEpoch() >= 0) {
            lastMarkerOffset = Math.max(lastMarkerOffset, mapEndOffset - 1);
        }
        producers.put(entry.producerId(), state);
    }

    /** The producers as snapshot entries as of {@link #mapEndOffset()}, in producer id order. */
    public List<ProducerSnapshotFile.Entry> snapshotEntries() {
        return snapshotEntriesAsOf(mapEndOffset);
    }

    /**
     * The offset to snapshot at so that replaying the log from there rebuilds every cached batch that
     * starts at or after {@code floorOffset}: the first offset of the oldest such batch, or
     * {@link #mapEndOffset()} when there is none. Every batch boundary is a valid snapshot offset.
     */
    public long cachedBatchesStartOffset(long floorOffset) {
        long start = mapEndOffset;
        for (ProducerStateEntry state : producers.values()) {
            for (int i = 0; i < state.batchCount(); i++) {
                long firstOffset = state.firstOffsetAt(state.slotOf(i));
                if (firstOffset >= floorOffset) {
                    start = Math.min(start, firstOffset);
                    break;
                }
            }
        }
        return start;
    }

    /**
     * The producers as snapshot entries as of {@code offset} (at most {@link #mapEndOffset()}, a batch
     * boundary at or before the oldest cached batch that a replay is to rebuild), in producer id order:
     * each producer's newest cached batch below {@code offset} (Kafka's format holds one). A producer whose
     * cached batches all lie at or after {@code offset} is left out: replaying from {@code offset}
     * recreates it with all of them, and its older batches are not needed for any check.
     */
    public List<ProducerSnapshotFile.Entry> snapshotEntriesAsOf(long offset) {
        List<ProducerSnapshotFile.Entry> entries = new ArrayList<>(producers.size());
        for (ProducerStateEntry state : producers.values()) {
            int newestBelow = -1;
            for (int i = 0; i < state.batchCount(); i++) {
                int slot = state.slotOf(i);
                if (state.lastOffsetAt(slot) < offset) {
                    newestBelow = slot;
                }
            }
            if (newestBelow >= 0) {
                entries.add(new ProducerSnapshotFile.Entry(state.producerId(), state.producerEpoch(),
                        state.lastSequenceAt(newestBelow), state.lastOffsetAt(newestBelow),
                        (int) (state.lastOffsetAt(newestBelow) - state.firstOffsetAt(newestBelow)),
                        state.timestampAt(newestBelow), state.coordinatorEpoch(), state.currentTxnFirstOffset()));
            } else if (state.isEmpty()) {
                entries.add(new ProducerSnapshotFile.Entry(state.producerId(), state.producerEpoch(),
                        RecordBatchLayout.NO_SEQUENCE, -1L, 0, state.lastTimestampMs(), state.coordinatorEpoch(),
                        state.currentTxnFirstOffset()));
            }
        }
        entries.sort((a, b) -> Long.compare(a.producerId(), b.producerId()));
        return entries;
    }

    /**
     * Forgets producers whose last batch is older than {@code expirationMs} ({@code producer.id.expiration.ms}),
     * judged by the batch's max timestamp as Kafka does, unless a transaction of theirs is open. Returns how many
     * were removed.
     */
    public int removeExpired(long nowMs, long expirationMs) {
        int removed = 0;
        for (Iterator<ProducerStateEntry> it = producers.values().iterator(); it.hasNext(); ) {
            ProducerStateEntry entry = it.next();
            if (!entry.inTransaction() && nowMs - entry.lastTimestampMs() >= expirationMs) {
                it.remove();
                removed++;
            }
        }
        return removed;
    }

    /** Forgets everything and restarts at {@code offset} (a snapshot or log that cannot be trusted). */
    public void clear(long offset) {
        producers.clear();
        openTransactions.clear();
        endedTransactions.clear();
        lastMarkerOffset = -1;
        mapEndOffset = offset;
    }
}

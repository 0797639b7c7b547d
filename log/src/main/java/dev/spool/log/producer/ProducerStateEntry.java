package dev.spool.log.producer;

import dev.spool.log.record.RecordBatchLayout;

/**
 * Not thread-safe: owned by the {@link ProducerStateManager} of one partition. What one idempotent
 * producer wrote to that partition: its current epoch and the metadata of its last
 * {@link #MAX_CACHED_BATCHES} batches (sequence range, offset range, max timestamp), oldest first, in
 * a ring of primitive arrays so recording a batch allocates nothing; for a transactional producer also the
 * first offset of its open transaction and the epoch of the coordinator that wrote its last marker.
 *
 * <p>Design note: five is the producer's {@code max.in.flight.requests.per.connection} limit for
 * idempotence (KAFKA-5494), so any retry the producer can send is among these batches.
 */
public final class ProducerStateEntry {

    public static final int MAX_CACHED_BATCHES = 5;

    private final long producerId;
    private short producerEpoch;
    private int coordinatorEpoch = -1;
    private long currentTxnFirstOffset = -1;
    private long lastTimestampMs = RecordBatchLayout.NO_TIMESTAMP;
    private final int[] firstSequences = new int[MAX_CACHED_BATCHES];
    private final int[] lastSequences = new int[MAX_CACHED_BATCHES];
    private final long[] firstOffsets = new long[MAX_CACHED_BATCHES];
    private final long[] lastOffsets = new long[MAX_CACHED_BATCHES];
    private final long[] timestampsMs = new long[MAX_CACHED_BATCHES];
    /** Ring index of the oldest cached batch. */
    private int oldest;
    private int count;

    public ProducerStateEntry(long producerId, short producerEpoch) {
        this.producerId = producerId;
        this.producerEpoch = producerEpoch;
    }

    public long producerId() {
        return producerId;
    }

    public short producerEpoch() {
        return producerEpoch;
    }

    public int coordinatorEpoch() {
        return coordinatorEpoch;
    }

    /** The first offset of the producer's open transaction here, or -1. */
    public long currentTxnFirstOffset() {
        return currentTxnFirstOffset;
    }

    public boolean inTransaction() {
        return currentTxnFirstOffset >= 0;
    }

    void beginTransaction(long firstOffset) {
        currentTxnFirstOffset = firstOffset;
    }

    /**
     * A marker of {@code epoch} from coordinator epoch {@code coordinatorEpoch} at {@code timestampMs} ended the
     * open transaction (if any). A newer epoch (Kafka's coordinators bump it at each end under transactions v2)
     * forgets the old epoch's batches: the next batch starts its sequences at 0.
     */
    void endTransaction(short epoch, int coordinatorEpoch, long timestampMs) {
        moveToEpoch(epoch);
        this.currentTxnFirstOffset = -1;
        this.coordinatorEpoch = coordinatorEpoch;
        this.lastTimestampMs = Math.max(lastTimestampMs, timestampMs);
    }

    /** Restores what a snapshot entry knows beyond the last batch. */
    void restoreTransactionState(int coordinatorEpoch, long currentTxnFirstOffset, long timestampMs) {
        this.coordinatorEpoch = coordinatorEpoch;
        this.currentTxnFirstOffset = currentTxnFirstOffset;
        this.lastTimestampMs = Math.max(lastTimestampMs, timestampMs);
    }

    public int batchCount() {
        return count;
    }

    public boolean isEmpty() {
        return count == 0;
    }

    /** Last sequence of the newest batch, or {@link RecordBatchLayout#NO_SEQUENCE}. */
    public int lastSequence() {
        return count == 0 ? RecordBatchLayout.NO_SEQUENCE : lastSequences[newest()];
    }

    /** First sequence of the newest batch, or {@link RecordBatchLayout#NO_SEQUENCE}. */
    public int firstSequence() {
        return count == 0 ? RecordBatchLayout.NO_SEQUENCE : firstSequences[newest()];
    }

    /** Last offset of the newest batch, or -1. */
    public long lastOffset() {
        return count == 0 ? -1 : lastOffsets[newest()];
    }

    /** First offset of the newest batch, or -1. */
    public long firstOffset() {
        return count == 0 ? -1 : firstOffsets[newest()];
    }

    /** Max timestamp of the newest batch or marker, or -1 (what expiration judges the producer by). */
    public long lastTimestampMs() {
        return lastTimestampMs;
    }

    private int newest() {
        return (oldest + count - 1) % MAX_CACHED_BATCHES;
    }

    /**
     * The cached batch with exactly this epoch and sequence range (a retry of a batch already written),
     * as its ring index, or -1.
     */
    public int findDuplicate(short epoch, int firstSequence, int lastSequence) {
        if (epoch != producerEpoch) {
            return -1;
        }
        for (int i = 0; i < count; i++) {
            int slot = (oldest + i) % MAX_CACHED_BATCHES;
            if (firstSequences[slot] == firstSequence && lastSequences[slot] == lastSequence) {
                return slot;
            }
        }
        return -1;
    }

    /** The ring index of the {@code index}-th cached batch, 0 the oldest, {@link #batchCount()} - 1 the newest. */
    public int slotOf(int index) {
        return (oldest + index) % MAX_CACHED_BATCHES;
    }

    public int firstSequenceAt(int slot) {
        return firstSequences[slot];
    }

    public int lastSequenceAt(int slot) {
        return lastSequences[slot];
    }

    public long firstOffsetAt(int slot) {
        return firstOffsets[slot];
    }

    public long lastOffsetAt(int slot) {
        return lastOffsets[slot];
    }

    public long timestampAt(int slot) {
        return timestampsMs[slot];
    }

    /**
     * Records a written batch. A new epoch forgets the batches of the old one; beyond
     * {@link #MAX_CACHED_BATCHES} the oldest is dropped.
     */
    public void addBatch(short epoch, int firstSequence, int lastSequence, long firstOffset, long lastOffset,
                         long timestampMs) {
        moveToEpoch(epoch);
        lastTimestampMs = timestampMs;
        int slot;
        if (count == MAX_CACHED_BATCHES) {
            slot = oldest;
            oldest = (oldest + 1) % MAX_CACHED_BATCHES;
        } else {
            slot = (oldest + count) % MAX_CACHED_BATCHES;
            count++;
        }
        firstSequences[slot] = firstSequence;
        lastSequences[slot] = lastSequence;
        firstOffsets[slot] = firstOffset;
        lastOffsets[slot] = lastOffset;
        timestampsMs[slot] = timestampMs;
    }

    private void moveToEpoch(short epoch) {
        if (epoch != producerEpoch) {
            producerEpoch = epoch;
            count = 0;
            oldest = 0;
        }
    }

    @Override
    public String toString() {
        return "ProducerStateEntry(producerId=" + producerId + ", epoch=" + producerEpoch + ", lastSequence="
                + lastSequence() + ", lastOffset=" + lastOffset() + ", batches=" + count + ", currentTxnFirstOffset=" + currentTxnFirstOffset + ", coordinatorEpoch="
                + coordinatorEpoch + ")";
    }
}

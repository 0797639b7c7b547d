package dev.spool.log.producer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProducerStateManagerTest {

    private static final long PRODUCER = 42;

    private final ProducerStateManager state = new ProducerStateManager(0);
    private long nextOffset;

    /** Checks and, if accepted, writes a batch of {@code records} records starting at {@code firstSequence}. */
    private SequenceCheck write(short epoch, int firstSequence, int records) {
        int last = Sequences.lastSequence(firstSequence, records - 1);
        SequenceCheck check = state.check(PRODUCER, epoch, firstSequence, last, false);
        if (check == SequenceCheck.APPEND) {
            state.onBatchWritten(PRODUCER, epoch, firstSequence, last, nextOffset, nextOffset + records - 1, 1000);
            nextOffset += records;
        }
        return check;
    }

    @Test
    void batchesInSequenceAreAppended() {
        assertThat(write((short) 0, 0, 3)).isEqualTo(SequenceCheck.APPEND);
        assertThat(write((short) 0, 3, 2)).isEqualTo(SequenceCheck.APPEND);
        assertThat(state.producer(PRODUCER).lastSequence()).isEqualTo(4);
        assertThat(state.mapEndOffset()).isEqualTo(5);
    }

    @Test
    void aRetryOfAnyOfTheLastFiveBatchesIsADuplicateWithItsOriginalOffsets() {
        for (int i = 0; i < 6; i++) {
            write((short) 0, i * 2, 2);
        }
        // Batches 1..5 (sequences 2..11) are cached; batch 0 (sequences 0..1) was evicted.
        for (int i = 1; i < 6; i++) {
            assertThat(state.check(PRODUCER, (short) 0, i * 2, i * 2 + 1, false)).isEqualTo(SequenceCheck.DUPLICATE);
            assertThat(state.duplicateFirstOffset()).isEqualTo(i * 2L);
            assertThat(state.duplicateLastOffset()).isEqualTo(i * 2L + 1);
        }
        assertThat(state.check(PRODUCER, (short) 0, 0, 1, false)).isEqualTo(SequenceCheck.OUT_OF_ORDER_SEQUENCE);
    }

    @Test
    void aGapOrAPartialOverlapIsOutOfOrder() {
        write((short) 0, 0, 3);
        assertThat(write((short) 0, 4, 1)).isEqualTo(SequenceCheck.OUT_OF_ORDER_SEQUENCE);
        assertThat(write((short) 0, 1, 3)).isEqualTo(SequenceCheck.OUT_OF_ORDER_SEQUENCE);
        assertThat(write((short) 0, 3, 1)).isEqualTo(SequenceCheck.APPEND);
    }

    @Test
    void anOlderEpochIsFenced() {
        write((short) 3, 0, 1);
        assertThat(write((short) 2, 1, 1)).isEqualTo(SequenceCheck.INVALID_PRODUCER_EPOCH);
    }

    @Test
    void aNewEpochMustStartAtSequenceZero() {
        write((short) 0, 0, 5);
        assertThat(write((short) 1, 5, 1)).isEqualTo(SequenceCheck.OUT_OF_ORDER_SEQUENCE);
        assertThat(write((short) 1, 0, 1)).isEqualTo(SequenceCheck.APPEND);
        assertThat(state.producer(PRODUCER).producerEpoch()).isEqualTo((short) 1);
        assertThat(state.producer(PRODUCER).batchCount()).isEqualTo(1);
        // The old epoch's batches are forgotten: their retry is fenced, not a duplicate.
        assertThat(write((short) 0, 0, 5)).isEqualTo(SequenceCheck.INVALID_PRODUCER_EPOCH);
    }

    @Test
    void anUnknownProducerMayStartAtAnySequence() {
        assertThat(write((short) 0, 1234, 2)).isEqualTo(SequenceCheck.APPEND);
        assertThat(write((short) 0, 1236, 1)).isEqualTo(SequenceCheck.APPEND);
    }

    @Test
    void sequencesWrapAfterIntegerMaxValue() {
        assertThat(Sequences.lastSequence(Integer.MAX_VALUE - 1, 3)).isEqualTo(1);
        assertThat(Sequences.firstSequence(1, 3)).isEqualTo(Integer.MAX_VALUE - 1);
        write((short) 0, Integer.MAX_VALUE - 1, 4);
        assertThat(state.producer(PRODUCER).lastSequence()).isEqualTo(1);
        assertThat(write((short) 0, 2, 1)).isEqualTo(SequenceCheck.APPEND);
        assertThat(state.check(PRODUCER, (short) 0, Integer.MAX_VALUE - 1, 1, false)).isEqualTo(SequenceCheck.DUPLICATE);
        assertThat(Sequences.follows(Integer.MAX_VALUE, 0)).isTrue();
        assertThat(Sequences.follows(Integer.MAX_VALUE, 1)).isFalse();
    }

    @Test
    void snapshotEntriesKeepTheLastBatchAndRestoreDeduplicatesIt() {
        write((short) 2, 0, 4);
        write((short) 2, 4, 3);
        ProducerSnapshotFile.Entry entry = state.snapshotEntries().get(0);
        assertThat(entry).isEqualTo(new ProducerSnapshotFile.Entry(PRODUCER, (short) 2, 6, 6, 2, 1000, -1, -1));
        ProducerStateManager restored = new ProducerStateManager(7);
        restored.restore(entry);
        assertThat(restored.check(PRODUCER, (short) 2, 4, 6, false)).isEqualTo(SequenceCheck.DUPLICATE);
        assertThat(restored.duplicateFirstOffset()).isEqualTo(4);
        assertThat(restored.check(PRODUCER, (short) 2, 7, 7, false)).isEqualTo(SequenceCheck.APPEND);
    }

    @Test
    void producersIdleLongerThanTheExpirationAreRemoved() {
        write((short) 0, 0, 1);
        assertThat(state.removeExpired(1000 + 99, 100)).isZero();
        assertThat(state.removeExpired(1000 + 100, 100)).isEqualTo(1);
        assertThat(state.producer(PRODUCER)).isNull();
    }
}

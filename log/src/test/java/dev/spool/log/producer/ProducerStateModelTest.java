package dev.spool.log.producer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Model test: an idempotent producer with at most five batches in flight sends batches in sequence
 * order and resends any in-flight batch any number of times (lost responses), possibly across the
 * sequence wrap. Against the oracle "each batch is written once, in order, and every resend gets the
 * offsets of the first write", the producer state must accept each batch once and flag every resend
 * as a duplicate.
 */
class ProducerStateModelTest {

    private static final int MAX_IN_FLIGHT = ProducerStateEntry.MAX_CACHED_BATCHES;

    /** One step: send the next new batch (-1) or resend the in-flight batch at that distance back. */
    @Provide
    Arbitrary<List<Integer>> steps() {
        return Arbitraries.integers().between(-1, MAX_IN_FLIGHT - 1).list().ofMinSize(1).ofMaxSize(300);
    }

    @Property(tries = 300)
    void everyBatchIsWrittenOnceAndResendsGetTheirOriginalOffsets(@ForAll("steps") List<Integer> steps,
            @ForAll @IntRange(min = 1, max = 7) int recordsPerBatch, @ForAll boolean nearTheWrap) {
        ProducerStateManager state = new ProducerStateManager(0);
        int firstSequence = nearTheWrap ? Integer.MAX_VALUE - 20 : 0;
        List<Integer> sentFirstSequences = new ArrayList<>();
        List<Long> writtenBaseOffsets = new ArrayList<>();
        long logEndOffset = 0;
        int nextSequence = firstSequence;
        for (int step : steps) {
            int batch;
            if (step < 0 || step >= sentFirstSequences.size()) {
                batch = sentFirstSequences.size();
                sentFirstSequences.add(nextSequence);
                nextSequence = Sequences.lastSequence(nextSequence, recordsPerBatch - 1) == Integer.MAX_VALUE ? 0
                        : Sequences.lastSequence(nextSequence, recordsPerBatch - 1) + 1;
            } else {
                batch = sentFirstSequences.size() - 1 - step;
            }
            int first = sentFirstSequences.get(batch);
            int last = Sequences.lastSequence(first, recordsPerBatch - 1);
            SequenceCheck check = state.check(1L, (short) 0, first, last, false);
            if (batch == writtenBaseOffsets.size()) {
                assertThat(check).as("first send of batch %d", batch).isEqualTo(SequenceCheck.APPEND);
                state.onBatchWritten(1L, (short) 0, first, last, logEndOffset, logEndOffset + recordsPerBatch - 1, 0);
                writtenBaseOffsets.add(logEndOffset);
                logEndOffset += recordsPerBatch;
            } else {
                assertThat(check).as("resend of batch %d", batch).isEqualTo(SequenceCheck.DUPLICATE);
                assertThat(state.duplicateFirstOffset()).isEqualTo(writtenBaseOffsets.get(batch));
            }
        }
        assertThat(logEndOffset).isEqualTo((long) sentFirstSequences.size() * recordsPerBatch);
    }
}

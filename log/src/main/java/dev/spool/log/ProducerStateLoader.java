package dev.spool.log;

import dev.spool.log.producer.CompletedTxn;
import dev.spool.log.producer.ProducerSnapshotFile;
import dev.spool.log.producer.ProducerSnapshots;
import dev.spool.log.producer.ProducerStateManager;
import dev.spool.log.record.BatchValidation;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.segment.BatchFileReader;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stateless: rebuilds the producer state of a partition as Kafka's log recovery does: snapshots past
 * the log end offset (their batches were truncated away) are deleted, the newest readable snapshot at
 * or below it is loaded (an unreadable one is deleted and the next older tried), then every batch from
 * there to the log end offset is replayed. Called by {@link PartitionLog} holding its lock.
 */
final class ProducerStateLoader {

    private static final Logger LOG = LoggerFactory.getLogger(ProducerStateLoader.class);
    /** Bytes read from the log per step of the replay. */
    private static final int REPLAY_CHUNK_BYTES = 1 << 20;

    private ProducerStateLoader() {
    }

    /** What is done with each transaction a replayed marker ends (its abort indexed, if it is not already). */
    interface EndedTransactions {
        void accept(CompletedTxn txn) throws IOException;
    }

    static ProducerStateManager load(PartitionLog log, ProducerSnapshots snapshots, EndedTransactions ended)
            throws IOException {
        LogOffsetMetadata end = log.logEndMetadata();
        long endOffset = end.offset();
        long startOffset = log.logStartOffset();
        snapshots.deleteAbove(endOffset);
        ProducerStateManager state = null;
        for (long offset : snapshots.atOrBelowNewestFirst(endOffset)) {
            try {
                ProducerStateManager loaded = new ProducerStateManager(offset);
                for (ProducerSnapshotFile.Entry entry : snapshots.read(offset)) {
                    loaded.restore(entry);
                }
                state = loaded;
                break;
            } catch (IOException e) {
                LOG.warn("Deleting unreadable producer snapshot {}: {}", ProducerSnapshotFile.path(log.dir(), offset),
                        e.getMessage());
                snapshots.delete(offset);
            }
        }
        if (state == null) {
            state = new ProducerStateManager(startOffset);
        }
        long from = Math.max(state.mapEndOffset(), startOffset);
        int replayed = replay(log, state, from, end, ended);
        state.advanceTo(endOffset);
        LOG.info("Loaded producer state of {}: {} producers, {} batches replayed from offset {} to {}", log.dir(),
                state.producers().size(), replayed, from, endOffset);
        return state;
    }

    /** Applies the batches of [from, to) to {@code state}; returns how many were applied. */
    private static int replay(PartitionLog log, ProducerStateManager state, long from, LogOffsetMetadata to,
                              EndedTransactions ended) throws IOException {
        long next = from;
        int applied = 0;
        while (next < to.offset()) {
            FetchSlice slice = log.read(next, REPLAY_CHUNK_BYTES, to, true);
            if (slice.isEmpty()) {
                break;
            }
            BatchFileReader reader = new BatchFileReader(slice.channel(), slice.position(),
                    slice.position() + slice.lengthBytes());
            long before = next;
            while (reader.next() == BatchValidation.VALID) {
                RecordBatch batch = reader.batch();
                if (batch.lastOffset() >= next) {
                    CompletedTxn txn = state.replay(batch);
                    if (txn != null) {
                        ended.accept(txn);
                    }
                    next = batch.nextOffset();
                    applied++;
                }
            }
            if (next == before) {
                throw new IOException("Producer state replay of " + log.dir() + " is stuck at offset " + next);
            }
        }
        return applied;
    }
}

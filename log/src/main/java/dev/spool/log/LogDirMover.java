package dev.spool.log;

import dev.spool.log.record.RecordBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thread-safe: moves partition logs to other log dirs while they are written (AlterReplicaLogDirs, KIP-113), one
 * move at a time on a thread of its own. A move copies the current log's batches as they are (offsets, leader
 * epochs, producers) into a future log in the destination dir, as a follower copies its leader's, following what
 * happens to the current log meanwhile (its start moving up, a truncation after a leader change); once the copy
 * has caught up, its {@link Host} swaps it in under the current log's lock, after a last copy of what came since.
 */
final class LogDirMover implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LogDirMover.class);
    /** Bytes copied per step: the current log is read without its lock, so steps only bound the buffer. */
    private static final int COPY_BYTES = 1 << 20;

    /** What the mover needs of the logs' owner. */
    interface Host {
        /** The partition's current log, or null once it is gone (deleted). */
        PartitionLog current(TopicPartition partition);

        /** Takes the caught-up {@code future} in for {@code current} (see {@link #copyUntilCaughtUp}). */
        void complete(TopicPartition partition, PartitionLog current, PartitionLog future) throws IOException;
    }

    /** A move under way: the copy being made, and whether it was called off (the partition deleted, a stop). */
    static final class Move {
        final PartitionLog future;
        volatile boolean cancelled;

        Move(PartitionLog future) {
            this.future = future;
        }
    }

    private final Host host;
    private final Map<TopicPartition, Move> moves = new ConcurrentHashMap<>();
    private final ExecutorService thread = Executors.newSingleThreadExecutor(runnable -> {
        Thread mover = new Thread(runnable, "log-dir-mover");
        mover.setDaemon(true);
        return mover;
    });

    LogDirMover(Host host) {
        this.host = host;
    }

    /** Starts copying {@code partition}'s log into {@code future} (empty, in the destination dir). */
    void start(TopicPartition partition, PartitionLog future) {
        Move move = new Move(future);
        moves.put(partition, move);
        thread.execute(() -> run(partition, move));
    }

    /** The copies under way, by partition. */
    Map<TopicPartition, PartitionLog> futures() {
        Map<TopicPartition, PartitionLog> futures = new ConcurrentHashMap<>();
        moves.forEach((partition, move) -> futures.put(partition, move.future));
        return futures;
    }

    /** The copy of {@code partition} under way, or null. */
    PartitionLog future(TopicPartition partition) {
        Move move = moves.get(partition);
        return move == null ? null : move.future;
    }

    /** Calls the move of {@code partition} off; its copy is removed by the mover's thread. */
    void cancel(TopicPartition partition) {
        Move move = moves.get(partition);
        if (move != null) {
            move.cancelled = true;
        }
    }

    private void run(TopicPartition partition, Move move) {
        try {
            while (!move.cancelled) {
                PartitionLog current = host.current(partition);
                if (current == null) {
                    break;
                }
                if (copyStep(current, move.future) == 0) {
                    host.complete(partition, current, move.future);
                    moves.remove(partition, move);
                    return;
                }
            }
            LOG.info("The move of {} to {} was called off", partition, move.future.dir().getParent());
        } catch (IOException | RuntimeException e) {
            LOG.warn("The move of {} to {} failed; the replica stays where it was", partition,
                    move.future.dir().getParent(), e);
        }
        moves.remove(partition, move);
        abandon(move.future);
    }

    /**
     * Copies into {@code future} the batches of {@code current} that follow its end, until none is left. Called
     * by the host holding {@code current}'s lock, so that nothing is appended meanwhile, just before the swap.
     */
    static void copyUntilCaughtUp(PartitionLog current, PartitionLog future) throws IOException {
        while (copyStep(current, future) > 0) {
            // the next step starts where this one ended
        }
    }

    /** One step of a copy: follows the current log's start and truncations, then copies; bytes copied. */
    static int copyStep(PartitionLog current, PartitionLog future) throws IOException {
        long start = current.logStartOffset();
        if (future.logEndOffset() < start) {
            future.truncateFullyAndStartAt(start); // the current log deleted what was not copied yet
        }
        int copiedEpoch = future.leaderEpochs().latestEpoch();
        if (copiedEpoch >= 0) {
            // Kafka's divergence rule (KIP-101): a truncation of the current log since then shows as the copied
            // epoch ending earlier there.
            long epochEnd = current.leaderEpochs().endOffsetFor(copiedEpoch, current.logEndOffset());
            if (epochEnd >= 0 && epochEnd < future.logEndOffset()) {
                future.truncateTo(epochEnd);
            }
        }
        if (future.logEndOffset() > current.logEndOffset()) {
            future.truncateTo(current.logEndOffset());
        }
        FetchSlice slice;
        try {
            slice = current.read(future.logEndOffset(), COPY_BYTES);
        } catch (OffsetOutOfRangeException e) {
            return 1; // the current log's start moved past the copy's end meanwhile: the next step follows it
        }
        if (slice.isEmpty()) {
            return 0;
        }
        ByteBuffer batches = slice.readFully();
        int whole = RecordBatch.wholeBatchesLength(batches);
        if (whole == 0) {
            return 0;
        }
        batches.limit(batches.position() + whole);
        long baseOffset = batches.getLong(batches.position());
        if (baseOffset < future.logEndOffset() && future.logStartOffset() == future.logEndOffset()) {
            future.truncateFullyAndStartAt(baseOffset); // the log starts inside this batch: batches are kept whole
        }
        future.appendAsFollower(batches);
        return whole;
    }

    private static void abandon(PartitionLog future) {
        try {
            future.close();
            FileTrees.deleteRecursively(future.dir());
        } catch (IOException | RuntimeException e) {
            LOG.warn("Cannot remove {}, the copy of a move that did not finish (the next start removes it)",
                    future.dir(), e);
        }
    }

    /** Stops the copies under way and removes them (or, if that fails, the next start does: {@link MovedLogNames}). */
    @Override
    public void close() throws IOException {
        for (Move move : moves.values()) {
            move.cancelled = true;
        }
        thread.shutdown();
        try {
            if (!thread.awaitTermination(30, TimeUnit.SECONDS)) {
                LOG.warn("A log dir move did not stop within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

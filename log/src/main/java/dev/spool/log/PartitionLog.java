package dev.spool.log;

import dev.spool.log.index.AbortedTxn;
import dev.spool.log.producer.ActiveProducer;
import dev.spool.log.producer.ProducerSnapshots;
import dev.spool.log.producer.SequenceCheck;
import dev.spool.log.producer.UnstableOffsets;
import dev.spool.log.producer.VerificationGuard;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchLayout;
import dev.spool.log.record.TxnMarker;
import dev.spool.log.segment.LogSegment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Thread-safe: appends, truncation, roll, retention and flush are serialized by one lock per partition;
 * reads and offset lookups take no lock and see the log as of the last completed append.
 *
 * <p>The log of one partition: {@link LogSegment}s by base offset in a directory named
 * {@code <topic>-<partition>}, a log start offset, a log end offset (LEO), a high watermark set by the
 * caller, a recovery point (everything below it is fsynced), a {@link LeaderEpochCache} and the producer
 * state ({@link LogProducerState}): a leader's append checks an idempotent producer's sequence and records
 * it in the same locked step as the write, a follower's append records it, a roll snapshots it, a
 * truncation drops it to be reloaded, as Kafka's {@code UnifiedLog} does. Every I/O
 * error of an operation goes to the {@link IoErrorReporter} it was opened with (the {@link LogManager},
 * which may take the directory offline: {@link #markOffline()}) before it is thrown.
 */
public final class PartitionLog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionLog.class);

    private final Path dir;
    private final LogClock clock;
    private final ScheduledExecutorService scheduler;
    private final IoErrorReporter ioErrors;
    private final SegmentDeleter deleter;
    private final ReentrantLock lock = new ReentrantLock();
    private final ConcurrentNavigableMap<Long, LogSegment> segments = new ConcurrentSkipListMap<>();
    private final LeaderEpochCache leaderEpochs;
    private final LogProducerState producerState;
    private final RecordBatch appendBatch = new RecordBatch();
    private volatile LogConfig config;
    private volatile long logStartOffset;
    /** The log end offset and where it lies; replaced (under the lock) after each append or truncation. */
    private volatile LogOffsetMetadata logEnd;
    /** The high watermark and where it lies: what consumers may read stops here. */
    private volatile LogOffsetMetadata highWatermark;
    private volatile long recoveryPoint;
    private volatile long lastFlushMs;
    /** The lowest log end offset a truncation left since the cleaner last asked; guarded by lock. */
    private long lowestTruncationOffset = Long.MAX_VALUE;
    private long rollJitterMs;
    private boolean closed;
    /** Set (by any thread, without the lock) once the log directory failed: every operation then throws. */
    private volatile boolean offline;
    /** The log that took this one's place in another log dir (AlterReplicaLogDirs); set under the lock, once. */
    private volatile PartitionLog movedTo;

    private PartitionLog(Path dir, LogConfig config, LogClock clock, ScheduledExecutorService scheduler,
                         LeaderEpochCache leaderEpochs, IoErrorReporter ioErrors, ProducerSnapshots producerSnapshots,
                         long producerIdExpirationMs) {
        this.dir = dir;
        this.config = config;
        this.clock = clock;
        this.scheduler = scheduler;
        this.ioErrors = ioErrors;
        this.deleter = new SegmentDeleter(scheduler, this::reported);
        this.leaderEpochs = leaderEpochs;
        this.producerState = new LogProducerState(this, producerSnapshots, clock, producerIdExpirationMs);
        this.lastFlushMs = clock.nowMs();
        this.rollJitterMs = jitter(config);
    }

    /**
     * Opens (or creates) the partition directory {@code dir}, recovering it as {@code options} says.
     * {@code scheduler} runs the delayed removal of deleted segments and the flush after a roll.
     */
    public static PartitionLog open(Path dir, LogConfig config, LogClock clock, ScheduledExecutorService scheduler,
                                    LogLoadOptions options) throws IOException {
        return open(dir, config, clock, scheduler, options, IoErrorReporter.NONE);
    }

    /**
     * As {@link #open(Path, LogConfig, LogClock, ScheduledExecutorService, LogLoadOptions)}; every I/O error
     * an operation of this log hits from then on (append, roll, flush, truncation, deletion, read) is also
     * told to {@code ioErrors} with the log directory (the parent of {@code dir}) before it is thrown.
     */
    public static PartitionLog open(Path dir, LogConfig config, LogClock clock, ScheduledExecutorService scheduler,
                                    LogLoadOptions options, IoErrorReporter ioErrors) throws IOException {
        return open(dir, config, clock, scheduler, options, ioErrors, DEFAULT_PRODUCER_ID_EXPIRATION_MS);
    }

    /**
     * As {@link #open(Path, LogConfig, LogClock, ScheduledExecutorService, LogLoadOptions, IoErrorReporter)};
     * the producer state forgets a producer idle {@code producerIdExpirationMs} ({@code producer.id.expiration.ms}).
     */
    public static PartitionLog open(Path dir, LogConfig config, LogClock clock, ScheduledExecutorService scheduler,
                                    LogLoadOptions options, IoErrorReporter ioErrors, long producerIdExpirationMs)
            throws IOException {
        LogLoader.Loaded loaded = LogLoader.load(dir, config, clock, options);
        ProducerSnapshots producerSnapshots = new ProducerSnapshots(dir, loaded.producerSnapshotOffsets());
        PartitionLog log = new PartitionLog(dir, config, clock, scheduler, new LeaderEpochCache(dir), ioErrors,
                producerSnapshots, producerIdExpirationMs);
        log.segments.putAll(loaded.segments());
        log.publishLogEnd(loaded.logEndOffset());
        log.logStartOffset = Math.min(log.logEndOffset(), Math.max(options.logStartOffset(), loaded.segments().firstKey()));
        // As Kafka: past the log end only after a clean shutdown; a recovered log is not flushed (LogLoader).
        log.recoveryPoint = options.hadCleanShutdown() ? log.logEndOffset()
                : Math.min(options.recoveryPoint(), log.logEndOffset());
        log.highWatermark = log.logEnd;
        log.leaderEpochs.truncateFromEnd(log.logEndOffset());
        log.leaderEpochs.truncateFromStart(log.logStartOffset);
        // Recovery may have cut the log below snapshots taken before a crash: they describe batches that are
        // gone, and appends (a follower's, before any load) could grow the log past them again.
        producerSnapshots.deleteAbove(log.logEndOffset());
        LOG.info("Opened {}: {} segments, log start offset {}, log end offset {}", dir, log.segments.size(),
                log.logStartOffset, log.logEndOffset());
        return log;
    }

    /** Opens with nothing known about the last shutdown: every segment is validated. */
    public static PartitionLog open(Path dir, LogConfig config, LogClock clock, ScheduledExecutorService scheduler)
            throws IOException {
        return open(dir, config, clock, scheduler, LogLoadOptions.UNKNOWN);
    }

    /** Kafka's default {@code producer.id.expiration.ms}: one day. */
    public static final long DEFAULT_PRODUCER_ID_EXPIRATION_MS = 86_400_000L;

    private static long jitter(LogConfig config) {
        return config.segmentJitterMs == 0 ? 0 : ThreadLocalRandom.current().nextLong(config.segmentJitterMs);
    }

    // ---------------------------------------------------------------- append

    /**
     * Appends batches from a producer: assigns offsets from the log end offset, writes
     * {@code leaderEpoch} into each batch, and under LogAppendTime stamps the time (rewriting the CRC);
     * all in place in {@code batches} (position to limit: whole batches the caller validated), which are
     * then written as they are. The high watermark stays where it is.
     *
     * <p>A batch with a producer id (at most one per append, as a Produce request since v3 carries one batch)
     * is first checked against the producer state (loaded now if it was not): a retry of one of the producer's
     * last five batches appends nothing and answers {@link SequenceCheck#DUPLICATE} with the original's offsets;
     * a stale epoch or a sequence gap appends nothing and answers the error (see {@link AppendInfo#outcome()}).
     */
    public AppendInfo appendAsLeader(ByteBuffer batches, int leaderEpoch) throws IOException {
        return appendAsLeader(batches, leaderEpoch, false);
    }

    /**
     * As {@link #appendAsLeader(ByteBuffer, int)}; with {@code commit} (the leader's in-sync replica set is
     * the leader alone) the high watermark moves to the new log end offset in the same step.
     */
    public AppendInfo appendAsLeader(ByteBuffer batches, int leaderEpoch, boolean commit) throws IOException {
        return appendAsLeader(batches, leaderEpoch, commit, VerificationGuard.NOT_CHECKED);
    }

    /**
     * As {@link #appendAsLeader(ByteBuffer, int, boolean)}, for a client's batch under transaction verification
     * (KIP-890): a transactional batch that would open its producer's transaction here is written only with the
     * {@code guard} {@link #startVerification} gave before the coordinator was asked, if no marker or other batch of
     * the producer came in between; else nothing is written and the answer is
     * {@link SequenceCheck#INVALID_TXN_STATE}. {@link VerificationGuard#NOT_CHECKED} skips the rule.
     */
    public AppendInfo appendAsLeader(ByteBuffer batches, int leaderEpoch, boolean commit, VerificationGuard guard)
            throws IOException {
        lock.lock();
        try {
            return appendAsLeaderLocked(batches, leaderEpoch, commit, true, true, guard);
        } finally {
            lock.unlock();
        }
    }

    /**
     * A coordinator's own append (a group coordinator's transactional offset commits, on the producer's id and epoch
     * with no sequence): as {@link #appendAsLeader(ByteBuffer, int, boolean)} without the sequence check, which is a
     * client's (Kafka's coordinator origin); an epoch older than the producer's is still INVALID_PRODUCER_EPOCH, and the
     * batch opens the producer's transaction here.
     */
    public AppendInfo appendAsCoordinator(ByteBuffer batches, int leaderEpoch, boolean commit) throws IOException {
        lock.lock();
        try {
            return appendAsLeaderLocked(batches, leaderEpoch, commit, true, false, VerificationGuard.NOT_CHECKED);
        } finally {
            lock.unlock();
        }
    }

    /**
     * As {@link #appendAsLeader(ByteBuffer, int, boolean)}, but only if the append cannot wait on
     * anything but its write to the page cache, so that a network thread may do it: returns null, having
     * written nothing, if another thread holds the partition's lock, if the producer state is not loaded yet
     * (loading reads the log), or if the append would roll a new segment (creating files and a producer
     * snapshot), record a new leader epoch (writing its checkpoint file) or fsync under
     * {@code flush.messages}. {@code batches} are then as they were.
     */
    public AppendInfo tryAppendAsLeader(ByteBuffer batches, int leaderEpoch, boolean commit) throws IOException {
        return tryAppendAsLeader(batches, leaderEpoch, commit, VerificationGuard.NOT_CHECKED);
    }

    /** {@link #tryAppendAsLeader(ByteBuffer, int, boolean)} under transaction verification, with {@code guard}. */
    public AppendInfo tryAppendAsLeader(ByteBuffer batches, int leaderEpoch, boolean commit, VerificationGuard guard)
            throws IOException {
        if (!lock.tryLock()) {
            return null;
        }
        try {
            return appendAsLeaderLocked(batches, leaderEpoch, commit, false, true, guard);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The append of the methods above, called holding the lock. The config is read once: a change
     * made meanwhile cannot make the refused roll or fsync happen after all.
     */
    private AppendInfo appendAsLeaderLocked(ByteBuffer batches, int leaderEpoch, boolean commit, boolean mayWait,
                                            boolean checkProducer, VerificationGuard guard) throws IOException {
        try {
            ensureOpen();
            if (!producerState.isLoaded()) {
                if (!mayWait) {
                    return null;
                }
                producerState.ensureLoaded();
            }
            LogConfig config = this.config;
            long nowMs = clock.nowMs();
            boolean logAppendTime = config.logAppendTime;
            long firstOffset = logEnd.offset();
            long nextOffset = firstOffset;
            long maxTimestamp = RecordBatchLayout.NO_TIMESTAMP;
            int batchCount = 0;
            int idempotentPosition = -1;
            for (int position = batches.position(); position < batches.limit(); position += appendBatch.sizeInBytes()) {
                checkWholeBatch(batches, position);
                appendBatch.wrap(batches, position);
                nextOffset += appendBatch.lastOffsetDelta() + 1L;
                maxTimestamp = Math.max(maxTimestamp, logAppendTime ? nowMs : appendBatch.maxTimestamp());
                batchCount++;
                if (LogProducerState.isIdempotent(appendBatch)) {
                    if (idempotentPosition >= 0) {
                        // The check of a second batch would need the first one recorded: Kafka refuses this too.
                        throw new IllegalArgumentException("More than one batch with a producer id in an append to "
                                + dir);
                    }
                    idempotentPosition = position;
                }
            }
            if (batchCount == 0) {
                throw new IllegalArgumentException("No batch to append to " + dir);
            }
            if (idempotentPosition >= 0) {
                appendBatch.wrap(batches, idempotentPosition);
                // A coordinator's batch on the producer's behalf has no sequence, but a fenced epoch is still refused.
                SequenceCheck check = checkProducer ? producerState.check(appendBatch)
                        : producerState.checkEpoch(appendBatch);
                if (check != SequenceCheck.APPEND) {
                    return producerState.refusal(check, appendBatch, logAppendTime, logStartOffset);
                }
                AppendInfo unverified = producerState.verificationRefusal(appendBatch, guard);
                if (unverified != null) {
                    return unverified;
                }
            }
            if (!mayWait && (leaderEpochs.isNew(leaderEpoch) || mustFlush(config, nextOffset)
                    || mustRoll(config, batches.remaining(), firstOffset, nextOffset - 1, maxTimestamp, nowMs))) {
                return null;
            }
            // Only now, when the append will happen, are the batches rewritten.
            long offset = firstOffset;
            for (int position = batches.position(); position < batches.limit(); position += appendBatch.sizeInBytes()) {
                appendBatch.wrap(batches, position);
                appendBatch.setBaseOffset(offset);
                appendBatch.setPartitionLeaderEpoch(leaderEpoch);
                if (logAppendTime) {
                    appendBatch.setLogAppendTime(nowMs);
                }
                offset = appendBatch.nextOffset();
            }
            leaderEpochs.maybeAssign(leaderEpoch, firstOffset);
            int size = write(config, batches, firstOffset, nextOffset - 1, maxTimestamp, nowMs);
            if (commit) {
                highWatermark = logEnd;
            }
            return new AppendInfo(firstOffset, nextOffset - 1, maxTimestamp, logAppendTime ? nowMs : -1,
                    logStartOffset, batchCount, size);
        } catch (IOException e) {
            throw reported(e);
        }
    }

    /**
     * Writes the marker ending producer {@code producerId}'s transaction (WriteTxnMarkers, from its transaction
     * coordinator at {@code coordinatorEpoch}) as a leader's append in {@code leaderEpoch}, unless the producer
     * state refuses it: a marker of an epoch older than the producer's, or from an older coordinator than its last
     * marker's, writes nothing and answers the error ({@link AppendInfo#outcome()}). With {@code commit} the high
     * watermark moves to the new log end offset in the same step (the leader alone is the in-sync replica set).
     * The rules of transactions v1; see the other overload for v2's.
     */
    public AppendInfo appendTxnMarker(long producerId, short producerEpoch, int coordinatorEpoch, boolean commitTxn,
                                      int leaderEpoch, boolean commit) throws IOException {
        return appendTxnMarker(producerId, producerEpoch, coordinatorEpoch, commitTxn, false, leaderEpoch, commit);
    }

    /**
     * As {@link #appendTxnMarker(long, short, int, boolean, int, boolean)}; with {@code epochBumped} (the marker of a
     * transactions v2 producer, whose coordinator bumped its epoch at the end: WriteTxnMarkers v2, KIP-1228) the
     * marker's epoch must be above the one the producer's transaction was written with: a repeat of the marker last
     * written is answered as a duplicate ({@link SequenceCheck#DUPLICATE}, nothing written), and one at the epoch of a
     * transaction open here is refused, since it would end the wrong transaction.
     */
    public AppendInfo appendTxnMarker(long producerId, short producerEpoch, int coordinatorEpoch, boolean commitTxn,
                                      boolean epochBumped, int leaderEpoch, boolean commit) throws IOException {
        lock.lock();
        try {
            ensureOpen();
            producerState.ensureLoaded();
            AppendInfo refusal = producerState.markerRefusal(producerId, producerEpoch, coordinatorEpoch, epochBumped);
            if (refusal != null) {
                return refusal;
            }
            ByteBuffer marker = new TxnMarker(commitTxn, coordinatorEpoch).toBatch(producerId, producerEpoch,
                    clock.nowMs());
            return appendAsLeaderLocked(marker, leaderEpoch, commit, true, true, VerificationGuard.NOT_CHECKED);
        } catch (IOException e) {
            throw reported(e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Appends batches copied from a leader, keeping their offsets and epochs; the first must start at or
     * after the log end offset and offsets must increase (gaps left by compaction are allowed). Each batch's
     * producer (from its header) is recorded in the producer state, unchecked: the leader checked it.
     */
    public AppendInfo appendAsFollower(ByteBuffer batches) throws IOException {
        lock.lock();
        try {
            ensureOpen();
            producerState.ensureLoaded();
            long expected = logEnd.offset();
            long firstOffset = -1;
            long maxTimestamp = RecordBatchLayout.NO_TIMESTAMP;
            int batchCount = 0;
            for (int position = batches.position(); position < batches.limit(); position += appendBatch.sizeInBytes()) {
                checkWholeBatch(batches, position);
                appendBatch.wrap(batches, position);
                if (appendBatch.baseOffset() < expected) {
                    throw new IllegalArgumentException("Batch base offset " + appendBatch.baseOffset()
                            + " is below the next expected offset " + expected + " of " + dir);
                }
                if (firstOffset < 0) {
                    firstOffset = appendBatch.baseOffset();
                }
                leaderEpochs.maybeAssign(appendBatch.partitionLeaderEpoch(), appendBatch.baseOffset());
                expected = appendBatch.nextOffset();
                maxTimestamp = Math.max(maxTimestamp, appendBatch.maxTimestamp());
                batchCount++;
            }
            if (batchCount == 0) {
                throw new IllegalArgumentException("No batch to append to " + dir);
            }
            int size = write(config, batches, firstOffset, expected - 1, maxTimestamp, clock.nowMs());
            return new AppendInfo(firstOffset, expected - 1, maxTimestamp, -1, logStartOffset, batchCount, size);
        } catch (IOException e) {
            throw reported(e);
        } finally {
            lock.unlock();
        }
    }

    private void checkWholeBatch(ByteBuffer batches, int position) {
        int size = RecordBatch.sizeAt(batches, position);
        if (size < RecordBatchLayout.HEADER_SIZE_BYTES || position + size > batches.limit()) {
            throw new IllegalArgumentException("Bytes at " + position + " of the append (limit " + batches.limit()
                    + ") are not a whole batch (size " + size + ") for " + dir);
        }
    }

    private int write(LogConfig config, ByteBuffer batches, long firstOffset, long lastOffset, long maxTimestamp,
                      long nowMs) throws IOException {
        int size = batches.remaining();
        LogSegment active = mustRoll(config, size, firstOffset, lastOffset, maxTimestamp, nowMs)
                ? rollAt(firstOffset) : segments.lastEntry().getValue();
        try {
            active.append(batches);
        } catch (IOException e) {
            // Nothing was written: the epochs this append started must not claim offsets the log does not hold.
            try {
                leaderEpochs.truncateFromEnd(firstOffset);
            } catch (IOException alsoFailed) {
                e.addSuppressed(alsoFailed);
            }
            throw e;
        }
        publishLogEnd(lastOffset + 1);
        recordProducers(batches);
        if (mustFlush(config, lastOffset + 1)) {
            flushUpTo(lastOffset + 1);
        }
        return size;
    }

    /** Records each written batch in the producer state (before a flush that may fail: the batches are in). */
    private void recordProducers(ByteBuffer batches) throws IOException {
        for (int position = batches.position(); position < batches.limit(); position += appendBatch.sizeInBytes()) {
            producerState.onAppended(appendBatch.wrap(batches, position));
        }
    }

    /** flush.messages: whether the log must be fsynced once it ends at {@code newLogEndOffset}. */
    private boolean mustFlush(LogConfig config, long newLogEndOffset) {
        return newLogEndOffset - recoveryPoint >= config.flushMessages;
    }

    /** Whether appending these batches needs a new active segment first (called holding the lock). */
    private boolean mustRoll(LogConfig config, int size, long firstOffset, long lastOffset, long maxTimestamp,
                             long nowMs) {
        LogSegment active = segments.lastEntry().getValue();
        return active.shouldRoll(config, size, lastOffset, maxTimestamp, nowMs, rollJitterMs)
                || firstOffset - active.baseOffset() > Integer.MAX_VALUE;
    }

    // ---------------------------------------------------------------- read

    /**
     * The file region holding batches from the one containing {@code fromOffset}, at most {@code maxBytes} (but
     * one whole first batch if {@code minOneBatch}), stopping at {@code upTo}: the high watermark for consumers,
     * the log end offset for followers, each taken once by the caller ({@link #highWatermarkMetadata()},
     * {@link #logEndMetadata()}). The bound's position, not the segment's size read later, ends the region, so
     * a batch appended meanwhile is never in it.
     *
     * @throws OffsetOutOfRangeException if fromOffset is below the log start or above the log end offset
     */
    public FetchSlice read(long fromOffset, int maxBytes, LogOffsetMetadata upTo, boolean minOneBatch)
            throws IOException {
        ensureOnline("Read");
        try {
            return readUnchecked(fromOffset, maxBytes, upTo, minOneBatch);
        } catch (IOException e) {
            throw reported(e);
        }
    }

    private FetchSlice readUnchecked(long fromOffset, int maxBytes, LogOffsetMetadata upTo, boolean minOneBatch)
            throws IOException {
        LogOffsetMetadata end = logEnd;
        long startOffset = logStartOffset;
        if (fromOffset < startOffset || fromOffset > end.offset()) {
            throw new OffsetOutOfRangeException("Offset " + fromOffset + " is outside [" + startOffset + ", "
                    + end.offset() + "] of " + dir);
        }
        LogOffsetMetadata bound = upTo.offset() <= end.offset() ? upTo : end; // a truncation since upTo was taken
        Map.Entry<Long, LogSegment> entry = segments.floorEntry(fromOffset);
        while (fromOffset < bound.offset() && entry != null && entry.getKey() <= bound.segmentBaseOffset()) {
            LogSegment segment = entry.getValue();
            // A segment before the bound's was inactive when the bound was taken: its size no longer changes.
            int endPosition = entry.getKey() == bound.segmentBaseOffset() ? bound.position() : segment.sizeInBytes();
            int position = segment.translateOffset(fromOffset, endPosition);
            if (position >= 0) {
                int available = endPosition - position;
                if (available <= 0) {
                    break;
                }
                int length = Math.min(maxBytes, available);
                if (minOneBatch && length < available) {
                    ByteBuffer header = LogSegment.newHeaderBuffer();
                    if (segment.readHeader(position, header)) {
                        int firstBatchSize = RecordBatchLayout.LOG_OVERHEAD_BYTES
                                + header.getInt(RecordBatchLayout.BATCH_LENGTH_OFFSET);
                        length = Math.max(length, Math.min(firstBatchSize, available));
                    }
                }
                return new FetchSlice(segment.channel(), segment.logPath(), position, length, fromOffset);
            }
            entry = segments.higherEntry(entry.getKey());
        }
        return FetchSlice.empty(fromOffset);
    }

    /** {@link #read(long, int, LogOffsetMetadata, boolean)} up to the log end offset, at least one batch. */
    public FetchSlice read(long fromOffset, int maxBytes) throws IOException {
        return read(fromOffset, maxBytes, logEnd, true);
    }

    // ---------------------------------------------------------------- offsets

    /**
     * ListOffsets: {@link TimestampOffset#EARLIEST_TIMESTAMP} (and EARLIEST_LOCAL), LATEST,
     * MAX_TIMESTAMP (the record with the largest timestamp), or the first record whose timestamp is
     * >= {@code timestampMs}; {@link TimestampOffset#NOT_FOUND} when none is.
     */
    public TimestampOffset offsetForTimestamp(long timestampMs) throws IOException {
        ensureOnline("Offset lookup");
        try {
            return offsetForTimestampUnchecked(timestampMs);
        } catch (IOException e) {
            throw reported(e);
        }
    }

    private TimestampOffset offsetForTimestampUnchecked(long timestampMs) throws IOException {
        long startOffset = logStartOffset;
        if (timestampMs == TimestampOffset.EARLIEST_TIMESTAMP || timestampMs == TimestampOffset.EARLIEST_LOCAL_TIMESTAMP) {
            return new TimestampOffset(-1, startOffset, leaderEpochs.epochForOffset(startOffset));
        }
        if (timestampMs == TimestampOffset.LATEST_TIMESTAMP) {
            long end = logEnd.offset();
            return new TimestampOffset(-1, end, leaderEpochs.latestEpoch());
        }
        List<LogSegment> snapshot = new ArrayList<>(segments.values());
        if (timestampMs == TimestampOffset.MAX_TIMESTAMP) {
            // Largest segment maxima first; only the first segment can hold records below the log start,
            // so the search stops at the first segment whose maximum cannot beat what was found.
            snapshot.sort(Comparator.comparingLong(LogSegment::maxTimestampSoFar).reversed()
                    .thenComparingLong(LogSegment::baseOffset));
            Record best = null;
            for (LogSegment segment : snapshot) {
                if (segment.sizeInBytes() == 0 || (best != null && segment.maxTimestampSoFar() <= best.timestamp())) {
                    continue;
                }
                Record candidate = segment.findMaxTimestampRecord(startOffset);
                if (candidate != null && (best == null || candidate.timestamp() > best.timestamp())) {
                    best = candidate;
                }
            }
            return found(best);
        }
        if (timestampMs < 0) {
            throw new IllegalArgumentException("Unknown special timestamp " + timestampMs);
        }
        for (LogSegment segment : snapshot) {
            Record record = segment.findFirstRecordAtOrAfter(timestampMs, startOffset);
            if (record != null) {
                return found(record);
            }
        }
        return TimestampOffset.NOT_FOUND;
    }

    private TimestampOffset found(Record record) {
        return record == null ? TimestampOffset.NOT_FOUND
                : new TimestampOffset(record.timestamp(), record.offset(), leaderEpochs.epochForOffset(record.offset()));
    }

    // ---------------------------------------------------------------- truncation and deletion

    /**
     * Removes every batch whose last offset is >= {@code offset} (replication: a follower's log diverged).
     * The log end offset becomes {@code offset}, or the base offset of a batch that straddled it.
     */
    public void truncateTo(long offset) throws IOException {
        lock.lock();
        try {
            ensureOpen();
            if (offset >= logEnd.offset()) {
                return;
            }
            if (offset <= segments.firstKey() || offset < logStartOffset) {
                truncateFullyAndStartAt(offset);
                return;
            }
            List<LogSegment> removed = new ArrayList<>(segments.tailMap(offset, true).values());
            for (LogSegment segment : removed) {
                segments.remove(segment.baseOffset());
            }
            LogSegment last = segments.lastEntry().getValue();
            long firstRemovedBase = last.truncateTo(offset);
            long newEnd = firstRemovedBase >= 0 ? Math.min(offset, firstRemovedBase) : offset;
            if (!removed.isEmpty()) {
                last.resizeIndexes(config.segmentIndexBytes);
            }
            deleteAsync(removed);
            publishLogEnd(newEnd);
            afterTruncation(newEnd);
            producerState.onTruncated(newEnd);
            LOG.info("Truncated {} to offset {} (log end offset now {})", dir, offset, newEnd);
        } catch (IOException e) {
            throw reported(e);
        } finally {
            lock.unlock();
        }
    }

    /** Deletes every segment and starts the log empty at {@code offset} (log start = end = offset). */
    public void truncateFullyAndStartAt(long offset) throws IOException {
        lock.lock();
        try {
            ensureOpen();
            List<LogSegment> removed = new ArrayList<>(segments.values());
            segments.clear();
            deleteAsync(removed);
            segments.put(offset, LogSegment.create(dir, offset, config, clock.nowMs()));
            publishLogEnd(offset);
            logStartOffset = offset;
            afterTruncation(offset);
            leaderEpochs.truncateFromStart(offset);
            producerState.onTruncatedFully();
        } catch (IOException e) {
            throw reported(e);
        } finally {
            lock.unlock();
        }
    }

    private void afterTruncation(long newEnd) throws IOException {
        lowestTruncationOffset = Math.min(lowestTruncationOffset, newEnd);
        recoveryPoint = Math.min(recoveryPoint, newEnd);
        if (highWatermark.offset() >= newEnd || !segments.containsKey(highWatermark.segmentBaseOffset())) {
            highWatermark = logEnd;
        }
        logStartOffset = Math.min(logStartOffset, newEnd);
        leaderEpochs.truncateFromEnd(newEnd);
    }

    /**
     * DeleteRecords: moves the log start offset up to {@code offset} (at most the high watermark) and
     * deletes the segments now wholly below it. Returns the new log start offset (the low watermark).
     */
    public long deleteRecordsBefore(long offset) throws IOException {
        lock.lock();
        try {
            ensureOpen();
            if (offset > highWatermark.offset()) {
                throw new OffsetOutOfRangeException("Cannot delete records before " + offset + ": above the high watermark "
                        + highWatermark.offset() + " of " + dir);
            }
            if (offset > logStartOffset) {
                logStartOffset = offset;
                leaderEpochs.truncateFromStart(offset);
                deleteSegments(RetentionPolicy.belowLogStart(offset));
                producerState.onLogStartMoved(logStartOffset);
            }
            return logStartOffset;
        } catch (IOException e) {
            throw reported(e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Retention (run every log.retention.check.interval.ms): deletes the oldest segments whose largest
     * timestamp is older than retention.ms, then while the log exceeds retention.bytes, then those below
     * the log start offset. Only segments wholly below the high watermark go; the active segment only if
     * it is not empty (a new one is rolled first). Returns the number of segments deleted.
     */
    public int deleteOldSegments() throws IOException {
        lock.lock();
        try {
            ensureOpen();
            int deleted = 0;
            LogConfig current = config;
            if (current.delete && current.retentionMs >= 0) {
                deleted += deleteSegments(RetentionPolicy.olderThan(clock.nowMs(), current.retentionMs));
            }
            if (current.delete && current.retentionBytes >= 0) {
                deleted += deleteSegments(RetentionPolicy.beyondSize(sizeInBytes(), current.retentionBytes));
            }
            deleted += deleteSegments(RetentionPolicy.belowLogStart(logStartOffset));
            return deleted;
        } catch (IOException e) {
            throw reported(e);
        } finally {
            lock.unlock();
        }
    }

    private int deleteSegments(RetentionPolicy.SegmentPredicate predicate) throws IOException {
        List<LogSegment> all = new ArrayList<>(segments.values());
        int count = RetentionPolicy.deletableCount(all, logEndOffset(), highWatermark.offset(), predicate);
        if (count == 0) {
            return 0;
        }
        if (count == all.size()) {
            rollAt(logEndOffset());
        }
        List<LogSegment> deletable = all.subList(0, count);
        for (LogSegment segment : deletable) {
            segments.remove(segment.baseOffset());
        }
        logStartOffset = Math.max(logStartOffset, segments.firstKey());
        leaderEpochs.truncateFromStart(logStartOffset);
        producerState.onLogStartMoved(logStartOffset);
        deleteAsync(deletable);
        LOG.info("Deleted {} segments of {}; log start offset now {}", count, dir, logStartOffset);
        return count;
    }

    private void deleteAsync(List<LogSegment> removed) throws IOException {
        deleter.deleteAsync(removed, config.fileDeleteDelayMs);
    }

    // ---------------------------------------------------------------- compaction swap

    /**
     * Swaps a compacted segment in for {@code oldSegments} (consecutive, inactive, the first with the same
     * base offset as {@code cleaned}, whose files are complete, fsynced and named {@code .cleaned}).
     * Crash-safe at every step (recovery in {@link LogLoader}): the cleaned files become {@code .swap},
     * the old segments {@code .deleted} (removed after file.delete.delay.ms, so readers finish), then the
     * swap takes the plain names. Holds the partition lock only for these renames. Returns false, changing
     * nothing, if the log moved on meanwhile (an old segment was deleted or truncated, or the log closed).
     */
    public boolean replaceSegments(List<LogSegment> oldSegments, LogSegment cleaned) throws IOException {
        lock.lock();
        try {
            if (closed || offline || oldSegments.isEmpty() || oldSegments.get(0).baseOffset() != cleaned.baseOffset()) {
                return false;
            }
            for (LogSegment old : oldSegments) {
                if (segments.get(old.baseOffset()) != old || segments.lastEntry().getValue() == old) {
                    return false;
                }
            }
            cleaned.renameFiles(LogFileNames.SWAP_SUFFIX);
            syncDirectory();
            segments.put(cleaned.baseOffset(), cleaned);
            for (LogSegment old : oldSegments) {
                if (old.baseOffset() != cleaned.baseOffset()) {
                    segments.remove(old.baseOffset());
                }
            }
            deleteAsync(oldSegments);
            cleaned.renameFiles("");
            syncDirectory();
            return true;
        } catch (IOException e) {
            throw reported(e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The lowest log end offset left by a truncation since the last call (Long.MAX_VALUE if none), and
     * forgets it: the cleaner moves its first dirty offset back there, since offsets above it were rewritten.
     */
    public long takeLowestTruncationOffset() {
        lock.lock();
        try {
            long offset = lowestTruncationOffset;
            lowestTruncationOffset = Long.MAX_VALUE;
            return offset;
        } finally {
            lock.unlock();
        }
    }

    private void syncDirectory() throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    // ---------------------------------------------------------------- roll and flush

    /** Rolls a new active segment at the log end offset (if the active one is not empty). */
    public void roll() throws IOException {
        lock.lock();
        try {
            ensureOpen();
            rollAt(logEndOffset());
        } catch (IOException e) {
            throw reported(e);
        } finally {
            lock.unlock();
        }
    }

    private LogSegment rollAt(long baseOffset) throws IOException {
        LogSegment active = segments.lastEntry().getValue();
        if (active.sizeInBytes() == 0 && active.baseOffset() == baseOffset) {
            return active;
        }
        producerState.onRoll(baseOffset);
        if (active.sizeInBytes() == 0) {
            segments.remove(active.baseOffset());
            deleteAsync(List.of(active));
        } else {
            active.onBecomeInactive();
        }
        LogSegment created = LogSegment.create(dir, baseOffset, config, clock.nowMs());
        segments.put(baseOffset, created);
        if (baseOffset == logEnd.offset()) {
            // The old segment may be deleted next (retention of every segment): the offsets move to the new one.
            boolean highWatermarkAtEnd = highWatermark.offset() == baseOffset;
            publishLogEnd(baseOffset);
            if (highWatermarkAtEnd) {
                highWatermark = logEnd;
            }
        }
        rollJitterMs = jitter(config);
        LOG.info("Rolled a new segment of {} at offset {} (previous segment {} bytes)", dir, baseOffset,
                active.sizeInBytes());
        if (active.sizeInBytes() > 0) {
            // Kafka flushes a rolled segment in the background, so an append never waits for its fsync.
            scheduler.execute(() -> {
                try {
                    flushUpTo(baseOffset);
                } catch (IOException e) {
                    // Nobody waits for this flush: the error goes to the log manager (which takes the dir offline).
                    LOG.error("Cannot flush {} up to {}", dir, baseOffset, reported(e));
                }
            });
        }
        return created;
    }

    /** fsyncs everything appended so far and moves the recovery point to the log end offset. */
    public void flush() throws IOException {
        ensureOnline("Flush");
        try {
            flushUpTo(logEndOffset());
        } catch (IOException e) {
            throw reported(e);
        }
    }

    /** flush.ms: flushes if that long has passed since the last flush (called by the log manager's timer). */
    public void maybeFlushByTime() throws IOException {
        if (config.flushMs != Long.MAX_VALUE && clock.nowMs() - lastFlushMs >= config.flushMs
                && logEndOffset() > recoveryPoint) {
            flush();
        }
    }

    private void flushUpTo(long offset) throws IOException {
        if (offset <= recoveryPoint || offline) {
            return;
        }
        Map.Entry<Long, LogSegment> first = segments.floorEntry(recoveryPoint);
        long from = first == null ? recoveryPoint : first.getKey();
        for (LogSegment segment : segments.subMap(from, true, offset, false).values()) {
            Long next = segments.higherKey(segment.baseOffset());
            // indexes only for segments the recovery point passes entirely: recovery trusts those
            segment.flush(next != null && next <= offset);
        }
        lock.lock();
        try {
            recoveryPoint = Math.max(recoveryPoint, Math.min(offset, logEndOffset()));
            lastFlushMs = clock.nowMs();
        } finally {
            lock.unlock();
        }
    }

    // ---------------------------------------------------------------- producer state

    /**
     * DescribeProducers: the idempotent producers of this partition as of the last append, the expired ones
     * forgotten first. Loads the producer state if nothing did yet (reads the log: not for a network thread).
     */
    public List<ActiveProducer> activeProducers() throws IOException {
        lock.lock();
        try {
            ensureOpen();
            return producerState.activeProducers();
        } catch (IOException e) {
            throw reported(e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The periodic check ({@code producer.id.expiration.check.interval.ms}): forgets producers idle longer than
     * {@code producer.id.expiration.ms}. Returns how many; none while the state is not loaded.
     */
    public int removeExpiredProducers() {
        lock.lock();
        try {
            if (closed || offline) {
                return 0;
            }
            int removed = producerState.removeExpired();
            if (removed > 0) {
                LOG.info("Removed {} expired producers of {}", removed, dir);
            }
            return removed;
        } finally {
            lock.unlock();
        }
    }

    /** At clean close: the snapshot from which the next start rebuilds each producer's cached batches. */
    private void writeProducerSnapshotAtClose() {
        try {
            producerState.onClose(logEndOffset(), activeSegmentBaseOffset());
        } catch (IOException e) {
            // The log closes anyway: without this snapshot the next start replays from an older one.
            LOG.error("Cannot write the shutdown producer snapshot of {}", dir, e);
        }
    }

    // ---------------------------------------------------------------- state

    public long logStartOffset() {
        return logStartOffset;
    }

    public long logEndOffset() {
        return logEnd.offset();
    }

    /** The base offset of the active segment (the last one), or -1 if the log has none (it is closed). */
    public long activeSegmentBaseOffset() {
        Map.Entry<Long, LogSegment> active = segments.lastEntry();
        return active == null ? -1 : active.getKey();
    }

    public long highWatermark() {
        return highWatermark.offset();
    }

    /**
     * The last stable offset: the first offset of the oldest transaction still open or not yet replicated, else
     * the high watermark. A read_committed reader reads below it. -1 while unknown: the producer state is not
     * loaded ({@link #loadProducerState()}).
     */
    public long lastStableOffset() {
        // The high watermark first: read after the transactions, it could have passed one appended meanwhile.
        long highWatermark = this.highWatermark.offset();
        UnstableOffsets unstable = producerState.unstable();
        return unstable == null ? -1 : unstable.lastStableOffset(highWatermark);
    }

    /** {@link #lastStableOffset()} with its position (the bound of a read_committed read), or null while unknown. */
    public LogOffsetMetadata lastStableOffsetMetadata() throws IOException {
        LogOffsetMetadata highWatermark = this.highWatermark;
        UnstableOffsets unstable = producerState.unstable();
        if (unstable == null) {
            return null;
        }
        long lastStable = unstable.lastStableOffset(highWatermark.offset());
        if (lastStable == highWatermark.offset()) {
            return highWatermark;
        }
        // A transaction's first batch: below the high watermark, in a segment that no longer changes before it.
        Map.Entry<Long, LogSegment> entry = segments.floorEntry(lastStable);
        if (entry == null) {
            return new LogOffsetMetadata(lastStable, lastStable, 0); // retention or a truncation passed it
        }
        LogSegment segment = entry.getValue();
        int size = segment.sizeInBytes();
        int position = segment.translateOffset(lastStable, size);
        return new LogOffsetMetadata(lastStable, segment.baseOffset(), position >= 0 ? position : size);
    }

    /**
     * A leader is about to ask {@code producerId}'s transaction coordinator whether this partition is in its
     * transaction, for a batch that would open it here: the guard that batch must then be appended with (see
     * {@link #appendAsLeader(ByteBuffer, int, boolean, VerificationGuard)}). Any thread, without the lock.
     */
    public VerificationGuard startVerification(long producerId) {
        return producerState.startVerification(producerId);
    }

    /**
     * Whether producer {@code producerId} has a transaction open in this log at epoch {@code producerEpoch}, as of
     * the last append; false when not known: the producer state is not loaded, or the lock is busy (a network thread
     * asks, and must not wait for a roll or a flush).
     */
    public boolean hasOpenTransaction(long producerId, short producerEpoch) {
        if (!lock.tryLock()) {
            return false;
        }
        try {
            return producerState.hasOpenTransaction(producerId, producerEpoch);
        } finally {
            lock.unlock();
        }
    }

    /** Loads the producer state if it is not loaded yet (it reads the log: not on a network thread). */
    public void loadProducerState() throws IOException {
        lock.lock();
        try {
            ensureOpen();
            producerState.ensureLoaded();
        } catch (IOException e) {
            throw reported(e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The transactions aborted in this log that overlap [{@code fromOffset}, {@code upToOffset}) (their markers at
     * or after fromOffset, their first records below upToOffset), oldest marker first: what a read_committed
     * reader of that range must drop.
     */
    public List<AbortedTxn> abortedTransactions(long fromOffset, long upToOffset) throws IOException {
        List<AbortedTxn> aborted = new ArrayList<>();
        Map.Entry<Long, LogSegment> start = segments.floorEntry(fromOffset);
        for (LogSegment segment : segments.tailMap(start == null ? fromOffset : start.getKey(), true).values()) {
            try {
                if (segment.txnIndex().collect(fromOffset, upToOffset, aborted)) {
                    break;
                }
            } catch (IOException e) {
                throw reported(e);
            }
        }
        return aborted;
    }

    /** The segment that holds {@code offset} (called holding the lock). */
    LogSegment segmentHolding(long offset) {
        return segments.floorEntry(offset).getValue();
    }

    /** The high watermark with its position: the bound of a consumer's read, taken once per read. */
    public LogOffsetMetadata highWatermarkMetadata() {
        return highWatermark;
    }

    /** The log end offset with its position: the bound of a follower's read, or a replay's. */
    public LogOffsetMetadata logEndMetadata() {
        return logEnd;
    }

    /** Sets the high watermark (clamped to [log start, log end]); on one broker it follows the log end offset. */
    public void updateHighWatermark(long offset) throws IOException {
        PartitionLog replacement;
        lock.lock();
        try {
            replacement = movedTo;
            if (replacement == null) {
                highWatermark = metadataOf(Math.max(logStartOffset, Math.min(offset, logEndOffset())));
                return;
            }
        } catch (IOException e) {
            throw reported(e);
        } finally {
            lock.unlock();
        }
        // A leader that took this log before it moved: the high watermark is the replacement's now.
        replacement.updateHighWatermark(offset);
    }

    /**
     * Where {@code offset} (in [log start, log end]) lies: the start of the batch holding it, or the end of the
     * segment if it lies past that segment's batches (called holding the lock).
     */
    private LogOffsetMetadata metadataOf(long offset) throws IOException {
        if (offset == logEnd.offset()) {
            return logEnd;
        }
        if (offset == highWatermark.offset()) {
            return highWatermark;
        }
        LogSegment segment = segments.floorEntry(offset).getValue();
        if (segment.baseOffset() == offset) {
            return new LogOffsetMetadata(offset, offset, 0); // without a look at the index, which may not be mapped
        }
        int size = segment.sizeInBytes();
        int position = segment.translateOffset(offset, size);
        return new LogOffsetMetadata(offset, segment.baseOffset(), position >= 0 ? position : size);
    }

    /** Sets the log end offset to {@code offset}, which ends the active segment (called holding the lock). */
    private void publishLogEnd(long offset) {
        LogSegment active = segments.lastEntry().getValue();
        logEnd = new LogOffsetMetadata(offset, active.baseOffset(), active.sizeInBytes());
    }

    public long recoveryPoint() {
        return recoveryPoint;
    }

    public LeaderEpochCache leaderEpochs() {
        return leaderEpochs;
    }

    public LogConfig config() {
        return config;
    }

    /** Applies new settings (topic config change); takes effect from the next append, retention run or cleaning. */
    public void updateConfig(LogConfig newConfig) {
        this.config = newConfig;
    }

    public Path dir() {
        return dir;
    }

    /** Bytes in all segments. */
    public long sizeInBytes() {
        long total = 0;
        for (LogSegment segment : segments.values()) {
            total += segment.sizeInBytes();
        }
        return total;
    }

    /** The segments in offset order (a snapshot, for tools and tests). */
    public List<LogSegment> segments() {
        return new ArrayList<>(segments.values());
    }

    private void ensureOpen() throws IOException {
        ensureOnline("Log " + dir);
        if (movedTo != null) {
            throw new LogMovedException(dir, movedTo.dir());
        }
        if (closed) {
            throw new IllegalStateException("Log " + dir + " is closed");
        }
    }

    private void ensureOnline(String what) throws LogDirOfflineException {
        if (offline) {
            throw new LogDirOfflineException(dir.getParent(), what + " of " + dir.getFileName());
        }
    }

    /** Tells the reporter of an I/O error in this log's directory (not again for the offline refusal itself). */
    private IOException reported(IOException e) {
        // A moved log's files are in a directory renamed for deletion: its errors say nothing of the disk.
        if (!(e instanceof LogDirOfflineException) && !(e instanceof LogMovedException) && movedTo == null) {
            ioErrors.onIoError(dir.getParent(), e);
        }
        return e;
    }

    /** What {@link #moveAway} runs while this log is locked: the last copy and the swap; returns the new log. */
    @FunctionalInterface
    public interface Replacement {
        PartitionLog replace() throws IOException;
    }

    /**
     * AlterReplicaLogDirs' last step: runs {@code replacement} holding this log's lock, so nothing is appended,
     * truncated, rolled or deleted meanwhile, and from then on every change to this log throws
     * {@link LogMovedException} (its writers take {@link #movedTo()} instead) and a high watermark update goes to
     * the new log. Reads go on from this log's files until it is closed.
     */
    public PartitionLog moveAway(Replacement replacement) throws IOException {
        lock.lock();
        try {
            ensureOpen();
            PartitionLog replaced = replacement.replace();
            movedTo = replaced;
            return replaced;
        } finally {
            lock.unlock();
        }
    }

    /** The log that took this one's place in another log dir, or null while it has not moved. */
    public PartitionLog movedTo() {
        return movedTo;
    }

    /**
     * The log directory failed: from now on every operation throws {@link LogDirOfflineException}. Takes no
     * lock (the thread that hit the error may hold another log's); {@link #closeAfterFailure()} follows.
     */
    public void markOffline() {
        offline = true;
    }

    public boolean isOffline() {
        return offline;
    }

    /**
     * Closes the files of an offline log without flushing or writing anything (the disk failed). Index
     * mappings are left to the GC rather than unmapped: a read that started before the failure may still use them.
     */
    public void closeAfterFailure() {
        markOffline();
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            for (LogSegment segment : segments.values()) {
                try {
                    segment.closeAfterFailure();
                } catch (IOException e) {
                    LOG.warn("Cannot close {} of offline log {}", segment.logPath(), dir, e);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Writes the producer snapshot (if the state was loaded), flushes, writes the final index entries, trims
     * the indexes and closes every file.
     */
    @Override
    public void close() throws IOException {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            if (offline) {
                closeAfterFailure();
                return;
            }
            writeProducerSnapshotAtClose();
            flush();
            try {
                for (LogSegment segment : segments.values()) {
                    segment.close();
                }
            } catch (IOException e) {
                throw reported(e);
            }
            closed = true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "PartitionLog(" + dir + ", logStartOffset=" + logStartOffset + ", logEndOffset=" + logEndOffset() + ")";
    }
}

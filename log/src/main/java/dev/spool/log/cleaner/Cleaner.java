package dev.spool.log.cleaner;

import dev.spool.log.LogClock;
import dev.spool.log.LogConfig;
import dev.spool.log.LogFileNames;
import dev.spool.log.PartitionLog;
import dev.spool.log.index.AbortedTxn;
import dev.spool.log.record.BatchValidation;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchLayout;
import dev.spool.log.record.TxnMarker;
import dev.spool.log.segment.BatchFileReader;
import dev.spool.log.segment.LogSegment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Not thread-safe: one per cleaner thread, with its own {@link OffsetMap} (at most
 * {@code dedupeBytes}, allocated at the size the first dirty section needs and reused).
 *
 * <p>Cleans one log in passes. A pass maps the dirty section's keys to their latest offsets until the
 * map is full (the pass then ends at that batch; the next pass starts there), then rewrites every
 * inactive segment below the pass's end, in groups that fit one segment (segment.bytes, 32-bit
 * relative offsets), into {@code .cleaned} segments keeping what {@link BatchFilter} keeps, and swaps
 * each group in with {@link PartitionLog#replaceSegments}. Appends and fetches go on meanwhile: only
 * inactive segments are read, and the partition lock is held only for each swap's renames.
 */
final class Cleaner {
    private static final Logger LOG = LoggerFactory.getLogger(Cleaner.class);
    private static final int MIN_SLOTS = 1024;

    private final long dedupeBytes;
    private final LogClock clock;
    private final BatchFilter filter = new BatchFilter();
    private final ByteBuffer header = LogSegment.newHeaderBuffer();
    private OffsetMap map;

    Cleaner(long dedupeBytes, LogClock clock) {
        this.dedupeBytes = dedupeBytes;
        this.clock = clock;
    }

    /** The offset map of the last pass (for tests and stats). */
    OffsetMap offsetMap() {
        return map;
    }

    /**
     * Cleans {@code target}'s dirty section completely (in as many passes as the map needs).
     *
     * @throws CleaningAbortedException if {@code abortRequested} turns true or the log changed under a swap
     */
    CleaningResult clean(LogToClean target, BooleanSupplier abortRequested) throws IOException {
        long startNanos = System.nanoTime();
        PartitionLog log = target.log();
        long firstDirty = target.firstDirtyOffset();
        long uncleanable = target.firstUncleanableOffset();
        int passes = 0;
        long[] totals = new long[5]; // bytes read, bytes written, records read, records retained, earliest horizon
        totals[4] = Long.MAX_VALUE;
        double utilization = 0;
        // expired tombstones alone justify one pass over the clean section, with an empty map
        boolean rewriteClean = target.tombstonesExpired();
        try {
            AbortedBatches aborted = new AbortedBatches(log.abortedTransactions(log.logStartOffset(), uncleanable));
            while (firstDirty < uncleanable || rewriteClean) {
                rewriteClean = false;
                List<LogSegment> segments = log.segments();
                ensureMap(uncleanable - firstDirty);
                long endOffset = buildOffsetMap(segments, firstDirty, uncleanable, aborted, abortRequested);
                utilization = (double) map.size() / map.slots();
                cleanSegments(log, segments, endOffset, aborted, abortRequested, totals);
                passes++;
                LOG.debug("Cleaned {} up to {} ({} keys in pass {})", log.dir(), endOffset, map.size(), passes);
                firstDirty = endOffset;
            }
        } catch (ClosedChannelException | NoSuchFileException e) {
            // retention, truncation or deletion removed a segment being read: the log moved on
            throw new CleaningAbortedException("A segment of " + log.dir() + " went away during cleaning: " + e);
        }
        long elapsedMs = (System.nanoTime() - startNanos) / 1_000_000;
        return new CleaningResult(firstDirty, passes, totals[0], totals[1], totals[2], totals[3], elapsedMs,
                target.dirtyRatio(), utilization, totals[4]);
    }

    private void ensureMap(long dirtyOffsets) {
        long wanted = Math.max(MIN_SLOTS, (long) (dirtyOffsets / 0.9) + 2);
        int slots = (int) Math.min(OffsetMap.slotsFor(dedupeBytes), wanted);
        if (map == null || map.slots() < slots) {
            map = new OffsetMap(slots);
        } else {
            map.clear();
        }
    }

    /**
     * Puts the latest offset of every key in [firstDirty, uncleanable) into the map, batch by batch, until
     * a batch might not fit, leaving out markers and aborted transactions' records. Returns where the pass ends:
     * uncleanable, or the first batch left out.
     */
    private long buildOffsetMap(List<LogSegment> segments, long firstDirty, long uncleanable, AbortedBatches aborted,
                                BooleanSupplier abortRequested) throws IOException {
        for (int i = 0; i < segments.size() - 1; i++) {
            LogSegment segment = segments.get(i);
            if (segments.get(i + 1).baseOffset() <= firstDirty) {
                continue;
            }
            if (segment.baseOffset() >= uncleanable) {
                break;
            }
            int start = Math.max(0, segment.translateOffset(firstDirty, segment.sizeInBytes()));
            BatchFileReader reader = new BatchFileReader(segment.channel(), start, segment.sizeInBytes());
            BatchValidation validation;
            while ((validation = reader.next()) == BatchValidation.VALID) {
                checkAbort(abortRequested, segment);
                RecordBatch batch = reader.batch();
                if (batch.lastOffset() < firstDirty || batch.isControl() || aborted.contains(batch)) {
                    continue;
                }
                if (batch.baseOffset() >= uncleanable) {
                    return uncleanable;
                }
                if (batch.recordCount() > map.remainingCapacity()) {
                    if (map.size() == 0) {
                        throw new UncleanableLogException("log.cleaner.dedupe.buffer.size holds " + map.remainingCapacity()
                                + " keys, too few for the " + batch.recordCount() + " records of " + batch + " in "
                                + segment.logPath());
                    }
                    return batch.baseOffset();
                }
                for (Record record : batch.records()) {
                    if (record.key() != null) {
                        map.put(record.key(), record.offset());
                    }
                }
            }
            failOnInvalid(validation, reader, segment);
        }
        return uncleanable;
    }

    private void cleanSegments(PartitionLog log, List<LogSegment> segments, long endOffset, AbortedBatches aborted,
                               BooleanSupplier abortRequested, long[] totals) throws IOException {
        Map<Long, Long> lastBatchOfProducer = lastBatchOfEachProducer(segments);
        LogConfig config = log.config();
        long nowMs = clock.nowMs();
        // Producers whose transaction under way (in offset order) has a batch kept so far: its marker stays.
        Set<Long> transactionsKept = new HashSet<>();
        for (List<LogSegment> group : groupBySize(segments, endOffset, config)) {
            cleanGroup(log, group, endOffset, lastBatchOfProducer, transactionsKept, aborted, config, nowMs,
                    abortRequested, totals);
        }
    }

    /** Consecutive inactive segments below {@code endOffset}, grouped to fit one segment file each. */
    static List<List<LogSegment>> groupBySize(List<LogSegment> segments, long endOffset, LogConfig config) {
        List<List<LogSegment>> groups = new ArrayList<>();
        int i = 0;
        while (i < segments.size() - 1 && segments.get(i).baseOffset() < endOffset) {
            List<LogSegment> group = new ArrayList<>();
            long groupBase = segments.get(i).baseOffset();
            long groupBytes = 0;
            while (i < segments.size() - 1 && segments.get(i).baseOffset() < endOffset) {
                LogSegment segment = segments.get(i);
                long segmentEnd = segments.get(i + 1).baseOffset();
                boolean fits = groupBytes + segment.sizeInBytes() <= config.segmentBytes
                        && segmentEnd - 1 - groupBase <= Integer.MAX_VALUE;
                if (!group.isEmpty() && !fits) {
                    break;
                }
                group.add(segment);
                groupBytes += segment.sizeInBytes();
                i++;
            }
            groups.add(group);
        }
        return groups;
    }

    private void cleanGroup(PartitionLog log, List<LogSegment> group, long endOffset,
                            Map<Long, Long> lastBatchOfProducer, Set<Long> transactionsKept, AbortedBatches aborted,
                            LogConfig config, long nowMs, BooleanSupplier abortRequested, long[] totals)
            throws IOException {
        LogSegment cleaned = LogSegment.createWithSuffix(log.dir(), group.get(0).baseOffset(), config, nowMs,
                LogFileNames.CLEANED_SUFFIX);
        boolean swapped = false;
        Set<Long> removedMarkers = new HashSet<>();
        try {
            for (LogSegment segment : group) {
                totals[0] += segment.sizeInBytes();
                BatchFileReader reader = new BatchFileReader(segment.channel(), 0, segment.sizeInBytes());
                BatchValidation validation;
                while ((validation = reader.next()) == BatchValidation.VALID) {
                    checkAbort(abortRequested, segment);
                    RecordBatch batch = reader.batch();
                    if (batch.baseOffset() >= endOffset) {
                        // beyond this pass's map: untouched (tombstones there were not weighed against it)
                        cleaned.append(copyOf(batch));
                        totals[2] += batch.recordCount();
                        totals[3] += batch.recordCount();
                        continue;
                    }
                    Long producerLast = lastBatchOfProducer.get(batch.producerId());
                    boolean lastOfProducer = producerLast != null && producerLast == batch.lastOffset();
                    BatchFilter.Outcome outcome;
                    if (TxnMarker.isMarker(batch)) {
                        outcome = filter.filterMarker(batch, transactionsKept.remove(batch.producerId()),
                                lastOfProducer, nowMs, config.deleteRetentionMs);
                        if (outcome == BatchFilter.Outcome.REMOVED) {
                            removedMarkers.add(batch.baseOffset());
                        }
                    } else {
                        outcome = aborted.contains(batch) ? filter.dropAborted(batch, lastOfProducer)
                                : filter.filter(batch, map, nowMs, config.deleteRetentionMs, lastOfProducer);
                        if (batch.isTransactional() && outcome != BatchFilter.Outcome.REMOVED) {
                            transactionsKept.add(batch.producerId());
                        }
                    }
                    totals[2] += filter.recordsRead();
                    totals[3] += filter.recordsRetained();
                    if (filter.keptTombstoneHorizonMs() != RecordBatchLayout.NO_TIMESTAMP) {
                        totals[4] = Math.min(totals[4], filter.keptTombstoneHorizonMs());
                    }
                    if (outcome != BatchFilter.Outcome.REMOVED) {
                        cleaned.append(filter.output());
                    }
                }
                failOnInvalid(validation, reader, segment);
                // An aborted transaction stays indexed while its marker stays.
                for (AbortedTxn txn : segment.txnIndex().entries()) {
                    if (!removedMarkers.contains(txn.lastOffset())) {
                        cleaned.txnIndex().append(txn);
                    }
                }
            }
            cleaned.onBecomeInactive();
            cleaned.flush(true);
            // retention ages a segment without timestamps by its file's time: keep the newest replaced one's
            Files.setLastModifiedTime(cleaned.logPath(), Files.getLastModifiedTime(group.get(group.size() - 1).logPath()));
            totals[1] += cleaned.sizeInBytes();
            checkAbort(abortRequested, group.get(0));
            if (!log.replaceSegments(group, cleaned)) {
                throw new CleaningAbortedException("Segments of " + log.dir() + " from " + group.get(0).baseOffset()
                        + " changed during cleaning");
            }
            swapped = true;
        } finally {
            if (!swapped) {
                cleaned.deleteFiles();
            }
        }
    }

    private static ByteBuffer copyOf(RecordBatch batch) {
        ByteBuffer view = batch.buffer().duplicate();
        view.limit(batch.startIndex() + batch.sizeInBytes()).position(batch.startIndex());
        return view.slice();
    }

    /** Producer id -> last offset of its last batch anywhere in the log (headers only). */
    private Map<Long, Long> lastBatchOfEachProducer(List<LogSegment> segments) throws IOException {
        Map<Long, Long> last = new HashMap<>();
        for (LogSegment segment : segments) {
            long position = 0;
            int size = segment.sizeInBytes();
            while (position < size && segment.readHeader(position, header)) {
                long producerId = header.getLong(RecordBatchLayout.PRODUCER_ID_OFFSET);
                if (producerId != RecordBatchLayout.NO_PRODUCER_ID) {
                    last.put(producerId, header.getLong(RecordBatchLayout.BASE_OFFSET_OFFSET)
                            + header.getInt(RecordBatchLayout.LAST_OFFSET_DELTA_OFFSET));
                }
                position += RecordBatchLayout.LOG_OVERHEAD_BYTES + header.getInt(RecordBatchLayout.BATCH_LENGTH_OFFSET);
            }
        }
        return last;
    }

    private static void checkAbort(BooleanSupplier abortRequested, LogSegment segment) {
        if (abortRequested.getAsBoolean()) {
            throw new CleaningAbortedException("Cleaning aborted at " + segment.logPath());
        }
    }

    private static void failOnInvalid(BatchValidation validation, BatchFileReader reader, LogSegment segment)
            throws IOException {
        if (validation != null) {
            throw new UncleanableLogException("Cannot clean " + segment.logPath() + ": " + validation + " at position "
                    + reader.batchPosition());
        }
    }
}

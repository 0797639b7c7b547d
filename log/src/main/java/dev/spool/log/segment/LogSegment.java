package dev.spool.log.segment;

import dev.spool.log.LogConfig;
import dev.spool.log.LogFileNames;
import dev.spool.log.index.CorruptIndexException;
import dev.spool.log.index.OffsetIndex;
import dev.spool.log.index.TimeIndex;
import dev.spool.log.index.TransactionIndex;
import dev.spool.log.record.BatchValidation;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchLayout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Not thread-safe for writers: appends, truncation, roll and close are called under the partition's
 * append lock. Reads ({@link #sizeInBytes()}, {@link #translateOffset}, the channel) may run concurrently
 * and see a prefix of what was appended: {@link #sizeInBytes()} moves only after the bytes are written.
 *
 * <p>One segment of a partition log: the {@code .log} file of batches with base offsets from
 * {@link #baseOffset()} on, plus its sparse {@link OffsetIndex} and {@link TimeIndex}. An index entry
 * is written before a batch once more than {@code index.interval.bytes} were appended since the last
 * one, naming that batch's last offset and position (what Kafka's dump tool checks).
 */
public final class LogSegment {
    private static final Logger LOG = LoggerFactory.getLogger(LogSegment.class);

    private final long baseOffset;
    private final int indexIntervalBytes;
    private final long createdMs;
    private final RecordBatch appendBatch = new RecordBatch();
    private Path logPath;
    private final FileChannel channel;
    private final OffsetIndex offsetIndex;
    private final TimeIndex timeIndex;
    private final TransactionIndex txnIndex;
    private volatile int sizeBytes;
    private int bytesSinceLastIndexEntry;
    private volatile long maxTimestampSoFar = RecordBatchLayout.NO_TIMESTAMP;
    private volatile long offsetOfMaxTimestampSoFar = -1;
    private long firstBatchTimestamp = RecordBatchLayout.NO_TIMESTAMP;
    /** False for an inactive segment opened from disk until its timestamps are first asked for. */
    private volatile boolean timestampsKnown = true;
    private boolean closed;

    private LogSegment(Path dir, long baseOffset, LogConfig config, long createdMs, boolean active) throws IOException {
        this(dir, baseOffset, config, createdMs, active, "");
    }

    private LogSegment(Path dir, long baseOffset, LogConfig config, long createdMs, boolean active, String fileSuffix)
            throws IOException {
        this.baseOffset = baseOffset;
        this.indexIntervalBytes = config.indexIntervalBytes;
        this.createdMs = createdMs;
        this.logPath = withSuffix(LogFileNames.logFile(dir, baseOffset), fileSuffix);
        this.channel = FileChannel.open(logPath, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        this.sizeBytes = (int) channel.size();
        this.offsetIndex = new OffsetIndex(withSuffix(LogFileNames.offsetIndexFile(dir, baseOffset), fileSuffix),
                baseOffset, config.segmentIndexBytes, active);
        this.timeIndex = new TimeIndex(withSuffix(LogFileNames.timeIndexFile(dir, baseOffset), fileSuffix),
                baseOffset, config.segmentIndexBytes, active);
        this.txnIndex = new TransactionIndex(withSuffix(LogFileNames.txnIndexFile(dir, baseOffset), fileSuffix));
    }

    private static Path withSuffix(Path file, String suffix) {
        return suffix.isEmpty() ? file : file.resolveSibling(file.getFileName() + suffix);
    }

    /**
     * Creates a new, empty segment whose three files carry an extra {@code fileSuffix} (compaction writes
     * into {@code .cleaned} files, see {@link #renameFiles}). Any leftover files of that name are replaced.
     */
    public static LogSegment createWithSuffix(Path dir, long baseOffset, LogConfig config, long nowMs,
                                              String fileSuffix) throws IOException {
        Files.deleteIfExists(withSuffix(LogFileNames.logFile(dir, baseOffset), fileSuffix));
        Files.deleteIfExists(withSuffix(LogFileNames.offsetIndexFile(dir, baseOffset), fileSuffix));
        Files.deleteIfExists(withSuffix(LogFileNames.timeIndexFile(dir, baseOffset), fileSuffix));
        Files.deleteIfExists(withSuffix(LogFileNames.txnIndexFile(dir, baseOffset), fileSuffix));
        LogSegment segment = new LogSegment(dir, baseOffset, config, nowMs, true, fileSuffix);
        segment.offsetIndex.reset();
        segment.timeIndex.reset();
        return segment;
    }

    /**
     * Renames the three files to the segment's plain names plus {@code newSuffix} ("" for the plain names),
     * indexes first and the log last: the log file's name is what recovery trusts. Open channels stay valid.
     */
    public void renameFiles(String newSuffix) throws IOException {
        Path dir = logPath.getParent();
        offsetIndex.renameTo(withSuffix(LogFileNames.offsetIndexFile(dir, baseOffset), newSuffix));
        timeIndex.renameTo(withSuffix(LogFileNames.timeIndexFile(dir, baseOffset), newSuffix));
        txnIndex.renameTo(withSuffix(LogFileNames.txnIndexFile(dir, baseOffset), newSuffix));
        Path target = withSuffix(LogFileNames.logFile(dir, baseOffset), newSuffix);
        Files.move(logPath, target, StandardCopyOption.ATOMIC_MOVE);
        logPath = target;
    }

    /** Creates the files of a new, empty, active segment (indexes preallocated). */
    public static LogSegment create(Path dir, long baseOffset, LogConfig config, long nowMs) throws IOException {
        Path log = LogFileNames.logFile(dir, baseOffset);
        if (Files.exists(log) && Files.size(log) > 0) {
            throw new IllegalStateException("Segment file " + log + " already exists with " + Files.size(log) + " bytes");
        }
        Files.deleteIfExists(LogFileNames.txnIndexFile(dir, baseOffset)); // of an emptied segment truncated away
        LogSegment segment = new LogSegment(dir, baseOffset, config, nowMs, true);
        segment.offsetIndex.reset();
        segment.timeIndex.reset();
        return segment;
    }

    /**
     * Opens an existing segment. With {@code recover} the log is scanned and validated and the indexes
     * rebuilt ({@link #recover()}); otherwise the log is trusted, and the indexes are only sanity-checked,
     * and rebuilt if missing or corrupt. {@code active} keeps the indexes mapped for appending.
     */
    public static LogSegment open(Path dir, long baseOffset, LogConfig config, boolean active, boolean recover)
            throws IOException {
        boolean indexesPresent = Files.exists(LogFileNames.offsetIndexFile(dir, baseOffset))
                && Files.exists(LogFileNames.timeIndexFile(dir, baseOffset));
        LogSegment segment = new LogSegment(dir, baseOffset, config, Files.getLastModifiedTime(
                LogFileNames.logFile(dir, baseOffset)).toMillis(), active);
        boolean rebuild = recover || !indexesPresent;
        if (!indexesPresent) {
            LOG.info("Rebuilding missing indexes of {}", segment.logPath);
        } else if (!recover && active) {
            // Only the active segment's indexes are checked here, as Kafka does: an inactive segment's were
            // trimmed and flushed when it rolled, before the recovery point passed it, and checking them would
            // map every index of every partition at start-up.
            try {
                segment.offsetIndex.sanityCheck(segment.sizeBytes);
                segment.timeIndex.sanityCheck();
            } catch (CorruptIndexException e) {
                LOG.warn("Rebuilding indexes of {}: {}", segment.logPath, e.getMessage());
                rebuild = true;
            }
        }
        if (rebuild) {
            segment.resizeIndexes(config.segmentIndexBytes);
            segment.recover();
            if (!active) {
                segment.offsetIndex.trimToEntries();
                segment.timeIndex.trimToEntries();
            }
        } else if (active) {
            segment.loadTimestampsFromTail();
        } else {
            segment.timestampsKnown = false; // read on first use (knowTimestamps), which maps the time index
        }
        return segment;
    }

    /**
     * Appends batches whose offsets are already assigned (one or more, back to back, all inside this
     * segment's 32-bit relative range), updating the indexes. Writes all bytes or throws, changing nothing then:
     * the indexes are updated only after the write, so that a write that failed (a full disk, from which appends
     * recover once space returns) leaves no index entry for an offset the file does not hold, which the same batches
     * written again would then be refused for.
     */
    public void append(ByteBuffer batches) throws IOException {
        int filePosition = sizeBytes;
        ByteBuffer toWrite = batches.duplicate();
        long writeAt = filePosition;
        try {
            while (toWrite.hasRemaining()) {
                writeAt += channel.write(toWrite, writeAt);
            }
        } catch (IOException e) {
            dropPartialWrite(filePosition, e);
            throw e;
        }
        sizeBytes = (int) writeAt;
        int position = batches.position();
        int end = batches.limit();
        while (position < end) {
            appendBatch.wrap(batches, position);
            int batchSize = appendBatch.sizeInBytes();
            indexBatch(appendBatch, filePosition + (position - batches.position()));
            position += batchSize;
        }
    }

    /**
     * Cuts the bytes a failed write left past the segment's end, so that no whole batch of it could be taken for data
     * by a later recovery (cutting frees space, so it works on a full disk too). If even that fails, the next append
     * overwrites them; but a segment closed first keeps them, and a clean restart, which runs no recovery, takes the
     * file's size as the segment's (not handled yet: cutting to the segment's size at close would).
     */
    private void dropPartialWrite(int end, IOException writeFailure) {
        try {
            channel.truncate(end);
        } catch (IOException e) {
            writeFailure.addSuppressed(e);
        }
    }

    private void indexBatch(RecordBatch batch, int filePosition) {
        long batchMaxTimestamp = batch.maxTimestamp();
        if (firstBatchTimestamp == RecordBatchLayout.NO_TIMESTAMP && filePosition == 0) {
            firstBatchTimestamp = batchMaxTimestamp;
        }
        if (batchMaxTimestamp > maxTimestampSoFar) {
            maxTimestampSoFar = batchMaxTimestamp;
            offsetOfMaxTimestampSoFar = batch.lastOffset();
        }
        // A full index only makes lookups scan further; the segment rolls before its next append.
        if (bytesSinceLastIndexEntry > indexIntervalBytes && !offsetIndex.isFull() && !timeIndex.isFull()) {
            offsetIndex.append(batch.lastOffset(), filePosition);
            timeIndex.maybeAppend(maxTimestampSoFar, offsetOfMaxTimestampSoFar);
            bytesSinceLastIndexEntry = 0;
        }
        bytesSinceLastIndexEntry += batch.sizeInBytes();
    }

    /**
     * Scans the whole log file, validating each batch and rebuilding both indexes; the file is cut at
     * the first invalid or torn batch (logged with file, position and bytes dropped).
     *
     * @return the offset after the last valid batch, or the base offset if none
     */
    public long recover() throws IOException {
        offsetIndex.reset();
        timeIndex.reset();
        bytesSinceLastIndexEntry = 0;
        maxTimestampSoFar = RecordBatchLayout.NO_TIMESTAMP;
        offsetOfMaxTimestampSoFar = -1;
        firstBatchTimestamp = RecordBatchLayout.NO_TIMESTAMP;
        long fileSize = channel.size();
        BatchFileReader reader = new BatchFileReader(channel, 0, fileSize);
        long nextOffset = baseOffset;
        BatchValidation validation;
        while ((validation = reader.next()) == BatchValidation.VALID) {
            RecordBatch batch = reader.batch();
            if (batch.baseOffset() < nextOffset || batch.lastOffset() - baseOffset > Integer.MAX_VALUE) {
                validation = BatchValidation.INVALID_RECORD_COUNT;
                LOG.warn("Batch at position {} of {} has offsets {}..{} out of order after {}", reader.batchPosition(),
                        logPath, batch.baseOffset(), batch.lastOffset(), nextOffset);
                break;
            }
            indexBatch(batch, (int) reader.batchPosition());
            nextOffset = batch.nextOffset();
        }
        long validBytes = validation == null ? fileSize : reader.batchPosition();
        // Markers cut off here are dropped from the aborted-transaction index; ones the crash kept out of it are
        // indexed again when the producer state is replayed over this segment (LogLoader keeps no snapshot above it).
        txnIndex.truncateTo(nextOffset);
        if (validBytes < fileSize) {
            LOG.warn("Recovery of {}: {} at position {}; truncating {} bytes (file was {} bytes, last valid offset {})",
                    logPath, validation, validBytes, fileSize - validBytes, fileSize, nextOffset - 1);
            channel.truncate(validBytes);
        }
        sizeBytes = (int) validBytes;
        timestampsKnown = true;
        return nextOffset;
    }

    /** After a clean open: largest timestamp and first batch time from the time index and the log tail. */
    private void loadTimestampsFromTail() throws IOException {
        maxTimestampSoFar = timeIndex.lastTimestamp();
        offsetOfMaxTimestampSoFar = timeIndex.entries() == 0 ? -1 : timeIndex.lastOffset();
        ByteBuffer header = newHeaderBuffer();
        if (sizeBytes > 0 && readHeader(0, header)) {
            firstBatchTimestamp = header.getLong(RecordBatchLayout.MAX_TIMESTAMP_OFFSET);
        }
        int lastIndexedPosition = offsetIndex.lastPosition();
        long position = Math.min(lastIndexedPosition,
                offsetIndex.lookupPosition(timeIndex.entries() == 0 ? baseOffset : timeIndex.lastOffset()));
        bytesSinceLastIndexEntry = 0;
        while (position < sizeBytes && readHeader(position, header)) {
            long batchMax = header.getLong(RecordBatchLayout.MAX_TIMESTAMP_OFFSET);
            long lastOffset = header.getLong(RecordBatchLayout.BASE_OFFSET_OFFSET)
                    + header.getInt(RecordBatchLayout.LAST_OFFSET_DELTA_OFFSET);
            if (batchMax > maxTimestampSoFar) {
                maxTimestampSoFar = batchMax;
                offsetOfMaxTimestampSoFar = lastOffset;
            }
            int size = RecordBatchLayout.LOG_OVERHEAD_BYTES + header.getInt(RecordBatchLayout.BATCH_LENGTH_OFFSET);
            if (position >= lastIndexedPosition) {
                bytesSinceLastIndexEntry += size;
            }
            position += size;
        }
        timestampsKnown = true;
    }

    /** Reads an inactive segment's timestamps the first time they are needed (Kafka loads them lazily too). */
    private void knowTimestamps() {
        if (!timestampsKnown) {
            synchronized (this) {
                if (!timestampsKnown) {
                    try {
                        loadTimestampsFromTail();
                    } catch (IOException e) {
                        throw new UncheckedIOException("Cannot read the timestamps of " + logPath, e);
                    }
                }
            }
        }
    }

    /** The offset after the last batch, found from the last index entry on; the base offset if empty. */
    public long readNextOffset() throws IOException {
        ByteBuffer header = newHeaderBuffer();
        long position = offsetIndex.lastPosition();
        long next = baseOffset;
        while (position < sizeBytes && readHeader(position, header)) {
            next = header.getLong(RecordBatchLayout.BASE_OFFSET_OFFSET)
                    + header.getInt(RecordBatchLayout.LAST_OFFSET_DELTA_OFFSET) + 1;
            position += RecordBatchLayout.LOG_OVERHEAD_BYTES + header.getInt(RecordBatchLayout.BATCH_LENGTH_OFFSET);
        }
        return next;
    }

    /** A buffer for {@link #readHeader}; one per scan, reused for every batch of it. */
    public static ByteBuffer newHeaderBuffer() {
        return ByteBuffer.allocate(RecordBatchLayout.HEADER_SIZE_BYTES);
    }

    /** Reads the header of the batch at {@code position} into {@code header}; false if the file ends first. */
    public boolean readHeader(long position, ByteBuffer header) throws IOException {
        header.clear();
        while (header.hasRemaining()) {
            int read = channel.read(header, position + header.position());
            if (read < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The file position of the first batch whose last offset is >= {@code targetOffset}, scanning batch
     * headers from the index entry at or below it; -1 if no such batch lies before {@code endPosition}.
     */
    public int translateOffset(long targetOffset, int endPosition) throws IOException {
        ByteBuffer header = newHeaderBuffer();
        long position = offsetIndex.lookupPosition(targetOffset);
        while (position < endPosition && readHeader(position, header)) {
            long lastOffset = header.getLong(RecordBatchLayout.BASE_OFFSET_OFFSET)
                    + header.getInt(RecordBatchLayout.LAST_OFFSET_DELTA_OFFSET);
            if (lastOffset >= targetOffset) {
                return (int) position;
            }
            position += RecordBatchLayout.LOG_OVERHEAD_BYTES + header.getInt(RecordBatchLayout.BATCH_LENGTH_OFFSET);
        }
        return -1;
    }

    /**
     * The first record at or after {@code minOffset} whose timestamp is >= {@code timestampMs}, or null if
     * this segment has none. Decodes only the batch that holds it.
     */
    public Record findFirstRecordAtOrAfter(long timestampMs, long minOffset) throws IOException {
        if (maxTimestampSoFar() < timestampMs) {
            return null;
        }
        long startOffset = Math.max(minOffset, timeIndex.lookupOffsetBefore(timestampMs));
        int start = offsetIndex.lookupPosition(startOffset);
        BatchFileReader reader = new BatchFileReader(channel, start, sizeBytes);
        while (reader.next() == BatchValidation.VALID) {
            RecordBatch batch = reader.batch();
            if (batch.maxTimestamp() >= timestampMs && batch.lastOffset() >= minOffset) {
                for (Record record : batch.records()) {
                    if (record.timestamp() >= timestampMs && record.offset() >= minOffset) {
                        return record;
                    }
                }
            }
        }
        return null;
    }

    /**
     * The first record with the largest timestamp among records at or after {@code minOffset}, or null if
     * there is none. Decodes only the batches whose max timestamp beats the best so far.
     */
    public Record findMaxTimestampRecord(long minOffset) throws IOException {
        BatchFileReader reader = new BatchFileReader(channel, offsetIndex.lookupPosition(minOffset), sizeBytes);
        Record best = null;
        while (reader.next() == BatchValidation.VALID) {
            RecordBatch batch = reader.batch();
            if (batch.lastOffset() < minOffset || (best != null && batch.maxTimestamp() <= best.timestamp())) {
                continue;
            }
            for (Record record : batch.records()) {
                if (record.offset() >= minOffset && (best == null || record.timestamp() > best.timestamp())) {
                    best = record;
                }
            }
        }
        return best;
    }

    /**
     * Cuts the segment before the first batch whose last offset is >= {@code offset} and drops index
     * entries at or after it.
     *
     * @return the base offset of the first batch removed, or -1 if nothing was removed
     */
    public long truncateTo(long offset) throws IOException {
        int position = translateOffset(offset, sizeBytes);
        if (position < 0) {
            return -1;
        }
        ByteBuffer header = newHeaderBuffer();
        readHeader(position, header);
        long firstRemovedBaseOffset = header.getLong(RecordBatchLayout.BASE_OFFSET_OFFSET);
        long cutOffset = Math.min(offset, firstRemovedBaseOffset);
        offsetIndex.truncateTo(cutOffset);
        timeIndex.truncateTo(cutOffset);
        txnIndex.truncateTo(cutOffset);
        channel.truncate(position);
        sizeBytes = position;
        if (position == 0) {
            firstBatchTimestamp = RecordBatchLayout.NO_TIMESTAMP;
        }
        loadTimestampsFromTail();
        return firstRemovedBaseOffset;
    }

    /** Called when a newer segment takes over: final time index entry, indexes trimmed to their entries. */
    public void onBecomeInactive() throws IOException {
        if (maxTimestampSoFar >= 0 && !timeIndex.isFull()) {
            timeIndex.maybeAppend(maxTimestampSoFar, offsetOfMaxTimestampSoFar);
        }
        offsetIndex.trimToEntries();
        timeIndex.trimToEntries();
    }

    /** Maps the indexes at {@code maxIndexBytes} again so an opened last segment can take appends. */
    public void resizeIndexes(int maxIndexBytes) throws IOException {
        offsetIndex.resize(maxIndexBytes);
        timeIndex.resize(maxIndexBytes);
    }

    /**
     * Whether appending {@code batchesBytes} bytes ending at {@code lastOffset} with largest timestamp
     * {@code maxTimestampMs} should go to a new segment instead (Kafka's roll rules).
     */
    public boolean shouldRoll(LogConfig config, int batchesBytes, long lastOffset, long maxTimestampMs, long nowMs,
                              long rollJitterMs) {
        if (sizeBytes == 0) {
            return false;
        }
        boolean full = (long) sizeBytes + batchesBytes > config.segmentBytes;
        boolean indexFull = offsetIndex.isFull() || timeIndex.isFull();
        boolean offsetOverflow = lastOffset - baseOffset > Integer.MAX_VALUE;
        long waitedMs = firstBatchTimestamp >= 0 ? maxTimestampMs - firstBatchTimestamp : nowMs - createdMs;
        boolean old = waitedMs > config.segmentMs - rollJitterMs;
        return full || indexFull || offsetOverflow || old;
    }

    /** fsyncs the log file and both indexes. */
    public void flush() throws IOException {
        flush(true);
    }

    /**
     * fsyncs the log file (fdatasync: the data and the size, not the times) and, if asked, both indexes.
     * The segment that holds the recovery point is rebuilt from its log by recovery, so its indexes need
     * no sync until the recovery point passes it: flush.messages=1 then costs one sync per append, not three.
     */
    public synchronized void flush(boolean includeIndexes) throws IOException {
        if (closed) {
            return;
        }
        channel.force(false);
        if (includeIndexes) {
            offsetIndex.flush();
            timeIndex.flush();
            txnIndex.flush();
        }
    }

    /** Renames the three files with a {@code .deleted} suffix; they stay open for readers until {@link #deleteFiles()}. */
    public void renameToDeleted() throws IOException {
        Path deleted = logPath.resolveSibling(logPath.getFileName() + LogFileNames.DELETED_SUFFIX);
        Files.move(logPath, deleted, StandardCopyOption.ATOMIC_MOVE);
        logPath = deleted;
        offsetIndex.renameTo(offsetIndex.path().resolveSibling(offsetIndex.path().getFileName()
                + LogFileNames.DELETED_SUFFIX));
        timeIndex.renameTo(timeIndex.path().resolveSibling(timeIndex.path().getFileName()
                + LogFileNames.DELETED_SUFFIX));
        txnIndex.renameTo(txnIndex.path().resolveSibling(txnIndex.path().getFileName()
                + LogFileNames.DELETED_SUFFIX));
    }

    /** Closes and removes the files (wherever they are now). */
    public synchronized void deleteFiles() throws IOException {
        closeResources();
        Files.deleteIfExists(logPath);
        offsetIndex.deleteIfExists();
        timeIndex.deleteIfExists();
        txnIndex.deleteIfExists();
    }

    /** Writes the final time index entry, trims the indexes, syncs everything and closes the files. */
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        onBecomeInactive();
        flush(true);
        closeResources();
    }

    /**
     * The disk failed: closes the log file without writing anything. The index mappings stay for the GC to
     * release (a concurrent reader may still use them; unmapping under it would crash the JVM).
     */
    public synchronized void closeAfterFailure() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        channel.close();
        txnIndex.close();
    }

    private void closeResources() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        offsetIndex.close();
        timeIndex.close();
        txnIndex.close();
        channel.close();
    }

    public long baseOffset() {
        return baseOffset;
    }

    public int sizeInBytes() {
        return sizeBytes;
    }

    public FileChannel channel() {
        return channel;
    }

    public Path logPath() {
        return logPath;
    }

    public OffsetIndex offsetIndex() {
        return offsetIndex;
    }

    public TimeIndex timeIndex() {
        return timeIndex;
    }

    /** The aborted transactions whose markers lie in this segment. */
    public TransactionIndex txnIndex() {
        return txnIndex;
    }

    /** The largest batch max timestamp appended, or -1. */
    public long maxTimestampSoFar() {
        knowTimestamps();
        return maxTimestampSoFar;
    }

    /** The max timestamp of the segment's first batch, or -1 (max.compaction.lag.ms counts from it). */
    public long firstBatchTimestamp() {
        knowTimestamps();
        return firstBatchTimestamp;
    }

    /** The last offset of the batch holding {@link #maxTimestampSoFar()}, or -1. */
    public long offsetOfMaxTimestampSoFar() {
        knowTimestamps();
        return offsetOfMaxTimestampSoFar;
    }

    /** Retention's age: the largest timestamp, or the file's modification time if there is none (as Kafka). */
    public long largestTimestampForRetention() throws IOException {
        long largest = maxTimestampSoFar();
        return largest > 0 ? largest : Files.getLastModifiedTime(logPath).toMillis();
    }

    @Override
    public String toString() {
        return "LogSegment(" + logPath + ", size=" + sizeBytes + ")";
    }
}

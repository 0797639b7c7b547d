package dev.spool.log;

import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatchBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** Readers without a lock while one writer appends and rolls: every read is whole, valid, in order and bounded. */
class ConcurrentReadAppendTest {
    @TempDir
    Path dir;

    @FunctionalInterface
    private interface LogStep {
        void run(PartitionLog log) throws Exception;
    }

    @Test
    void readersSeeConsistentPrefixesWhileAppendsAndRollsHappen() throws Exception {
        LogConfig config = TestLogs.config("segment.bytes", 20_000, "index.interval.bytes", 500);
        PartitionLog closed = readWhileAppending(config, log -> {
            long end = log.logEndOffset();
            long from = end == 0 ? 0 : ThreadLocalRandom.current().nextLong(end);
            List<Record> records = TestLogs.recordsOfWholeBatches(log.read(from, 8192).readFully(), from);
            for (int i = 0; i < records.size(); i++) {
                assertThat(records.get(i).offset()).isEqualTo(from + i);
                assertThat(TestLogs.text(records.get(i).key())).endsWith("-" + (from + i));
            }
        }, log -> {
            long next = log.logEndOffset();
            RecordBatchBuilder builder = new RecordBatchBuilder(CompressionType.NONE);
            for (int i = 0; i < 5; i++) {
                builder.append(System.currentTimeMillis(), TestLogs.bytes("k-" + (next + i)), new byte[100]);
            }
            log.appendAsLeader(builder.build(), 0);
        });
        assertThat(closed.segments().size()).as("segments rolled meanwhile").isGreaterThan(3);
    }

    @Test
    void aReadBoundByTheHighWatermarkNeverReturnsARecordAtOrAboveIt() throws Exception {
        readersNeverPassTheHighWatermark(true);
    }

    @Test
    void aHeldBackHighWatermarkBoundsEveryRead() throws Exception {
        readersNeverPassTheHighWatermark(false);
    }

    /**
     * One writer appends (committing each append at once, or holding the high watermark a few batches back as a
     * leader waiting for followers does); readers read from random offsets bound by the high watermark they take
     * once, and must never get a record at or above it.
     */
    private void readersNeverPassTheHighWatermark(boolean commitEachAppend) throws Exception {
        LogConfig config = TestLogs.config("segment.bytes", 50_000, "index.interval.bytes", 500);
        readWhileAppending(config, log -> {
            LogOffsetMetadata highWatermark = log.highWatermarkMetadata();
            long from = Math.max(0, highWatermark.offset() - 1 - ThreadLocalRandom.current().nextLong(20));
            FetchSlice slice = log.read(from, 1 << 20, highWatermark, true);
            for (Record record : TestLogs.recordsOfWholeBatches(slice.readFully(), from)) {
                assertThat(record.offset()).as("a record read with the high watermark at %d", highWatermark.offset())
                        .isLessThan(highWatermark.offset());
            }
        }, log -> {
            RecordBatchBuilder builder = new RecordBatchBuilder(CompressionType.NONE);
            builder.append(System.currentTimeMillis(), TestLogs.bytes("k"), new byte[50]);
            log.appendAsLeader(builder.build(), 0, commitEachAppend);
            if (!commitEachAppend) {
                log.updateHighWatermark(log.logEndOffset() - 3);
            }
        });
    }

    /**
     * Runs {@code read} on two threads while this one runs {@code append} for 1.5 s; fails with the first
     * reader's failure, or if fewer than 100 reads happened. Returns the log, closed.
     */
    private PartitionLog readWhileAppending(LogConfig config, LogStep read, LogStep append) throws Exception {
        ScheduledExecutorService scheduler = TestLogs.scheduler();
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong reads = new AtomicLong();
        try (PartitionLog log = PartitionLog.open(dir.resolve("c-0"), config, System::currentTimeMillis, scheduler)) {
            Thread[] readers = new Thread[2];
            for (int r = 0; r < readers.length; r++) {
                readers[r] = new Thread(() -> {
                    try {
                        while (!done.get()) {
                            read.run(log);
                            reads.incrementAndGet();
                        }
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    }
                });
                readers[r].start();
            }
            long deadline = System.currentTimeMillis() + 1500;
            while (System.currentTimeMillis() < deadline && failure.get() == null) {
                append.run(log);
            }
            done.set(true);
            for (Thread reader : readers) {
                reader.join();
            }
            assertThat(failure.get()).isNull();
            assertThat(reads.get()).isGreaterThan(100);
            return log;
        } finally {
            scheduler.shutdownNow();
        }
    }
}

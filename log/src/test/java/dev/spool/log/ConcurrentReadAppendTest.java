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

/** Readers without a lock while one writer appends and rolls: every read is whole, valid and in order. */
class ConcurrentReadAppendTest {
    @TempDir
    Path dir;

    @Test
    void readersSeeConsistentPrefixesWhileAppendsAndRollsHappen() throws Exception {
        ScheduledExecutorService scheduler = TestLogs.scheduler();
        LogConfig config = TestLogs.config("segment.bytes", 20_000, "index.interval.bytes", 500);
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong reads = new AtomicLong();
        try (PartitionLog log = PartitionLog.open(dir.resolve("c-0"), config, System::currentTimeMillis, scheduler)) {
            Thread[] readers = new Thread[2];
            for (int r = 0; r < readers.length; r++) {
                readers[r] = new Thread(() -> {
                    try {
                        while (!done.get()) {
                            long end = log.logEndOffset();
                            long from = end == 0 ? 0 : ThreadLocalRandom.current().nextLong(end);
                            List<Record> records = TestLogs.recordsOfWholeBatches(log.read(from, 8192).readFully(), from);
                            for (int i = 0; i < records.size(); i++) {
                                assertThat(records.get(i).offset()).isEqualTo(from + i);
                                assertThat(TestLogs.text(records.get(i).key())).endsWith("-" + (from + i));
                            }
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
                long next = log.logEndOffset();
                RecordBatchBuilder builder = new RecordBatchBuilder(CompressionType.NONE);
                for (int i = 0; i < 5; i++) {
                    builder.append(System.currentTimeMillis(), TestLogs.bytes("k-" + (next + i)), new byte[100]);
                }
                log.appendAsLeader(builder.build(), 0);
            }
            done.set(true);
            for (Thread reader : readers) {
                reader.join();
            }
            assertThat(failure.get()).isNull();
            assertThat(reads.get()).isGreaterThan(100);
            assertThat(log.segments().size()).isGreaterThan(3);
        } finally {
            scheduler.shutdownNow();
        }
    }
}

package dev.spool.bench;

import dev.spool.log.LogClock;
import dev.spool.log.PartitionLog;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Not thread-safe (one benchmark thread): the same work as {@code dd if=/dev/zero bs=1M count=2048
 * conv=fdatasync}: 2 GiB appended as 16 KiB batches, then one flush; the score is seconds per 2 GiB,
 * so MB/s = 2048 / score (MiB) to compare with dd's figure on the same file system.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 2)
@Fork(1)
public class AppendThenFsyncBenchmark {
    private static final long TOTAL_BYTES = 2L << 30;

    private ScheduledExecutorService scheduler;
    private Path dir;
    private PartitionLog log;
    private ByteBuffer batch;

    @Setup(Level.Iteration)
    public void open() throws IOException {
        scheduler = BenchLogs.scheduler();
        dir = BenchLogs.newDir("spool-append-fsync");
        log = PartitionLog.open(dir.resolve("bench-0"), BenchLogs.config(false), LogClock.SYSTEM, scheduler);
        batch = BenchLogs.batch16KiB();
    }

    @TearDown(Level.Iteration)
    public void close() throws IOException {
        log.close();
        scheduler.shutdownNow();
        BenchLogs.deleteTree(dir);
    }

    @Benchmark
    public long append2GiBThenFsync() throws IOException {
        long written = 0;
        while (written < TOTAL_BYTES) {
            written += log.appendAsLeader(batch.duplicate(), 0).sizeInBytes();
        }
        log.flush();
        return written;
    }
}

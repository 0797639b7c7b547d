package dev.spool.bench;

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

    private FreshLog fresh;

    @Setup(Level.Iteration)
    public void open() throws IOException {
        fresh = new FreshLog("spool-append-fsync", false);
    }

    @TearDown(Level.Iteration)
    public void close() throws IOException {
        fresh.delete();
    }

    @Benchmark
    public long append2GiBThenFsync() throws IOException {
        long written = 0;
        while (written < TOTAL_BYTES) {
            written += fresh.log.appendAsLeader(fresh.batch.duplicate(), 0).sizeInBytes();
        }
        fresh.log.flush();
        return written;
    }
}

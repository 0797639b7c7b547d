package dev.spool.bench;

import dev.spool.log.AppendInfo;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Not thread-safe (one benchmark thread): appends of 16 KiB batches to one partition, without fsync
 * (Kafka's default: page cache) and with an fsync after every append (flush.messages=1). Multiply
 * ops/s by 16 KiB for MB/s. A fresh log per iteration keeps the disk use bounded.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 3)
@Measurement(iterations = 3, time = 5)
@Fork(1)
public class AppendBenchmark {
    @Param({"false", "true"})
    public boolean fsync;

    private FreshLog fresh;

    @Setup(Level.Iteration)
    public void open() throws IOException {
        fresh = new FreshLog("spool-append", fsync);
    }

    @TearDown(Level.Iteration)
    public void close() throws IOException {
        fresh.delete();
    }

    @Benchmark
    public AppendInfo append16KiB() throws IOException {
        return fresh.log.appendAsLeader(fresh.batch.duplicate(), 0);
    }
}

package dev.spool.bench;

import dev.spool.log.FetchSlice;
import dev.spool.log.PartitionLog;
import dev.spool.log.index.OffsetIndex;
import dev.spool.log.segment.LogSegment;
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
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Not thread-safe (one benchmark thread): reads from a 512 MiB log of 16 KiB batches (page cache warm):
 * sequential 1 MiB fetches copied into a reused direct buffer (MB/s = ops/s), the offset index lookup
 * alone, and a whole {@link PartitionLog#read} at a random offset (index lookup plus header scan).
 */
@State(Scope.Benchmark)
@Warmup(iterations = 1, time = 3)
@Measurement(iterations = 3, time = 5)
@Fork(1)
public class ReadBenchmark {
    private static final long LOG_BYTES = 512L << 20;
    private static final int FETCH_BYTES = 1 << 20;

    private FreshLog fresh;
    private PartitionLog log;
    private OffsetIndex index;
    private long indexFirstOffset;
    private long indexSpan;
    private final ByteBuffer target = ByteBuffer.allocateDirect(FETCH_BYTES + BenchLogs.BATCH_BYTES);
    private final SplittableRandom random = new SplittableRandom(7);
    private long nextOffset;

    @Setup(Level.Trial)
    public void fill() throws IOException {
        fresh = new FreshLog("spool-read", false);
        log = fresh.log;
        while (log.sizeInBytes() < LOG_BYTES) {
            log.appendAsLeader(fresh.batch.duplicate(), 0);
        }
        LogSegment segment = log.segments().get(0);
        index = segment.offsetIndex();
        indexFirstOffset = segment.baseOffset();
        indexSpan = log.logEndOffset() - indexFirstOffset;
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        fresh.delete();
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public int sequentialRead1MiB() throws IOException {
        if (nextOffset >= log.logEndOffset()) {
            nextOffset = 0;
        }
        FetchSlice slice = log.read(nextOffset, FETCH_BYTES, log.logEndMetadata(), true);
        target.clear().limit(slice.lengthBytes());
        int read = 0;
        while (target.hasRemaining()) {
            read += slice.channel().read(target, slice.position() + read);
        }
        // continue after the last whole batch: 16 KiB batches of 16 records each
        nextOffset = slice.fromOffset() + Math.max(16, (long) read / BenchLogs.BATCH_BYTES * 16);
        return read;
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public int offsetIndexLookup() {
        return index.lookupPosition(indexFirstOffset + random.nextLong(indexSpan));
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public long readAtRandomOffset() throws IOException {
        return log.read(random.nextLong(log.logEndOffset()), 1, log.logEndMetadata(), false).position();
    }
}

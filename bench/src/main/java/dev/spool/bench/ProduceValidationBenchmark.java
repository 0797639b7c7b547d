package dev.spool.bench;

import dev.spool.broker.produce.ProduceBatchValidator;
import dev.spool.broker.produce.Rejection;
import dev.spool.log.LogConfig;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.RecordBatchBuilder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Not thread-safe (one benchmark thread): what {@link ProduceBatchValidator#validate} costs for one
 * produced batch of 160 records of 100-byte JSON-like values (16 KiB before compression, the
 * producer's default {@code batch.size}), per codec. Compressed batches are inflated and every record
 * decoded, as on the produce path. Read the score as ns per batch; 16 KiB / score = inflated MB/s.
 * Run with {@code -prof gc} for the allocation per batch.
 */
@State(Scope.Benchmark)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ProduceValidationBenchmark {

    private static final int RECORDS = 160;
    private static final int VALUE_BYTES = 100;
    private static final long NOW_MS = 1_700_000_000_000L;

    @Param({"none", "gzip", "snappy", "lz4", "zstd"})
    public String codec;

    private final ProduceBatchValidator validator = new ProduceBatchValidator();
    private final LogConfig config = LogConfig.fromProperties(Map.of());
    private ByteBuffer batch;

    @Setup
    public void setUp() {
        RecordBatchBuilder builder = new RecordBatchBuilder(CompressionType.forName(codec))
                .producer(1000L, (short) 0, 0);
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < RECORDS; i++) {
            String json = "{\"id\":" + i + ",\"user\":\"u" + random.nextInt(1000) + "\",\"amount\":"
                    + random.nextInt(100000) + ",\"currency\":\"EUR\",\"note\":\"";
            StringBuilder value = new StringBuilder(json);
            while (value.length() < VALUE_BYTES - 2) {
                value.append((char) ('a' + random.nextInt(26)));
            }
            value.append("\"}");
            builder.append(NOW_MS + i, ("key-" + i).getBytes(StandardCharsets.UTF_8),
                    value.toString().getBytes(StandardCharsets.UTF_8));
        }
        batch = builder.build();
        Rejection rejection = validator.validate(batch.duplicate(), (short) 11, config, NOW_MS);
        if (rejection != null) {
            throw new IllegalStateException("The benchmark batch is refused: " + rejection.message());
        }
    }

    @Benchmark
    public Object validate() {
        return validator.validate(batch.duplicate(), (short) 11, config, NOW_MS);
    }
}

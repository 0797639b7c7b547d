package dev.spool.bench;

import dev.spool.log.LogConfig;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.RecordBatchBuilder;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;

/** Not thread-safe: what the benchmarks share (a 16 KiB batch, a log config, a scratch directory). */
final class BenchLogs {
    /** The batch size the issue asks for: 16 KiB, as a busy producer's batch.size sends. */
    static final int BATCH_BYTES = 16 * 1024;
    private static final int RECORD_VALUE_BYTES = 1000;

    private BenchLogs() {
    }

    /** An uncompressed batch of about 16 KiB (16 records of 1000 random bytes, fixed seed). */
    static ByteBuffer batch16KiB() {
        Random random = new Random(42);
        RecordBatchBuilder builder = new RecordBatchBuilder(CompressionType.NONE);
        while (builder.uncompressedSizeInBytes() + RECORD_VALUE_BYTES + 20 <= BATCH_BYTES) {
            byte[] value = new byte[RECORD_VALUE_BYTES];
            random.nextBytes(value);
            builder.append(System.currentTimeMillis(), null, value);
        }
        return builder.build();
    }

    static LogConfig config(boolean fsyncEachAppend) {
        return LogConfig.fromProperties(Map.of("flush.messages", fsyncEachAppend ? "1" : Long.toString(Long.MAX_VALUE),
                "file.delete.delay.ms", "0"));
    }

    /** A fresh directory under the benchmark scratch root (-Dspool.bench.dir, default the temp dir). */
    static Path newDir(String name) throws IOException {
        Path root = Path.of(System.getProperty("spool.bench.dir", System.getProperty("java.io.tmpdir")));
        return Files.createTempDirectory(root, name);
    }
}

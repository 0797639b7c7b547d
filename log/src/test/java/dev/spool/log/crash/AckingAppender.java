package dev.spool.log.crash;

import dev.spool.log.AppendInfo;
import dev.spool.log.LogClock;
import dev.spool.log.LogConfig;
import dev.spool.log.PartitionLog;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.RecordBatchBuilder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Executors;

/**
 * The child process of {@link KillNineTest}: appends batches forever with flush.messages=1 and prints
 * "ACK <lastOffset>" once each append has returned (so after its fsync), until it is killed.
 */
public final class AckingAppender {
    private AckingAppender() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        LogConfig config = LogConfig.fromProperties(Map.of("flush.messages", "1", "segment.bytes", "200000",
                "index.interval.bytes", "1024"));
        PartitionLog log = PartitionLog.open(dir, config, LogClock.SYSTEM, Executors.newSingleThreadScheduledExecutor());
        System.out.println("READY " + log.logEndOffset());
        System.out.flush();
        for (long i = 0; ; i++) {
            long next = log.logEndOffset();
            RecordBatchBuilder builder = new RecordBatchBuilder(i % 3 == 0 ? CompressionType.LZ4 : CompressionType.NONE);
            int count = 1 + (int) (i % 5);
            for (int r = 0; r < count; r++) {
                builder.append(System.currentTimeMillis(), null,
                        ("acked-" + (next + r) + "-" + "p".repeat((int) ((i * 31) % 700))).getBytes(StandardCharsets.UTF_8));
            }
            AppendInfo info = log.appendAsLeader(builder.build(), 0);
            System.out.println("ACK " + info.lastOffset());
            System.out.flush();
        }
    }
}

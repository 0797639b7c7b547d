package dev.spool.log.cleaner;

import dev.spool.log.LogClock;
import dev.spool.log.LogConfig;
import dev.spool.log.PartitionLog;
import dev.spool.log.TopicPartition;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Header;
import dev.spool.log.record.RecordBatchBuilder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;

/**
 * The child process of {@link CleanerKillNineTest}: forever appends keyed batches (some tombstones),
 * printing "ACK key version tombstone|value" once each append returned, rolls, and cleans with a small offset map
 * (many passes and swaps), printing "CLEANED" after each cleaning, until it is killed.
 */
public final class CleaningChild {
    static final int KEYS = 40;

    private CleaningChild() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        long version = Long.parseLong(args[1]);
        LogConfig config = LogConfig.fromProperties(Map.of("cleanup.policy", "compact", "segment.bytes", "4000",
                "index.interval.bytes", "200", "delete.retention.ms", "50", "file.delete.delay.ms", "0"));
        PartitionLog log = PartitionLog.open(dir, config, LogClock.SYSTEM, Executors.newSingleThreadScheduledExecutor());
        Cleaner cleaner = new Cleaner(60L * OffsetMap.BYTES_PER_SLOT, LogClock.SYSTEM);
        TopicPartition partition = new TopicPartition("crash", 0);
        Random random = new Random();
        long firstDirty = -1;
        System.out.println("READY " + log.logEndOffset());
        System.out.flush();
        while (true) {
            for (int b = 0; b < 30; b++) {
                CompressionType codec = CompressionType.values()[random.nextInt(CompressionType.values().length)];
                RecordBatchBuilder builder = new RecordBatchBuilder(codec);
                StringBuilder acks = new StringBuilder();
                for (int r = 0; r < 1 + random.nextInt(4); r++) {
                    String key = "key-" + random.nextInt(KEYS);
                    version++;
                    boolean tombstone = random.nextInt(10) == 0;
                    byte[] value = tombstone ? null : (key + "=" + version + "-" + "x".repeat(random.nextInt(100)))
                            .getBytes(StandardCharsets.UTF_8);
                    builder.append(System.currentTimeMillis(), key.getBytes(StandardCharsets.UTF_8), value,
                            Header.of("v", Long.toString(version).getBytes(StandardCharsets.UTF_8)));
                    acks.append("ACK ").append(key).append(' ').append(version).append(tombstone ? " tombstone" : " value")
                            .append('\n');
                }
                log.appendAsLeader(builder.build(), 0);
                log.updateHighWatermark(log.logEndOffset());
                System.out.print(acks);
            }
            System.out.flush();
            log.roll();
            CleaningResult result = cleaner.clean(LogToClean.of(partition, log, firstDirty, System.currentTimeMillis()),
                    () -> false);
            firstDirty = result.nextDirtyOffset();
            System.out.println("CLEANED " + result.passes());
            System.out.flush();
        }
    }
}

package dev.spool.log.crash;

import dev.spool.log.FileTrees;
import dev.spool.log.LogConfig;
import dev.spool.log.LogFileNames;
import dev.spool.log.LogLoadOptions;
import dev.spool.log.PartitionLog;
import dev.spool.log.TestLogs;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatchBuilder;
import dev.spool.log.segment.LogSegment;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Crash test (a): the tail of the active segment is truncated, zeroed or garbled, and its index files
 * are cut, garbled or removed, as a crash mid-write could leave them; the log is then opened as after
 * an unclean shutdown. Every batch before the first damaged byte must be intact, nothing from that
 * batch on may be returned, and the indexes must agree with the log.
 */
class TornTailRecoveryTest {

    /** Where each batch of the active segment starts and ends, with its first offset. */
    private record BatchSpan(long startPosition, long endPosition, long baseOffset) {
    }

    @Property(tries = 60)
    void recoveryKeepsEverythingBeforeTheDamageAndNothingAfter(@ForAll @LongRange(max = Long.MAX_VALUE / 2) long seed,
                                                                @ForAll @IntRange(min = 0, max = 4) int logDamage,
                                                                @ForAll @IntRange(min = 0, max = 4) int indexDamage)
            throws IOException, InterruptedException {
        Random random = new Random(seed);
        Path root = Files.createTempDirectory("spool-torn");
        Path dir = root.resolve("torn-0");
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        LogConfig config = LogConfig.fromProperties(Map.of("segment.bytes", "8000", "index.interval.bytes", "200"));
        try {
            PartitionLog writer = PartitionLog.open(dir, config, () -> 1_000_000L, scheduler);
            int batches = 10 + random.nextInt(40);
            for (int b = 0; b < batches; b++) {
                writer.appendAsLeader(batch(random, writer.logEndOffset()), 0);
            }
            writer.flush();
            LogSegment active = writer.segments().get(writer.segments().size() - 1);
            List<BatchSpan> spans = spans(active);
            // The writer is abandoned, not closed: its index files stay preallocated, as after a crash.
            long damageAt = damageLog(active.logPath(), random, logDamage, active.sizeInBytes());
            damageIndex(LogFileNames.offsetIndexFile(dir, active.baseOffset()), random, indexDamage);
            damageIndex(LogFileNames.timeIndexFile(dir, active.baseOffset()), random, (indexDamage + 2) % 5);

            long expectedEnd = active.baseOffset();
            for (BatchSpan span : spans) {
                if (span.endPosition() <= damageAt) {
                    expectedEnd = nextBase(spans, span, writer.logEndOffset());
                }
            }
            long writtenEnd = writer.logEndOffset();
            try (PartitionLog reopened = PartitionLog.open(dir, config, () -> 1_000_000L, scheduler,
                    new LogLoadOptions(active.baseOffset(), 0, false))) {
                assertThat(reopened.logEndOffset()).as("log end after damage at " + damageAt).isEqualTo(expectedEnd);
                List<Record> records = TestLogs.readAll(reopened, 0);
                assertThat(records).hasSize((int) expectedEnd);
                for (int i = 0; i < records.size(); i++) {
                    assertThat(records.get(i).offset()).isEqualTo(i);
                    assertThat(new String(records.get(i).valueBytes(), StandardCharsets.UTF_8)).startsWith("value-" + i + "-");
                }
                IndexConsistency.assertIndexesAgreeWithLog(reopened);
                assertThat(reopened.logEndOffset()).isLessThanOrEqualTo(writtenEnd);
                reopened.appendAsLeader(batch(random, reopened.logEndOffset()), 1);
                assertThat(TestLogs.readAll(reopened, 0)).hasSize((int) reopened.logEndOffset());
            }
        } finally {
            scheduler.shutdown();
            assertThat(scheduler.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            FileTrees.deleteRecursively(root);
        }
    }

    private static long nextBase(List<BatchSpan> spans, BatchSpan span, long logEnd) {
        int i = spans.indexOf(span);
        return i + 1 < spans.size() ? spans.get(i + 1).baseOffset() : logEnd;
    }

    private static ByteBuffer batch(Random random, long firstOffset) {
        CompressionType codec = CompressionType.values()[random.nextInt(CompressionType.values().length)];
        RecordBatchBuilder builder = new RecordBatchBuilder(codec);
        int count = 1 + random.nextInt(8);
        for (int i = 0; i < count; i++) {
            byte[] value = ("value-" + (firstOffset + i) + "-" + "z".repeat(random.nextInt(120)))
                    .getBytes(StandardCharsets.UTF_8);
            builder.append(1_000_000L + random.nextInt(1000), null, value);
        }
        return builder.build();
    }

    private static List<BatchSpan> spans(LogSegment segment) throws IOException {
        List<BatchSpan> spans = new ArrayList<>();
        ByteBuffer header = LogSegment.newHeaderBuffer();
        long position = 0;
        while (position < segment.sizeInBytes() && segment.readHeader(position, header)) {
            long end = position + 12 + header.getInt(8);
            spans.add(new BatchSpan(position, end, header.getLong(0)));
            position = end;
        }
        return spans;
    }

    /** Damages the log file; returns the position of the first byte that no longer holds what was written. */
    private static long damageLog(Path file, Random random, int kind, long size) throws IOException {
        long at = size == 0 ? 0 : (long) (random.nextDouble() * size);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            switch (kind) {
                case 0 -> {
                    channel.truncate(at);
                    return at;
                }
                case 1, 2 -> {
                    int length = (int) Math.min(size - at, 1 + random.nextInt(300));
                    ByteBuffer original = ByteBuffer.allocate(length);
                    channel.read(original, at);
                    byte[] bytes = original.array().clone();
                    for (int i = 0; i < length; i++) {
                        bytes[i] = kind == 1 ? 0 : (byte) (bytes[i] ^ (1 + random.nextInt(255)));
                    }
                    channel.write(ByteBuffer.wrap(bytes), at);
                    for (int i = 0; i < length; i++) {
                        if (bytes[i] != original.get(i)) {
                            return at + i;
                        }
                    }
                    return size; // zeroing bytes that were zero changed nothing
                }
                case 3 -> {
                    channel.truncate(at);
                    byte[] garbage = new byte[1 + random.nextInt(100)];
                    random.nextBytes(garbage);
                    channel.write(ByteBuffer.wrap(garbage), at);
                    return at;
                }
                default -> {
                    // garbage appended after the last batch: a write whose length never made it
                    byte[] garbage = new byte[1 + random.nextInt(100)];
                    random.nextBytes(garbage);
                    channel.write(ByteBuffer.wrap(garbage), size);
                    return size;
                }
            }
        }
    }

    private static void damageIndex(Path file, Random random, int kind) throws IOException {
        switch (kind) {
            case 0 -> Files.deleteIfExists(file);
            case 1 -> {
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    channel.truncate(random.nextInt((int) Math.max(1, Math.min(channel.size(), 400))));
                }
            }
            case 2 -> {
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    byte[] garbage = new byte[64];
                    random.nextBytes(garbage);
                    channel.write(ByteBuffer.wrap(garbage), random.nextInt(200));
                }
            }
            default -> {
                // left as the crash left it: preallocated, trailing zero entries
            }
        }
    }
}

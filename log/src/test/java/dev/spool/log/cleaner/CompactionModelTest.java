package dev.spool.log.cleaner;

import dev.spool.log.FetchSlice;
import dev.spool.log.FileTrees;
import dev.spool.log.LogConfig;
import dev.spool.log.ManualLogClock;
import dev.spool.log.PartitionLog;
import dev.spool.log.TestLogs;
import dev.spool.log.TopicPartition;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Header;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchBuilder;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Model test of compaction: random keyed writes and tombstones (random codecs, some from an idempotent
 * producer), rolls, clock moves, cleanings with a tiny offset map (so dirty sections take several
 * passes) and a consumer reading in the middle of the log. After each cleaning, reading the log from
 * the start gives each key its latest value, or nothing once its tombstone's delete horizon has passed;
 * offsets strictly increase; below the cleaned point every key appears once; batches keep their codec;
 * the producer's last batch keeps its offsets and sequence; the consumer never sees a key go back.
 */
class CompactionModelTest {
    private static final long DELETE_RETENTION_MS = 1_000;
    private static final long PRODUCER_ID = 7;
    private static final TopicPartition PARTITION = new TopicPartition("model", 0);
    private static final CompressionType[] CODECS = CompressionType.values();

    /** The latest write of a key: its version and whether it was a tombstone. */
    private record Latest(long version, String value) {
    }

    /** Everything the model knows. */
    private static final class Model {
        final Map<String, Latest> latest = new HashMap<>();
        /** Tombstoned keys -> time of the first cleaning that rewrote the tombstone (its horizon start). */
        final Map<String, Long> tombstoneFirstCleanedMs = new HashMap<>();
        final Map<String, Long> tombstoneOffset = new HashMap<>();
        long version;
        int producerSequence;
        long producerLastOffset = -1;
        int producerLastBaseSequence = -1;
        long consumerNextOffset;
        long earliestTombstoneHorizonMs = Long.MAX_VALUE;
        final Map<String, Long> consumerSeen = new HashMap<>();
    }

    @Provide
    Arbitrary<List<int[]>> actions() {
        return Combinators.combine(Arbitraries.integers().between(0, 9), Arbitraries.integers().between(0, 1_000_000))
                .as((kind, a) -> new int[]{kind, a}).list().ofMinSize(10).ofMaxSize(80);
    }

    @Property(tries = 40)
    void compactionKeepsLatestValues(@ForAll("actions") List<int[]> actions,
                                     @ForAll("mapSlots") int mapSlots) throws IOException, InterruptedException {
        ScheduledExecutorService scheduler = TestLogs.scheduler();
        Path root = Files.createTempDirectory("spool-compaction-model");
        ManualLogClock clock = new ManualLogClock();
        LogConfig config = LogConfig.fromProperties(Map.of("cleanup.policy", "compact", "segment.bytes", "700",
                "index.interval.bytes", "100", "delete.retention.ms", Long.toString(DELETE_RETENTION_MS),
                "file.delete.delay.ms", "0", "min.cleanable.dirty.ratio", "0.01"));
        Model model = new Model();
        Cleaner cleaner = new Cleaner((long) mapSlots * OffsetMap.BYTES_PER_SLOT, clock);
        long firstDirty = -1;
        PartitionLog log = PartitionLog.open(root.resolve("model-0"), config, clock, scheduler);
        try {
            for (int[] action : actions) {
                int a = action[1];
                switch (action[0]) {
                    case 0, 1, 2, 3 -> write(log, clock, model, a, false);
                    case 4 -> write(log, clock, model, a, true);
                    case 5 -> log.roll();
                    case 6 -> clock.advance(1 + a % 700);
                    case 7 -> consume(log, model, 1 + a % 12);
                    default -> firstDirty = clean(log, cleaner, clock, model, firstDirty);
                }
            }
            log.roll();
            firstDirty = clean(log, cleaner, clock, model, firstDirty);
            consume(log, model, Integer.MAX_VALUE);
            if (log.logEndOffset() > 0) {
                assertThat(firstDirty).as("everything cleaned").isEqualTo(log.logEndOffset());
                int records = 0;
                for (RecordBatch batch : batches(log, log.logStartOffset())) {
                    records += batch.recordCount();
                }
                assertThat(records).as("one record per key at most").isLessThanOrEqualTo(model.latest.size());
            }
        } finally {
            log.close();
            scheduler.shutdown();
            assertThat(scheduler.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            FileTrees.deleteRecursively(root);
        }
    }

    @Provide
    Arbitrary<Integer> mapSlots() {
        return Arbitraries.integers().between(8, 200);
    }

    private static void write(PartitionLog log, ManualLogClock clock, Model model, int seed, boolean tombstone)
            throws IOException {
        CompressionType codec = CODECS[seed % CODECS.length];
        boolean idempotent = seed % 4 == 0;
        int count = 1 + (seed / 7) % 5;
        RecordBatchBuilder builder = new RecordBatchBuilder(codec);
        if (idempotent) {
            builder.producer(PRODUCER_ID, (short) 0, model.producerSequence);
        }
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String key = "k" + ((seed / 11 + i * 3) % 9);
            boolean isTombstone = tombstone && i == 0;
            long version = ++model.version;
            String value = isTombstone ? null : key + "=" + version;
            builder.append(clock.nowMs(), key.getBytes(StandardCharsets.UTF_8),
                    value == null ? null : value.getBytes(StandardCharsets.UTF_8),
                    Header.of("v", Long.toString(version).getBytes(StandardCharsets.UTF_8)),
                    Header.of("c", codec.configName.getBytes(StandardCharsets.UTF_8)));
            keys.add(key);
            model.latest.put(key, new Latest(version, value));
        }
        long firstOffset = log.appendAsLeader(builder.build(), 0).firstOffset();
        log.updateHighWatermark(log.logEndOffset());
        for (int i = 0; i < count; i++) {
            String key = keys.get(i);
            if (model.latest.get(key).value() == null) {
                model.tombstoneOffset.put(key, firstOffset + i);
                model.tombstoneFirstCleanedMs.remove(key);
            } else {
                model.tombstoneOffset.remove(key);
                model.tombstoneFirstCleanedMs.remove(key);
            }
        }
        if (idempotent) {
            model.producerLastBaseSequence = model.producerSequence;
            model.producerLastOffset = log.logEndOffset() - 1;
            model.producerSequence += count;
        }
    }

    private static long clean(PartitionLog log, Cleaner cleaner, ManualLogClock clock, Model model,
                              long firstDirty) throws IOException {
        LogToClean target = LogToClean.of(PARTITION, log, firstDirty, model.earliestTombstoneHorizonMs, clock.nowMs());
        CleaningResult result = cleaner.clean(target, () -> false);
        if (result.passes() == 0) {
            assertThat(target.tombstonesExpired()).isFalse();
            return firstDirty;
        }
        model.earliestTombstoneHorizonMs = result.earliestTombstoneHorizonMs();
        long nowMs = clock.nowMs();
        Set<String> expired = new HashSet<>();
        model.tombstoneOffset.forEach((key, offset) -> {
            Long firstCleanedMs = model.tombstoneFirstCleanedMs.get(key);
            if (firstCleanedMs != null && nowMs >= firstCleanedMs + DELETE_RETENTION_MS) {
                expired.add(key);
            } else if (firstCleanedMs == null && offset < result.nextDirtyOffset()) {
                model.tombstoneFirstCleanedMs.put(key, nowMs);
            }
        });
        checkLog(log, model, expired, result.nextDirtyOffset());
        return result.nextDirtyOffset();
    }

    private static void checkLog(PartitionLog log, Model model, Set<String> expired, long cleanedUpTo) throws IOException {
        Map<String, Record> last = new HashMap<>();
        Set<String> keysBelowCleaned = new HashSet<>();
        long previousOffset = -1;
        long producerLastOffset = -1;
        int producerLastBaseSequence = -1;
        for (RecordBatch batch : batches(log, log.logStartOffset())) {
            if (batch.producerId() == PRODUCER_ID && batch.lastOffset() > producerLastOffset) {
                producerLastOffset = batch.lastOffset();
                producerLastBaseSequence = batch.baseSequence();
            }
            for (Record record : batch.records()) {
                assertThat(record.offset()).as("offsets strictly increase").isGreaterThan(previousOffset);
                previousOffset = record.offset();
                String key = text(record.key());
                assertThat(header(record, "c")).as("codec of " + batch).isEqualTo(batch.compressionType().configName);
                if (record.offset() < cleanedUpTo) {
                    assertThat(keysBelowCleaned.add(key)).as("key " + key + " once below " + cleanedUpTo).isTrue();
                }
                last.put(key, record);
            }
        }
        for (Map.Entry<String, Latest> entry : model.latest.entrySet()) {
            String key = entry.getKey();
            Record found = last.get(key);
            if (entry.getValue().value() != null) {
                assertThat(found).as("latest value of " + key).isNotNull();
                assertThat(text(found.value())).isEqualTo(entry.getValue().value());
            } else if (expired.contains(key)) {
                assertThat(found).as("expired tombstone of " + key + " removed").isNull();
            } else if (found != null) {
                assertThat(found.value()).as("tombstone of " + key + " or nothing").isNull();
                assertThat(header(found, "v")).isEqualTo(Long.toString(entry.getValue().version()));
            }
        }
        assertThat(producerLastOffset).as("last batch of the producer").isEqualTo(model.producerLastOffset);
        assertThat(producerLastBaseSequence).isEqualTo(model.producerLastBaseSequence);
    }

    /** Reads up to {@code maxRecords} records from the consumer's position; a key's versions only go up. */
    private static void consume(PartitionLog log, Model model, int maxRecords) throws IOException {
        int read = 0;
        while (read < maxRecords && model.consumerNextOffset < log.logEndOffset()) {
            FetchSlice slice = log.read(Math.max(model.consumerNextOffset, log.logStartOffset()), 2000);
            List<Record> records = TestLogs.recordsOfWholeBatches(slice.readFully(), model.consumerNextOffset);
            if (records.isEmpty()) {
                // only emptied batches (or none) before the next record: skip past them
                List<RecordBatch> batches = batches(log, model.consumerNextOffset);
                model.consumerNextOffset = batches.isEmpty() ? log.logEndOffset() : batches.get(0).nextOffset();
                continue;
            }
            for (Record record : records) {
                if (read == maxRecords) {
                    break;
                }
                long version = Long.parseLong(header(record, "v"));
                Long seen = model.consumerSeen.put(text(record.key()), version);
                if (seen != null) {
                    assertThat(version).as("key " + text(record.key()) + " never goes back").isGreaterThan(seen);
                }
                model.consumerNextOffset = record.offset() + 1;
                read++;
            }
        }
    }

    private static List<RecordBatch> batches(PartitionLog log, long from) throws IOException {
        List<RecordBatch> out = new ArrayList<>();
        long next = from;
        while (next < log.logEndOffset()) {
            ByteBuffer bytes = log.read(next, 1 << 20).readFully();
            if (!bytes.hasRemaining()) {
                break;
            }
            int position = bytes.position();
            while (RecordBatch.sizeAt(bytes, position) > 0 && position + RecordBatch.sizeAt(bytes, position) <= bytes.limit()) {
                RecordBatch batch = new RecordBatch().wrap(bytes, position);
                assertThat(batch.validate().isValid()).as("valid " + batch).isTrue();
                if (batch.lastOffset() >= from) {
                    out.add(batch);
                }
                next = batch.nextOffset();
                position += batch.sizeInBytes();
            }
        }
        return out;
    }

    private static String header(Record record, String name) {
        for (Header header : record.headers()) {
            if (header.key().equals(name)) {
                return text(header.value());
            }
        }
        throw new AssertionError("No header " + name + " on " + record);
    }

    private static String text(ByteBuffer buffer) {
        return buffer == null ? null : StandardCharsets.UTF_8.decode(buffer.duplicate()).toString();
    }
}

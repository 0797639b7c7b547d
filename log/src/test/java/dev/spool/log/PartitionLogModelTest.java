package dev.spool.log;

import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatchBuilder;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Model test: random sequences of append / read / roll / truncate / delete-records / retention /
 * timestamp lookup / reopen (clean and unclean) against a list of records; every read must agree.
 * Tiny segments and index files make every roll rule (size, full index) fire often.
 */
class PartitionLogModelTest {
    private static final long RETENTION_MS = 60_000;

    /** One record as the model remembers it. */
    private record ModelRecord(long offset, long batchBaseOffset, long timestamp, String key, String value) {
    }

    @Provide
    Arbitrary<List<int[]>> actions() {
        return Combinators.combine(Arbitraries.integers().between(0, 12), Arbitraries.integers().between(0, 1_000_000),
                Arbitraries.integers().between(0, 1_000_000)).as((kind, a, b) -> new int[]{kind, a, b})
                .list().ofMinSize(5).ofMaxSize(70);
    }

    @Property(tries = 150)
    void logAgreesWithModel(@ForAll("actions") List<int[]> actions) throws IOException, InterruptedException {
        ScheduledExecutorService scheduler = TestLogs.scheduler();
        Path root = Files.createTempDirectory("spool-model");
        Path dir = root.resolve("model-0");
        ManualLogClock clock = new ManualLogClock();
        LogConfig config = TestLogs.config("segment.bytes", 1500, "index.interval.bytes", 100,
                "segment.index.bytes", 120, "retention.ms", RETENTION_MS, "file.delete.delay.ms", 0);
        List<ModelRecord> model = new ArrayList<>();
        long[] state = {0, 0}; // log start offset, log end offset
        PartitionLog log = PartitionLog.open(dir, config, clock, scheduler);
        try {
            for (int[] action : actions) {
                log = apply(action, log, dir, config, clock, scheduler, model, state);
                assertThat(log.logStartOffset()).as("log start offset").isEqualTo(state[0]);
                assertThat(log.logEndOffset()).as("log end offset").isEqualTo(state[1]);
            }
            assertReadsAgree(log, model, state[0]);
        } finally {
            log.close();
            scheduler.shutdown(); // runs the pending deletions first
            assertThat(scheduler.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            FileTrees.deleteRecursively(root);
        }
    }

    private PartitionLog apply(int[] action, PartitionLog log, Path dir, LogConfig config, ManualLogClock clock,
                               ScheduledExecutorService scheduler, List<ModelRecord> model, long[] state) throws IOException {
        int a = action[1];
        int b = action[2];
        switch (action[0]) {
            case 0, 1, 2, 3 -> append(log, clock, model, state, a, b);
            case 4 -> {
                long from = pick(state, a);
                assertReadAt(log, model, from, 1 + b % 3000);
            }
            case 5 -> log.roll();
            case 6 -> {
                long target = state[1] == 0 ? 0 : a % (state[1] + 2);
                truncateModel(model, state, target);
                log.truncateTo(target);
            }
            case 7 -> {
                long target = pick(state, a);
                state[0] = Math.max(state[0], target);
                model.removeIf(r -> r.offset() < state[0]);
                assertThat(log.deleteRecordsBefore(target)).isEqualTo(state[0]);
            }
            case 8 -> {
                clock.advance(b % (2 * RETENTION_MS));
                log.deleteOldSegments();
                long newStart = log.logStartOffset();
                assertThat(newStart).isGreaterThanOrEqualTo(state[0]);
                long expiredBefore = clock.nowMs() - RETENTION_MS;
                for (ModelRecord record : model) {
                    if (record.offset() < newStart) {
                        assertThat(record.timestamp()).as("record deleted by retention").isLessThan(expiredBefore);
                    }
                }
                state[0] = newStart;
                model.removeIf(r -> r.offset() < newStart);
            }
            case 9 -> {
                long t = ManualLogClock.START_MS + a % 20_000 - 1000;
                ModelRecord expected = model.stream().filter(r -> r.timestamp() >= t).findFirst().orElse(null);
                TimestampOffset actual = log.offsetForTimestamp(t);
                assertThat(actual.offset()).as("offset for timestamp " + t)
                        .isEqualTo(expected == null ? -1 : expected.offset());
            }
            case 10 -> {
                ModelRecord max = model.stream().max(Comparator.comparingLong(ModelRecord::timestamp)).orElse(null);
                TimestampOffset actual = log.offsetForTimestamp(TimestampOffset.MAX_TIMESTAMP);
                if (max != null) {
                    assertThat(actual.timestampMs()).isEqualTo(max.timestamp());
                    assertThat(model.stream().filter(r -> r.offset() == actual.offset()).findFirst().orElseThrow()
                            .timestamp()).isEqualTo(max.timestamp());
                }
            }
            case 11 -> {
                long end = log.logEndOffset();
                log.close();
                log = PartitionLog.open(dir, config, clock, scheduler, new LogLoadOptions(end, state[0], true));
            }
            default -> {
                // opened as after a crash (no clean-shutdown marker): every segment is validated again;
                // torn files themselves are the crash tests' business
                log.close();
                log = PartitionLog.open(dir, config, clock, scheduler, new LogLoadOptions(0, state[0], false));
            }
        }
        return log;
    }

    private static long pick(long[] state, int a) {
        return state[0] + a % (state[1] - state[0] + 1);
    }

    private static void append(PartitionLog log, ManualLogClock clock, List<ModelRecord> model, long[] state,
                               int a, int b) throws IOException {
        int count = 1 + a % 6;
        CompressionType codec = a % 7 == 0 ? CompressionType.LZ4 : CompressionType.NONE;
        RecordBatchBuilder builder = new RecordBatchBuilder(codec);
        List<ModelRecord> added = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long timestamp = clock.nowMs() + ((b >> i) % 2000) - 1000;
            String key = "k" + (state[1] + i);
            String value = "v" + "x".repeat((b + i) % 90);
            builder.append(timestamp, TestLogs.bytes(key), TestLogs.bytes(value));
            added.add(new ModelRecord(state[1] + i, state[1], timestamp, key, value));
        }
        AppendInfo info = log.appendAsLeader(builder.build(), 0);
        assertThat(info.firstOffset()).isEqualTo(state[1]);
        model.addAll(added);
        state[1] += count;
        log.updateHighWatermark(state[1]);
        clock.advance(b % 500);
    }

    private static void truncateModel(List<ModelRecord> model, long[] state, long target) {
        if (target >= state[1]) {
            return;
        }
        if (target < state[0]) {
            model.clear();
            state[0] = target;
            state[1] = target;
            return;
        }
        // a batch holding the target goes whole: the log then ends at that batch's base offset
        long cut = model.stream().filter(r -> r.offset() == target).findFirst()
                .map(ModelRecord::batchBaseOffset).orElse(target);
        model.removeIf(r -> r.offset() >= cut);
        state[1] = cut;
        state[0] = Math.min(state[0], cut);
    }

    private static void assertReadAt(PartitionLog log, List<ModelRecord> model, long from, int maxBytes)
            throws IOException {
        FetchSlice slice = log.read(from, maxBytes);
        List<ModelRecord> expected = model.stream().filter(r -> r.offset() >= from).toList();
        if (expected.isEmpty()) {
            assertThat(slice.isEmpty()).isTrue();
            return;
        }
        List<Record> got = TestLogs.recordsOfWholeBatches(slice.readFully(), from);
        assertThat(got).as("at least one batch from " + from).isNotEmpty();
        for (int i = 0; i < got.size(); i++) {
            assertSame(got.get(i), expected.get(i));
        }
    }

    private static void assertReadsAgree(PartitionLog log, List<ModelRecord> model, long start) throws IOException {
        List<Record> all = TestLogs.readAll(log, start);
        assertThat(all).hasSameSizeAs(model);
        for (int i = 0; i < all.size(); i++) {
            assertSame(all.get(i), model.get(i));
        }
    }

    private static void assertSame(Record got, ModelRecord expected) {
        assertThat(got.offset()).isEqualTo(expected.offset());
        assertThat(got.timestamp()).isEqualTo(expected.timestamp());
        assertThat(TestLogs.text(got.key())).isEqualTo(expected.key());
        assertThat(TestLogs.text(got.value())).isEqualTo(expected.value());
    }
}

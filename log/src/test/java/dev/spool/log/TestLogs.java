package dev.spool.log;

import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchBuilder;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;

/** Helpers shared by the log tests: batches with recognisable records, reading a whole log back. */
public final class TestLogs {
    static final long START_MS = 1_700_000_000_000L;

    private TestLogs() {
    }

    /** A manual clock for tests: time moves only when told. */
    public static final class ManualClock implements LogClock {
        private final AtomicLong nowMs = new AtomicLong(START_MS);

        @Override
        public long nowMs() {
            return nowMs.get();
        }

        public void advance(long ms) {
            nowMs.addAndGet(ms);
        }
    }

    public static ScheduledExecutorService scheduler() {
        return Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "log-test-scheduler");
            thread.setDaemon(true);
            return thread;
        });
    }

    static LogConfig config(Object... keyValues) {
        java.util.HashMap<String, String> map = new java.util.HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put((String) keyValues[i], String.valueOf(keyValues[i + 1]));
        }
        return LogConfig.fromProperties(Map.copyOf(map));
    }

    /** A batch of {@code count} records "k{tag}-{i}" -> "v{tag}-{i}" with the given timestamp. */
    static ByteBuffer batch(String tag, int count, long timestampMs, CompressionType compression) {
        RecordBatchBuilder builder = new RecordBatchBuilder(compression);
        for (int i = 0; i < count; i++) {
            builder.append(timestampMs, bytes("k" + tag + "-" + i), bytes("v" + tag + "-" + i));
        }
        return builder.build();
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static String text(ByteBuffer buffer) {
        return buffer == null ? null : StandardCharsets.UTF_8.decode(buffer.duplicate()).toString();
    }

    /** Every record from {@code fromOffset} to the log end, read through {@link PartitionLog#read}, each batch validated. */
    public static List<Record> readAll(PartitionLog log, long fromOffset) throws IOException {
        List<Record> out = new ArrayList<>();
        long next = fromOffset;
        while (next < log.logEndOffset()) {
            FetchSlice slice = log.read(next, 64 * 1024);
            if (slice.isEmpty()) {
                break;
            }
            ByteBuffer bytes = slice.readFully();
            out.addAll(recordsOfWholeBatches(bytes, next));
            long after = nextOffsetAfterWholeBatches(bytes, next);
            if (after == next) {
                break;
            }
            // past the last batch, not just its last record: compaction leaves batches ending in gaps
            next = after;
        }
        return out;
    }

    /** The next offset after the last whole batch in {@code bytes}, or {@code fromOffset} if none is whole. */
    public static long nextOffsetAfterWholeBatches(ByteBuffer bytes, long fromOffset) {
        long next = fromOffset;
        RecordBatch batch = new RecordBatch();
        int position = bytes.position();
        while (RecordBatch.sizeAt(bytes, position) > 0 && position + RecordBatch.sizeAt(bytes, position) <= bytes.limit()) {
            batch.wrap(bytes, position);
            next = Math.max(next, batch.nextOffset());
            position += batch.sizeInBytes();
        }
        return next;
    }

    /**
     * The records at or after {@code fromOffset} of the whole batches in {@code bytes} (a partial last batch,
     * as a read cut by maxBytes leaves, is skipped); throws if a batch does not validate.
     */
    public static List<Record> recordsOfWholeBatches(ByteBuffer bytes, long fromOffset) {
        List<Record> out = new ArrayList<>();
        RecordBatch batch = new RecordBatch();
        int position = bytes.position();
        while (RecordBatch.sizeAt(bytes, position) > 0 && position + RecordBatch.sizeAt(bytes, position) <= bytes.limit()) {
            batch.wrap(bytes, position);
            if (!batch.validate().isValid()) {
                throw new IllegalStateException("Invalid batch " + batch + ": " + batch.validate());
            }
            for (Record record : batch.records()) {
                if (record.offset() >= fromOffset) {
                    out.add(record);
                }
            }
            position += batch.sizeInBytes();
        }
        return out;
    }
}

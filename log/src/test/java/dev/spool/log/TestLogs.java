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
final class TestLogs {
    static final long START_MS = 1_700_000_000_000L;

    private TestLogs() {
    }

    /** A manual clock for tests: time moves only when told. */
    static final class ManualClock implements LogClock {
        private final AtomicLong nowMs = new AtomicLong(START_MS);

        @Override
        public long nowMs() {
            return nowMs.get();
        }

        void advance(long ms) {
            nowMs.addAndGet(ms);
        }
    }

    static ScheduledExecutorService scheduler() {
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

    /** Every record from {@code fromOffset} to the log end, read through {@link PartitionLog#read}. */
    static List<Record> readAll(PartitionLog log, long fromOffset) throws IOException {
        List<Record> out = new ArrayList<>();
        long next = fromOffset;
        while (next < log.logEndOffset()) {
            FetchSlice slice = log.read(next, 64 * 1024);
            if (slice.isEmpty()) {
                break;
            }
            ByteBuffer bytes = slice.readFully();
            RecordBatch batch = new RecordBatch();
            int position = 0;
            while (true) {
                int size = RecordBatch.sizeAt(bytes, position);
                if (size < 0 || position + size > bytes.limit()) {
                    break;
                }
                batch.wrap(bytes, position);
                if (!batch.validate().isValid()) {
                    throw new IllegalStateException("Invalid batch " + batch + ": " + batch.validate());
                }
                for (Record record : batch.records()) {
                    if (record.offset() >= next) {
                        out.add(record);
                    }
                }
                next = Math.max(next, batch.nextOffset());
                position += size;
            }
        }
        return out;
    }
}

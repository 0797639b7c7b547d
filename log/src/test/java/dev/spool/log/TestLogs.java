package dev.spool.log;

import dev.spool.fixtures.DaemonScheduler;
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
import java.util.concurrent.ScheduledExecutorService;

/**
 * Helpers shared by the log tests (and, through the log's test-jar, other modules' tests): configs,
 * batches with recognisable records, reading a whole log back. Stateless.
 */
public final class TestLogs {
    private TestLogs() {
    }

    /** The scheduler a test's logs run their own tasks on (flushes, deletions): one daemon thread. */
    public static ScheduledExecutorService scheduler() {
        return DaemonScheduler.start("log-test-scheduler");
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
        WholeBatches.forEachInLog(log, fromOffset, (batch, from) -> addValidated(batch, from, out));
        return out;
    }

    /**
     * The records at or after {@code fromOffset} of the whole batches in {@code bytes} (a partial last batch,
     * as a read cut by maxBytes leaves, is skipped); throws if a batch does not validate.
     */
    public static List<Record> recordsOfWholeBatches(ByteBuffer bytes, long fromOffset) {
        List<Record> out = new ArrayList<>();
        WholeBatches.forEach(bytes, fromOffset, (batch, from) -> addValidated(batch, from, out));
        return out;
    }

    private static void addValidated(RecordBatch batch, long fromOffset, List<Record> out) {
        if (!batch.validate().isValid()) {
            throw new IllegalStateException("Invalid batch " + batch + ": " + batch.validate());
        }
        for (Record record : batch.records()) {
            if (record.offset() >= fromOffset) {
                out.add(record);
            }
        }
    }
}

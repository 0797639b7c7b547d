package dev.spool.it;

import dev.spool.log.FetchSlice;
import dev.spool.log.LogClock;
import dev.spool.log.LogConfig;
import dev.spool.log.PartitionLog;
import dev.spool.log.TopicPartition;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Reads what a stopped broker left in a partition directory, with Spool's own log module: the records
 * as stored, to check what producers wrote without needing a consumer. Stateless.
 */
final class PartitionFiles {

    private PartitionFiles() {
    }

    /** Every record of {@code topic}-{@code partition} under {@code dataDir}, in offset order. */
    static List<Record> records(Path dataDir, String topic, int partition) throws IOException {
        List<Record> records = new ArrayList<>();
        forEachBatch(dataDir, topic, partition, (batch, fromOffset) -> {
            for (Record record : batch.records()) {
                if (record.offset() >= fromOffset) {
                    records.add(record);
                }
            }
        });
        return records;
    }

    /** The compression codec of each batch of the partition, in offset order. */
    static List<CompressionType> compressionTypes(Path dataDir, String topic, int partition) throws IOException {
        List<CompressionType> types = new ArrayList<>();
        forEachBatch(dataDir, topic, partition, (batch, fromOffset) -> types.add(batch.compressionType()));
        return types;
    }

    /** Told of each stored batch and the first offset not yet seen (a batch may start below it). */
    private interface BatchVisitor {
        void visit(RecordBatch batch, long fromOffset);
    }

    private static void forEachBatch(Path dataDir, String topic, int partition, BatchVisitor visitor)
            throws IOException {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try (PartitionLog log = PartitionLog.open(dataDir.resolve(new TopicPartition(topic, partition).dirName()),
                LogConfig.defaults(), LogClock.SYSTEM, scheduler)) {
            long next = log.logStartOffset();
            while (next < log.logEndOffset()) {
                FetchSlice slice = log.read(next, 1 << 20);
                ByteBuffer bytes = slice.readFully();
                RecordBatch batch = new RecordBatch();
                for (int position = 0; position < bytes.limit(); position += batch.sizeInBytes()) {
                    if (RecordBatch.sizeAt(bytes, position) < 0 || position + RecordBatch.sizeAt(bytes, position) > bytes.limit()) {
                        break;
                    }
                    batch.wrap(bytes, position);
                    visitor.visit(batch, next);
                    next = Math.max(next, batch.nextOffset());
                }
            }
        } finally {
            scheduler.shutdownNow();
        }
    }
}

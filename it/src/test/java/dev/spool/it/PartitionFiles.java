package dev.spool.it;

import dev.spool.log.LogClock;
import dev.spool.log.LogConfig;
import dev.spool.log.PartitionLog;
import dev.spool.log.TestLogs;
import dev.spool.log.TopicPartition;
import dev.spool.log.WholeBatches;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Record;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Reads what a stopped broker left in a partition directory, with Spool's own log module and its test
 * fixtures: the records as stored, to check what producers wrote without needing a consumer. Stateless.
 */
final class PartitionFiles {

    private PartitionFiles() {
    }

    /** Every record of {@code topic}-{@code partition} under {@code dataDir}, in offset order, each batch validated. */
    static List<Record> records(Path dataDir, String topic, int partition) throws IOException {
        return read(dataDir, topic, partition, log -> TestLogs.readAll(log, log.logStartOffset()));
    }

    /** The compression codec of each batch of the partition, in offset order. */
    static List<CompressionType> compressionTypes(Path dataDir, String topic, int partition) throws IOException {
        return read(dataDir, topic, partition, log -> {
            List<CompressionType> types = new ArrayList<>();
            WholeBatches.forEachInLog(log, log.logStartOffset(), (batch, fromOffset) -> types.add(batch.compressionType()));
            return types;
        });
    }

    /** What is read from an open log. */
    private interface LogReader<T> {
        T read(PartitionLog log) throws IOException;
    }

    private static <T> T read(Path dataDir, String topic, int partition, LogReader<T> reader) throws IOException {
        ScheduledExecutorService scheduler = TestLogs.scheduler();
        try (PartitionLog log = PartitionLog.open(dataDir.resolve(new TopicPartition(topic, partition).dirName()),
                LogConfig.defaults(), LogClock.SYSTEM, scheduler)) {
            return reader.read(log);
        } finally {
            scheduler.shutdownNow();
        }
    }
}

package dev.spool.broker.fetch;

import dev.spool.broker.metadata.PartitionImage;
import dev.spool.broker.partition.Partition;
import dev.spool.fixtures.ManualClock;
import dev.spool.log.LogConfig;
import dev.spool.log.PartitionLog;
import dev.spool.log.TopicPartition;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.RecordBatchBuilder;
import dev.spool.protocol.types.Uuid;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Real partitions with real logs in a test directory, found by name or id: the {@link PartitionLookup}
 * the fetch-side handlers get in tests. Appends as the produce path does (high watermark to the log end,
 * then the append listeners). Not thread-safe for setup; lookups from any thread.
 */
final class TestPartitions implements PartitionLookup, AutoCloseable {

    private final Path dir;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final Map<String, Partition> byName = new HashMap<>();
    private final Map<Uuid, String> names = new HashMap<>();
    /** The logs' clock, and the handlers' in the tests. */
    final ManualClock clock = new ManualClock();
    /** How many times a reader looked a partition up: once per partition per read of a fetch. */
    final java.util.concurrent.atomic.AtomicInteger lookups = new java.util.concurrent.atomic.AtomicInteger();

    TestPartitions(Path dir) {
        this.dir = dir;
    }

    Partition create(String topic, int partition, Uuid topicId, int leaderEpoch) throws IOException {
        return create(topic, partition, topicId, leaderEpoch, 1);
    }

    /** A partition of which this broker (1) is a replica, led by {@code leader}. */
    Partition create(String topic, int partition, Uuid topicId, int leaderEpoch, int leader) throws IOException {
        TopicPartition topicPartition = new TopicPartition(topic, partition);
        PartitionLog log = PartitionLog.open(dir.resolve(topicPartition.dirName()), LogConfig.defaults(),
                clock::nowMs, scheduler);
        Partition created = new Partition(topicPartition, topicId, log,
                new PartitionImage(partition, leader == 1 ? List.of(1) : List.of(1, leader), List.of(1), leader,
                        leaderEpoch, 0));
        byName.put(topic + "-" + partition, created);
        names.put(topicId, topic);
        return created;
    }

    /** A partition replicated on {@code replicas}, all in sync, led by this broker (1). */
    Partition createReplicated(String topic, int partition, Uuid topicId, int leaderEpoch, List<Integer> replicas)
            throws IOException {
        Partition created = create(topic, partition, topicId, leaderEpoch);
        Partition replicated = new Partition(created.topicPartition(), topicId, created.log(),
                new PartitionImage(partition, replicas, replicas, 1, leaderEpoch, 0));
        byName.put(topic + "-" + partition, replicated);
        return replicated;
    }

    /** Appends one batch of {@code records} records of {@code valueBytes} bytes each, timestamps from {@code firstTimestampMs}. */
    static void append(Partition partition, int records, int valueBytes, long firstTimestampMs) {
        append(partition, records, valueBytes, firstTimestampMs, true);
    }

    /** As {@link #append}, the high watermark left where it is (a replicated leader's, before its followers fetch). */
    static void appendUncommitted(Partition partition, int records, int valueBytes) {
        append(partition, records, valueBytes, 0, false);
    }

    private static void append(Partition partition, int records, int valueBytes, long firstTimestampMs,
                               boolean commit) {
        RecordBatchBuilder builder = new RecordBatchBuilder(CompressionType.NONE);
        for (int i = 0; i < records; i++) {
            byte[] value = new byte[valueBytes];
            java.util.Arrays.fill(value, (byte) i);
            builder.append(firstTimestampMs + i, ("key-" + i).getBytes(StandardCharsets.UTF_8), value);
        }
        try {
            partition.log().appendAsLeader(builder.build(), partition.leaderEpoch());
            if (commit) {
                partition.log().updateHighWatermark(partition.log().logEndOffset());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        partition.notifyAppended();
    }

    @Override
    public int localId() {
        return 1;
    }

    /** This broker is node 1, the leader of every partition made here. */
    @Override
    public boolean leads(Partition partition) {
        return partition.assignment().leader() == 1;
    }

    @Override
    public Partition byName(String topic, int partition) {
        lookups.incrementAndGet();
        return byName.get(topic + "-" + partition);
    }

    @Override
    public Partition byId(Uuid topicId, int partition) {
        String name = names.get(topicId);
        if (name == null) {
            lookups.incrementAndGet();
            return null;
        }
        return byName(name, partition);
    }

    @Override
    public boolean topicExists(Uuid topicId) {
        return names.containsKey(topicId);
    }

    @Override
    public void close() throws IOException {
        for (Partition partition : byName.values()) {
            partition.log().close();
        }
        scheduler.shutdownNow();
    }
}

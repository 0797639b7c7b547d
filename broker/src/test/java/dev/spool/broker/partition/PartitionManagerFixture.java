package dev.spool.broker.partition;

import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.config.BrokerConfigLayers;
import dev.spool.broker.metadata.ConfigResource;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.VersionedRecord;
import dev.spool.fixtures.ManualClock;
import dev.spool.log.AppendInfo;
import dev.spool.log.PartitionLog;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.RecordBatchBuilder;
import dev.spool.protocol.metadata.ConfigRecordData;
import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.metadata.PartitionRecordData;
import dev.spool.protocol.metadata.TopicRecordData;
import dev.spool.protocol.types.Uuid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * A real {@link PartitionManager} over a test directory, driven by metadata images built from real
 * metadata records as the MetadataManager would apply them, with a settable clock. Not thread-safe.
 */
public final class PartitionManagerFixture implements AutoCloseable {

    private final ManualClock clock = new ManualClock();
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final PartitionManager partitions;
    private MetadataImage image = MetadataImage.EMPTY;

    public PartitionManagerFixture(Path logDir) {
        this(List.of(logDir));
    }

    public PartitionManagerFixture(List<Path> logDirs) {
        BrokerConfigLayers layers = new BrokerConfigLayers(new BrokerConfig(Map.of()));
        partitions = new PartitionManager(logDirs, layers::topicLogDefaults, clock::nowMs, scheduler);
    }

    public PartitionManager partitions() {
        return partitions;
    }

    /** The metadata image the partitions were last given. */
    public MetadataImage image() {
        return image;
    }

    public ManualClock clock() {
        return clock;
    }

    public void apply(VersionedRecord... records) {
        MetadataImage previous = image;
        image = previous.apply(List.of(records), previous.offset() + records.length);
        partitions.onImage(previous, image);
    }

    /** A topic whose partitions are all on this broker (1). */
    public void createTopic(String name, int partitionCount) {
        createTopic(name, partitionCount, List.of(1));
    }

    /** A topic whose partitions all have these replicas, the first leading. */
    public void createTopic(String name, int partitionCount, List<Integer> replicas) {
        Uuid id = Uuid.randomUuid();
        List<VersionedRecord> records = new ArrayList<>();
        records.add(VersionedRecord.of(MetadataRecordType.TOPIC_RECORD, new TopicRecordData().setName(name).setTopicId(id)));
        for (int partition = 0; partition < partitionCount; partition++) {
            records.add(VersionedRecord.of(MetadataRecordType.PARTITION_RECORD, new PartitionRecordData().setTopicId(id)
                    .setPartitionId(partition).setReplicas(replicas).setIsr(replicas).setLeader(replicas.get(0))));
        }
        apply(records.toArray(VersionedRecord[]::new));
    }

    public void setConfig(ConfigResource resource, String name, String value) {
        apply(VersionedRecord.of(MetadataRecordType.CONFIG_RECORD, new ConfigRecordData()
                .setResourceType(resource.type()).setResourceName(resource.name()).setName(name).setValue(value)));
    }

    public PartitionLog log(String topic, int partition) {
        return partitions.get(topic, partition).log();
    }

    /** Appends one record of {@code valueBytes} bytes as the produce path does (the high watermark follows). */
    public AppendInfo append(String topic, int partition, int valueBytes) throws IOException {
        ByteBuffer batch = new RecordBatchBuilder(CompressionType.NONE)
                .append(clock.nowMs(), "k".getBytes(StandardCharsets.UTF_8), new byte[valueBytes]).build();
        PartitionLog log = log(topic, partition);
        AppendInfo info = log.appendAsLeader(batch, 0);
        log.updateHighWatermark(log.logEndOffset());
        return info;
    }

    @Override
    public void close() {
        partitions.close();
        scheduler.shutdownNow();
    }
}

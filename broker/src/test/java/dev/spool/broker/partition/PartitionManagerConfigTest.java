package dev.spool.broker.partition;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.config.BrokerConfigLayers;
import dev.spool.broker.metadata.ConfigResource;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.VersionedRecord;
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
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Topic and broker config changes in the metadata image reach the hosted logs at once, without a restart. */
class PartitionManagerConfigTest {

    @TempDir
    Path logDir;

    private final AtomicLong nowMs = new AtomicLong(1_700_000_000_000L);
    private ScheduledExecutorService scheduler;
    private PartitionManager partitions;
    private MetadataImage image = MetadataImage.EMPTY;

    @BeforeEach
    void start() {
        scheduler = Executors.newSingleThreadScheduledExecutor();
        BrokerConfigLayers layers = new BrokerConfigLayers(new BrokerConfig(Map.of()));
        partitions = new PartitionManager(logDir, layers::topicLogDefaults, nowMs::get, scheduler);
        Uuid id = Uuid.randomUuid();
        apply(VersionedRecord.of(MetadataRecordType.TOPIC_RECORD, new TopicRecordData().setName("orders").setTopicId(id)),
                VersionedRecord.of(MetadataRecordType.PARTITION_RECORD, new PartitionRecordData().setTopicId(id)
                        .setPartitionId(0).setReplicas(List.of(1)).setIsr(List.of(1)).setLeader(1)));
    }

    @AfterEach
    void stop() {
        partitions.close();
        scheduler.shutdownNow();
    }

    private void apply(VersionedRecord... records) {
        MetadataImage previous = image;
        image = previous.apply(List.of(records), previous.offset() + records.length);
        partitions.onImage(previous, image);
    }

    private void setConfig(ConfigResource resource, String name, String value) {
        apply(VersionedRecord.of(MetadataRecordType.CONFIG_RECORD, new ConfigRecordData()
                .setResourceType(resource.type()).setResourceName(resource.name()).setName(name).setValue(value)));
    }

    private PartitionLog log() {
        return partitions.get("orders", 0).log();
    }

    private AppendInfo append(int valueBytes) throws IOException {
        ByteBuffer batch = new RecordBatchBuilder(CompressionType.NONE)
                .append(nowMs.get(), "k".getBytes(StandardCharsets.UTF_8), new byte[valueBytes]).build();
        AppendInfo info = log().appendAsLeader(batch, 0);
        log().updateHighWatermark(log().logEndOffset());
        return info;
    }

    @Test
    void topicConfigChangesReachTheLog() {
        setConfig(ConfigResource.topic("orders"), "retention.ms", "60000");
        setConfig(ConfigResource.topic("orders"), "segment.bytes", "1024");
        setConfig(ConfigResource.topic("orders"), "max.message.bytes", "4096");
        setConfig(ConfigResource.topic("orders"), "message.timestamp.type", "LogAppendTime");
        setConfig(ConfigResource.topic("orders"), "cleanup.policy", "compact,delete");
        setConfig(ConfigResource.topic("orders"), "flush.messages", "1");

        assertThat(log().config().retentionMs).isEqualTo(60_000L);
        assertThat(log().config().segmentBytes).isEqualTo(1024);
        assertThat(log().config().maxMessageBytes).isEqualTo(4096);
        assertThat(log().config().logAppendTime).isTrue();
        assertThat(log().config().compact).isTrue();
        assertThat(log().config().flushMessages).isEqualTo(1L);

        setConfig(ConfigResource.topic("orders"), "retention.ms", null);
        assertThat(log().config().retentionMs).isEqualTo(604_800_000L);
    }

    @Test
    void smallerSegmentBytesRollsTheNextAppends() throws IOException {
        append(600);
        append(600);
        assertThat(log().segments()).hasSize(1);

        setConfig(ConfigResource.topic("orders"), "segment.bytes", "1024");
        append(600);
        append(600);

        assertThat(log().segments()).hasSizeGreaterThan(1);
    }

    @Test
    void logAppendTimeStampsTheNextBatch() throws IOException {
        assertThat(append(10).logAppendTimeMs()).isEqualTo(-1L);

        setConfig(ConfigResource.topic("orders"), "message.timestamp.type", "LogAppendTime");

        assertThat(append(10).logAppendTimeMs()).isEqualTo(nowMs.get());
    }

    @Test
    void lowerRetentionDeletesOldSegmentsOnTheNextRetentionRun() throws IOException {
        setConfig(ConfigResource.topic("orders"), "segment.bytes", "1024");
        for (int i = 0; i < 4; i++) {
            append(600);
        }
        nowMs.addAndGet(120_000);
        assertThat(log().deleteOldSegments()).isZero();

        setConfig(ConfigResource.topic("orders"), "retention.ms", "60000");

        assertThat(log().deleteOldSegments()).isPositive();
        assertThat(log().logStartOffset()).isPositive();
    }

    @Test
    void dynamicBrokerDefaultReachesTopicsWithoutAnOverride() {
        setConfig(new ConfigResource(ConfigResource.BROKER, ""), "log.retention.ms", "5000");
        assertThat(log().config().retentionMs).isEqualTo(5000L);

        setConfig(new ConfigResource(ConfigResource.BROKER, "1"), "log.retention.ms", "7000");
        assertThat(log().config().retentionMs).isEqualTo(7000L);

        setConfig(ConfigResource.topic("orders"), "retention.ms", "9000");
        assertThat(log().config().retentionMs).isEqualTo(9000L);
    }
}

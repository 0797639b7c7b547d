package dev.spool.broker.partition;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.metadata.ConfigResource;
import dev.spool.log.PartitionLog;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Topic and broker config changes in the metadata image reach the hosted logs at once, without a restart. */
class PartitionManagerConfigTest {

    private static final ConfigResource ORDERS = ConfigResource.topic("orders");

    @TempDir
    Path logDir;

    private PartitionManagerFixture fixture;

    @BeforeEach
    void start() {
        fixture = new PartitionManagerFixture(logDir);
        fixture.createTopic("orders", 1);
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private PartitionLog log() {
        return fixture.log("orders", 0);
    }

    private void append(int valueBytes) throws IOException {
        fixture.append("orders", 0, valueBytes);
    }

    @Test
    void onlyPartitionsWithAReplicaOnThisBrokerAreHosted() {
        fixture.createTopic("elsewhere", 2, java.util.List.of(2, 3));
        fixture.createTopic("shared", 2, java.util.List.of(3, 1));

        assertThat(fixture.partitions().get("elsewhere", 0)).isNull();
        assertThat(fixture.partitions().get("shared", 1)).isNotNull();
        assertThat(logDir.resolve("elsewhere-0")).doesNotExist();
        assertThat(logDir.resolve("shared-0")).isDirectory();
    }

    @Test
    void topicConfigChangesReachTheLog() {
        fixture.setConfig(ORDERS, "retention.ms", "60000");
        fixture.setConfig(ORDERS, "segment.bytes", "1024");
        fixture.setConfig(ORDERS, "max.message.bytes", "4096");
        fixture.setConfig(ORDERS, "message.timestamp.type", "LogAppendTime");
        fixture.setConfig(ORDERS, "cleanup.policy", "compact,delete");
        fixture.setConfig(ORDERS, "flush.messages", "1");

        assertThat(log().config().retentionMs).isEqualTo(60_000L);
        assertThat(log().config().segmentBytes).isEqualTo(1024);
        assertThat(log().config().maxMessageBytes).isEqualTo(4096);
        assertThat(log().config().logAppendTime).isTrue();
        assertThat(log().config().compact).isTrue();
        assertThat(log().config().flushMessages).isEqualTo(1L);

        fixture.setConfig(ORDERS, "retention.ms", null);
        assertThat(log().config().retentionMs).isEqualTo(604_800_000L);
    }

    @Test
    void aStoredValueThisVersionRefusesFallsBackToTheDefaultInsteadOfFailing() {
        // An earlier version accepted any compression.type: its metadata log may hold one.
        fixture.setConfig(ORDERS, "compression.type", "none");
        fixture.setConfig(ORDERS, "retention.ms", "60000");
        fixture.createTopic("later", 1);

        assertThat(log().config().finalCompression).isNull();
        assertThat(log().config().retentionMs).isEqualTo(60_000L);
        assertThat(fixture.log("later", 0)).isNotNull();
    }

    @Test
    void smallerSegmentBytesRollsTheNextAppends() throws IOException {
        append(600);
        append(600);
        assertThat(log().segments()).hasSize(1);

        fixture.setConfig(ORDERS, "segment.bytes", "1024");
        append(600);
        append(600);

        assertThat(log().segments()).hasSizeGreaterThan(1);
    }

    @Test
    void logAppendTimeStampsTheNextBatch() throws IOException {
        assertThat(fixture.append("orders", 0, 10).logAppendTimeMs()).isEqualTo(-1L);

        fixture.setConfig(ORDERS, "message.timestamp.type", "LogAppendTime");

        assertThat(fixture.append("orders", 0, 10).logAppendTimeMs()).isEqualTo(fixture.clock().nowMs());
    }

    @Test
    void lowerRetentionDeletesOldSegmentsOnTheNextRetentionRun() throws IOException {
        fixture.setConfig(ORDERS, "segment.bytes", "1024");
        for (int i = 0; i < 4; i++) {
            append(600);
        }
        fixture.clock().advance(120_000);
        assertThat(log().deleteOldSegments()).isZero();

        fixture.setConfig(ORDERS, "retention.ms", "60000");

        assertThat(log().deleteOldSegments()).isPositive();
        assertThat(log().logStartOffset()).isPositive();
    }

    @Test
    void dynamicBrokerDefaultReachesTopicsWithoutAnOverride() {
        fixture.setConfig(new ConfigResource(ConfigResource.BROKER, ""), "log.retention.ms", "5000");
        assertThat(log().config().retentionMs).isEqualTo(5000L);

        fixture.setConfig(new ConfigResource(ConfigResource.BROKER, "1"), "log.retention.ms", "7000");
        assertThat(log().config().retentionMs).isEqualTo(7000L);

        fixture.setConfig(ORDERS, "retention.ms", "9000");
        assertThat(log().config().retentionMs).isEqualTo(9000L);
    }
}

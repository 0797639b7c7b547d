package dev.spool.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.config.BrokerConfigLayers;
import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.metadata.ConfigResource;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.VersionedRecord;
import dev.spool.log.TopicPartition;
import dev.spool.protocol.metadata.ConfigRecordData;
import dev.spool.protocol.metadata.MetadataRecordType;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The leader's replication throttle of broker 1: which replicas it names, and its rate over Kafka's windows. */
class ReplicationThrottleTest {

    private final AtomicLong clockMs = new AtomicLong(1_000_000);
    private final AtomicReference<MetadataImage> image = new AtomicReference<>(MetadataImage.EMPTY);
    private final BrokerConfigLayers layers = new BrokerConfigLayers(new BrokerConfig(Map.of("node.id", "1")));
    private final ReplicationThrottle throttle = ReplicationThrottle.leader(image::get, layers, clockMs::get);

    private void set(ConfigResource resource, String name, String value) {
        MetadataImage current = image.get();
        image.set(current.apply(List.of(VersionedRecord.of(MetadataRecordType.CONFIG_RECORD, new ConfigRecordData()
                .setResourceType(resource.type()).setResourceName(resource.name()).setName(name).setValue(value))),
                current.offset() + 1));
    }

    @Test
    void itNamesThePartitionsItsTopicNamesOnThisBroker() {
        TopicPartition zero = new TopicPartition("t", 0);
        TopicPartition one = new TopicPartition("t", 1);
        assertThat(throttle.names(zero)).as("nothing named").isFalse();
        set(ConfigResource.topic("t"), "leader.replication.throttled.replicas", "0:1, 1:2");
        assertThat(throttle.names(zero)).isTrue();
        assertThat(throttle.names(one)).as("partition 1 is named on broker 2 only").isFalse();
        assertThat(throttle.names(new TopicPartition("other", 0))).isFalse();
        set(ConfigResource.topic("t"), "leader.replication.throttled.replicas", "*");
        assertThat(throttle.names(one)).isTrue();
    }

    @Test
    void itIsExceededAboveTheRateOverAtLeastTenSecondsAndRecoversAsWindowsPass() {
        throttle.record(50_000);
        assertThat(throttle.exceeded()).as("no rate set: unlimited").isFalse();

        set(new ConfigResource(ConfigResource.BROKER, "1"), "leader.replication.throttled.rate", "1000");
        assertThat(throttle.exceeded()).as("50 000 bytes over 10 s is 5 000/s").isTrue();
        clockMs.addAndGet(12_000);
        assertThat(throttle.exceeded()).as("those windows are gone").isFalse();
        throttle.record(9_000);
        assertThat(throttle.exceeded()).as("9 000 bytes over (at least) 10 s").isFalse();
        throttle.record(2_000);
        assertThat(throttle.exceeded()).as("11 000 bytes over 10 s").isTrue();
        set(BrokerConfigLayers.clusterDefault(), "leader.replication.throttled.rate", "100000");
        assertThat(throttle.exceeded()).as("this broker's own setting wins over the cluster default").isTrue();
        set(new ConfigResource(ConfigResource.BROKER, "1"), "leader.replication.throttled.rate", "2000");
        assertThat(throttle.exceeded()).as("a change applies at once").isFalse();
    }
}

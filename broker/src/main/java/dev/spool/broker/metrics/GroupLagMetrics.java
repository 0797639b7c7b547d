package dev.spool.broker.metrics;

import dev.spool.broker.group.CommittedOffsetsSnapshot;
import dev.spool.broker.group.CommittedOffsetsSnapshot.GroupOffset;
import dev.spool.broker.group.GroupCoordinator;
import dev.spool.broker.partition.Partition;
import dev.spool.broker.partition.PartitionManager;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thread-safe: consumer group positions and lag per group and partition, with the names and labels of the widely
 * used kafka_exporter ({@code kafka_consumergroup_current_offset}, {@code kafka_consumergroup_lag}): lag is the
 * partition's high watermark minus the group's committed offset. Computed when Prometheus scrapes, from a copy
 * the coordinator thread makes.
 */
final class GroupLagMetrics {

    private static final Logger LOG = LoggerFactory.getLogger(GroupLagMetrics.class);
    private static final long SNAPSHOT_TIMEOUT_MS = 2_000;

    private GroupLagMetrics() {
    }

    static void register(PrometheusRegistry registry, GroupCoordinator coordinator, PartitionManager partitions) {
        GaugeWithCallback.builder().name("kafka_consumergroup_current_offset")
                .help("The offset a consumer group committed on a partition.")
                .labelNames("consumergroup", "topic", "partition")
                .callback(callback -> {
                    for (GroupOffset offset : snapshot(coordinator)) {
                        callback.call(offset.offset(), labels(offset));
                    }
                }).register(registry);
        GaugeWithCallback.builder().name("kafka_consumergroup_lag")
                .help("Records a consumer group has yet to consume on a partition: high watermark minus committed offset.")
                .labelNames("consumergroup", "topic", "partition")
                .callback(callback -> {
                    for (GroupOffset offset : snapshot(coordinator)) {
                        Partition partition = partitions.get(offset.topic(), offset.partition());
                        if (partition != null) {
                            long lag = Math.max(0, partition.log().highWatermark() - offset.offset());
                            callback.call(lag, labels(offset));
                        }
                    }
                }).register(registry);
    }

    private static List<GroupOffset> snapshot(GroupCoordinator coordinator) {
        try {
            return CommittedOffsetsSnapshot.take(coordinator).get(SNAPSHOT_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("Consumer group offsets not reported in this scrape: {}", e.toString());
            return List.of();
        }
    }

    private static String[] labels(GroupOffset offset) {
        return new String[] {offset.groupId(), offset.topic(), String.valueOf(offset.partition())};
    }
}

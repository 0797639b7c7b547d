package dev.spool.broker.metrics;

import dev.spool.broker.partition.Partition;
import dev.spool.broker.partition.PartitionManager;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.function.ToLongFunction;

/**
 * Thread-safe: per-partition log gauges (Kafka's kafka.log:type=Log Size, NumLogSegments, LogEndOffset,
 * LogStartOffset), the replica manager's partition counts and the fetch purgatory, all read from the hosted
 * partitions when Prometheus scrapes: nothing is counted on the hot path.
 */
final class PartitionMetrics {

    private PartitionMetrics() {
    }

    static void register(PrometheusRegistry registry, PartitionManager partitions) {
        perPartition(registry, partitions, "kafka_log_log_size_bytes", "Bytes of a partition's log segments.",
                partition -> partition.log().sizeInBytes());
        perPartition(registry, partitions, "kafka_log_log_num_log_segments", "Segments of a partition's log.",
                partition -> partition.log().segments().size());
        perPartition(registry, partitions, "kafka_log_log_log_end_offset",
                "The offset the next record appended to a partition gets.", partition -> partition.log().logEndOffset());
        perPartition(registry, partitions, "kafka_log_log_log_start_offset", "The first offset a partition still holds.",
                partition -> partition.log().logStartOffset());
        GaugeWithCallback.builder().name("kafka_server_replicamanager_partition_count")
                .help("Partitions hosted by this broker.")
                .callback(callback -> callback.call(partitions.all().size())).register(registry);
        GaugeWithCallback.builder().name("kafka_server_replicamanager_under_replicated_partitions")
                .help("Partitions whose in-sync replicas are fewer than their replicas: always 0 on one broker.")
                .callback(callback -> callback.call(0)).register(registry);
        GaugeWithCallback.builder().name("kafka_server_delayedoperationpurgatory_purgatory_size")
                .help("Parked operations, counted once per partition they wait on (Kafka's PurgatorySize). "
                        + "Produce is always 0: acks=all on one broker never waits.")
                .labelNames("delayedOperation")
                .callback(callback -> {
                    long fetchWatchers = 0;
                    for (Partition partition : partitions.all()) {
                        fetchWatchers += partition.appendListenerCount();
                    }
                    callback.call(fetchWatchers, "Fetch");
                    callback.call(0, "Produce");
                }).register(registry);
    }

    private static void perPartition(PrometheusRegistry registry, PartitionManager partitions, String name, String help,
                                     ToLongFunction<Partition> value) {
        GaugeWithCallback.builder().name(name).help(help).labelNames("topic", "partition")
                .callback(callback -> {
                    for (Partition partition : partitions.all()) {
                        callback.call(value.applyAsLong(partition), labels(partition));
                    }
                }).register(registry);
    }

    private static String[] labels(Partition partition) {
        return new String[] {partition.topicPartition().topic(), String.valueOf(partition.topicPartition().partition())};
    }
}

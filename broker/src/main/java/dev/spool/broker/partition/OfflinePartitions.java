package dev.spool.broker.partition;

/**
 * Implementations are thread-safe: which hosted partitions are offline because their log dir failed
 * (KIP-112). Metadata and DescribeTopicPartitions report those with KAFKA_STORAGE_ERROR and this broker
 * among their offline replicas.
 */
@FunctionalInterface
public interface OfflinePartitions {
    /** No partition is ever offline (tests and tools without a log manager). */
    OfflinePartitions NONE = (topic, partition) -> false;

    boolean isOffline(String topic, int partition);
}

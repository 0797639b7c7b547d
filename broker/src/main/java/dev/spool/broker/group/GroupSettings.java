package dev.spool.broker.group;

import dev.spool.broker.config.BrokerConfig;

/**
 * The broker settings the group coordinator obeys, with Kafka's names (see {@link BrokerConfig}).
 * Immutable.
 */
public record GroupSettings(int numPartitions, short replicationFactor, int segmentBytes, int initialRebalanceDelayMs,
                            int minSessionTimeoutMs, int maxSessionTimeoutMs, int maxSize, long offsetsRetentionMs,
                            long offsetsRetentionCheckIntervalMs, int offsetMetadataMaxBytes,
                            ConsumerProtocolSettings consumer) {

    private static final long MINUTE_MS = 60_000L;

    public static GroupSettings from(BrokerConfig config) {
        return new GroupSettings(
                config.get(BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS),
                (short) (int) config.get(BrokerConfig.OFFSETS_TOPIC_REPLICATION_FACTOR),
                config.get(BrokerConfig.OFFSETS_TOPIC_SEGMENT_BYTES),
                config.get(BrokerConfig.GROUP_INITIAL_REBALANCE_DELAY_MS),
                config.get(BrokerConfig.GROUP_MIN_SESSION_TIMEOUT_MS),
                config.get(BrokerConfig.GROUP_MAX_SESSION_TIMEOUT_MS),
                config.get(BrokerConfig.GROUP_MAX_SIZE),
                config.get(BrokerConfig.OFFSETS_RETENTION_MINUTES) * MINUTE_MS,
                config.get(BrokerConfig.OFFSETS_RETENTION_CHECK_INTERVAL_MS),
                config.get(BrokerConfig.OFFSET_METADATA_MAX_BYTES),
                ConsumerProtocolSettings.from(config));
    }

    /** Kafka's defaults: 50 partitions, 3 s initial delay, sessions of 6 s to 30 min, 7 days of offsets. */
    public static GroupSettings defaults() {
        return new GroupSettings(50, (short) 1, 104857600, 3000, 6000, 1800000, Integer.MAX_VALUE,
                7 * 24 * 60 * MINUTE_MS, 600000, 4096, ConsumerProtocolSettings.defaults());
    }
}

package dev.spool.broker.config;

/**
 * Where a described config value comes from, with the ids DescribeConfigs (v1+) and CreateTopics
 * (v5+) put on the wire. A topic override beats a per-broker dynamic setting, which beats the
 * cluster-wide dynamic default, which beats server.properties, which beats Kafka's default.
 * Immutable.
 */
public enum ConfigSource {
    DYNAMIC_TOPIC_CONFIG(1),
    DYNAMIC_BROKER_CONFIG(2),
    DYNAMIC_DEFAULT_BROKER_CONFIG(3),
    STATIC_BROKER_CONFIG(4),
    DEFAULT_CONFIG(5);

    private final byte id;

    ConfigSource(int id) {
        this.id = (byte) id;
    }

    public byte id() {
        return id;
    }
}

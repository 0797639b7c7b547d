package dev.spool.broker.config;

import dev.spool.log.LogConfigKey;

/**
 * The value type of a described config, with the ids of DescribeConfigs v3+ ({@code ConfigType}).
 * Immutable.
 */
public enum ConfigType {
    BOOLEAN(1),
    STRING(2),
    INT(3),
    LONG(5),
    DOUBLE(6),
    LIST(7);

    private final byte id;

    ConfigType(int id) {
        this.id = (byte) id;
    }

    public byte id() {
        return id;
    }

    /**
     * The type Kafka gives a topic config. The log module parses {@code cleanup.policy} as a string
     * but Kafka declares it a list (so IncrementalAlterConfigs may APPEND and SUBTRACT its values).
     */
    public static ConfigType of(LogConfigKey key) {
        if (key == LogConfigKey.CLEANUP_POLICY) {
            return LIST;
        }
        return switch (key.type) {
            case INT -> INT;
            case LONG -> LONG;
            case DOUBLE -> DOUBLE;
            case BOOLEAN -> BOOLEAN;
            case STRING -> STRING;
            case LIST -> LIST;
        };
    }
}

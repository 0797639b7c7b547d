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
    LIST(7),
    /** Kafka's PASSWORD: described as sensitive, its value never shown. */
    PASSWORD(9);

    private final byte id;

    ConfigType(int id) {
        this.id = (byte) id;
    }

    public byte id() {
        return id;
    }

    /** The type Kafka gives a topic config; LIST ones take IncrementalAlterConfigs' APPEND and SUBTRACT. */
    public static ConfigType of(LogConfigKey key) {
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

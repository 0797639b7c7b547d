package dev.spool.broker.metadata;

/**
 * What a config record belongs to: a topic or a broker, by the type codes of the protocol
 * (DescribeConfigs, ConfigRecord): 2 = topic, 4 = broker. An empty broker name means the
 * cluster-wide default. Immutable.
 */
public record ConfigResource(byte type, String name) {

    public static final byte TOPIC = 2;
    public static final byte BROKER = 4;

    public static ConfigResource topic(String name) {
        return new ConfigResource(TOPIC, name);
    }
}

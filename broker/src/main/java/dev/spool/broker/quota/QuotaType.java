package dev.spool.broker.quota;

/**
 * The client quotas Kafka has, by the key AlterClientQuotas sets them under: byte rates of produced and fetched
 * data, the share of the broker's request handling time, the rate of partition creations and deletions
 * (KIP-599), all on users and client ids, and the rate of new connections, on IP addresses. The byte rates and
 * the connection rate are whole numbers, as Kafka's LONG and INT types of them. Immutable.
 */
public enum QuotaType {

    PRODUCER_BYTE_RATE("producer_byte_rate", true, false),
    CONSUMER_BYTE_RATE("consumer_byte_rate", true, false),
    REQUEST_PERCENTAGE("request_percentage", false, false),
    CONTROLLER_MUTATION_RATE("controller_mutation_rate", false, false),
    CONNECTION_CREATION_RATE("connection_creation_rate", true, true);

    public final String key;
    public final boolean integral;
    /** Set on IP addresses; the others on users and client ids. */
    public final boolean onIp;

    QuotaType(String key, boolean integral, boolean onIp) {
        this.key = key;
        this.integral = integral;
        this.onIp = onIp;
    }

    /** The quota of this key, or null. */
    public static QuotaType forKey(String key) {
        for (QuotaType type : values()) {
            if (type.key.equals(key)) {
                return type;
            }
        }
        return null;
    }
}

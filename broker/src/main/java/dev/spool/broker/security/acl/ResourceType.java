package dev.spool.broker.security.acl;

/** What kind of thing an ACL protects, with Kafka's wire codes (ResourceType). */
public enum ResourceType {
    UNKNOWN(0), ANY(1), TOPIC(2), GROUP(3), CLUSTER(4), TRANSACTIONAL_ID(5), DELEGATION_TOKEN(6), USER(7);

    public final byte code;

    ResourceType(int code) {
        this.code = (byte) code;
    }

    public static ResourceType forCode(byte code) {
        for (ResourceType type : values()) {
            if (type.code == code) {
                return type;
            }
        }
        return UNKNOWN;
    }
}

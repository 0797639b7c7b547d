package dev.spool.broker.security.acl;

/**
 * How an ACL's resource name matches, with Kafka's wire codes (PatternType): LITERAL the name itself (or every
 * resource, for the name {@code *}), PREFIXED every name that starts with it; ANY and MATCH only filter ACLs.
 */
public enum PatternType {
    UNKNOWN(0), ANY(1), MATCH(2), LITERAL(3), PREFIXED(4);

    public final byte code;

    PatternType(int code) {
        this.code = (byte) code;
    }

    public static PatternType forCode(byte code) {
        for (PatternType type : values()) {
            if (type.code == code) {
                return type;
            }
        }
        return UNKNOWN;
    }
}

package dev.spool.broker.security.acl;

/** What an ACL allows or denies, with Kafka's wire codes (AclOperation). */
public enum AclOperation {
    UNKNOWN(0), ANY(1), ALL(2), READ(3), WRITE(4), CREATE(5), DELETE(6), ALTER(7), DESCRIBE(8), CLUSTER_ACTION(9),
    DESCRIBE_CONFIGS(10), ALTER_CONFIGS(11), IDEMPOTENT_WRITE(12), CREATE_TOKENS(13), DESCRIBE_TOKENS(14),
    TWO_PHASE_COMMIT(15);

    public final byte code;

    AclOperation(int code) {
        this.code = (byte) code;
    }

    public static AclOperation forCode(byte code) {
        for (AclOperation operation : values()) {
            if (operation.code == code) {
                return operation;
            }
        }
        return UNKNOWN;
    }

    /**
     * Whether an ALLOW for this operation also allows {@code requested}: ALL allows everything; READ, WRITE, DELETE
     * and ALTER imply DESCRIBE; ALTER_CONFIGS implies DESCRIBE_CONFIGS (Kafka's implied operations). A DENY denies
     * only its own operation, or all with ALL.
     */
    boolean allows(AclOperation requested) {
        return this == ALL || this == requested
                || requested == DESCRIBE && (this == READ || this == WRITE || this == DELETE || this == ALTER)
                || requested == DESCRIBE_CONFIGS && this == ALTER_CONFIGS;
    }

    boolean denies(AclOperation requested) {
        return this == ALL || this == requested;
    }
}

package dev.spool.broker.security.acl;

/** Whether an ACL allows or denies, with Kafka's wire codes (AclPermissionType). */
public enum AclPermission {
    UNKNOWN(0), ANY(1), DENY(2), ALLOW(3);

    public final byte code;

    AclPermission(int code) {
        this.code = (byte) code;
    }

    public static AclPermission forCode(byte code) {
        for (AclPermission permission : values()) {
            if (permission.code == code) {
                return permission;
            }
        }
        return UNKNOWN;
    }
}

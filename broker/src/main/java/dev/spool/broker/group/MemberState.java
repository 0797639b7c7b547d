package dev.spool.broker.group;

/**
 * Where a consumer-protocol member (KIP-848) is in reconciling its assignment with the group's target, with the byte
 * Kafka stores in a ConsumerGroupCurrentMemberAssignment record.
 */
enum MemberState {
    /** Owns exactly what the target gives it, at the target's epoch. */
    STABLE(0),
    /** Must first give up partitions (revoke before assign). */
    UNREVOKED_PARTITIONS(1),
    /** Waits for partitions that other members still own. */
    UNRELEASED_PARTITIONS(2),
    /** A value Spool does not know, as Kafka reads one. */
    UNKNOWN(127);

    private final byte value;

    MemberState(int value) {
        this.value = (byte) value;
    }

    byte value() {
        return value;
    }

    static MemberState of(byte value) {
        for (MemberState state : values()) {
            if (state.value == value) {
                return state;
            }
        }
        return UNKNOWN;
    }
}

package dev.spool.broker.group;

import java.util.Locale;

/**
 * {@code group.consumer.migration.policy}: whether a classic group with members becomes a consumer group when a
 * consumer-protocol member joins it (upgrade), and a consumer group whose last consumer-protocol member leaves
 * becomes a classic group again (downgrade). Empty groups change protocol whatever the policy.
 */
public enum MigrationPolicy {
    DISABLED(false, false),
    UPGRADE(true, false),
    DOWNGRADE(false, true),
    BIDIRECTIONAL(true, true);

    private final boolean upgrades;
    private final boolean downgrades;

    MigrationPolicy(boolean upgrades, boolean downgrades) {
        this.upgrades = upgrades;
        this.downgrades = downgrades;
    }

    /** The policy of a setting's value, in any case. */
    static MigrationPolicy of(String value) {
        return valueOf(value.trim().toUpperCase(Locale.ROOT));
    }

    boolean upgrades() {
        return upgrades;
    }

    boolean downgrades() {
        return downgrades;
    }
}

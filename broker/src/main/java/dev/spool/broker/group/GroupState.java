package dev.spool.broker.group;

/**
 * The states of a classic group, with the names Kafka's tools print and ListGroups filters on.
 * Immutable.
 *
 * <pre>
 * Empty --join--> PreparingRebalance --all joined / timeout--> CompletingRebalance --leader syncs--> Stable
 *   ^                 ^   |                                           |                                   |
 *   |                 |   +-- no member left --> Empty                +-- member joins/leaves/expires ----+
 *   +-- deleted or expired --> Dead                                                 (back to PreparingRebalance)
 * </pre>
 */
public enum GroupState {
    EMPTY("Empty"),
    PREPARING_REBALANCE("PreparingRebalance"),
    COMPLETING_REBALANCE("CompletingRebalance"),
    STABLE("Stable"),
    DEAD("Dead");

    private final String displayName;

    GroupState(String displayName) {
        this.displayName = displayName;
    }

    public String displayName() {
        return displayName;
    }

    /** The state named {@code name}, ignoring case (ListGroups filters), or null. */
    public static GroupState forName(String name) {
        for (GroupState state : values()) {
            if (state.displayName.equalsIgnoreCase(name)) {
                return state;
            }
        }
        return null;
    }
}

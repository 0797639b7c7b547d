package dev.spool.broker.group;

/** The states of a consumer-protocol group (KIP-848), with the names Kafka's tools print and ListGroups filters by. */
enum ConsumerGroupState {
    /** No members. */
    EMPTY("Empty"),
    /** The group's epoch moved past its target assignment's: a new target is to be computed. */
    ASSIGNING("Assigning"),
    /** Some member has not yet reached the target assignment. */
    RECONCILING("Reconciling"),
    /** Every member owns its target assignment at its epoch. */
    STABLE("Stable");

    private final String displayName;

    ConsumerGroupState(String displayName) {
        this.displayName = displayName;
    }

    String displayName() {
        return displayName;
    }
}

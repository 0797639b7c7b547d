package dev.spool.it.faults;

/**
 * Immutable, so thread-safe: how a step chooses its node when it runs (the cluster decides who leads by then, so a
 * schedule names a role, not a node id).
 */
public enum FaultTarget {
    /** The node leading the step's partition of the workload's topic. */
    PARTITION_LEADER,
    /** The node leading the metadata quorum. */
    QUORUM_LEADER,
    /** Any node, chosen by the step's seeded pick. */
    RANDOM_NODE
}

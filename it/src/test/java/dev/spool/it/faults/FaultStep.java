package dev.spool.it.faults;

/**
 * Immutable, so thread-safe: one step of a {@link FaultSchedule}.
 *
 * @param number    1-based, for the log lines of the run
 * @param kind      the fault
 * @param target    how the fault's node is chosen when the step runs
 * @param partition the partition whose leader {@link FaultTarget#PARTITION_LEADER} means
 * @param pick      seeded randomness for choices made when the step runs (a random node, the other side of a cut)
 * @param holdMs    how long the fault lasts before it is healed
 * @param quietMs   how long the cluster runs unharmed after the heal, before the next step
 */
public record FaultStep(int number, FaultKind kind, FaultTarget target, int partition, long pick, long holdMs,
                        long quietMs) {

    @Override
    public String toString() {
        String on = switch (target) {
            case PARTITION_LEADER -> "leader of partition " + partition;
            case QUORUM_LEADER -> "quorum leader";
            case RANDOM_NODE -> "random node";
        };
        return String.format("%3d. %-18s on %-22s for %5d ms, then %5d ms quiet (pick %d)", number, kind, on, holdMs,
                quietMs, pick);
    }
}

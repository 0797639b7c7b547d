package dev.spool.it.faults;

/**
 * Immutable, so thread-safe: the faults a {@link FaultSchedule} injects, each healed (resumed, restarted, reconnected,
 * freed) before the next step, and what each needs of the bed and of the cluster's size. No kind takes down or cuts
 * off more than a minority of the nodes at once, so a correct cluster keeps a quorum and, with three replicas and
 * {@code min.insync.replicas=2}, keeps taking acks=all writes once a new leader is in place.
 */
public enum FaultKind {
    /** SIGKILL, then a restart on the same data: a crash. */
    KILL(Needs.PROCESSES, 3),
    /** SIGTERM, waiting for the process to end: a controlled shutdown. */
    TERMINATE(Needs.PROCESSES, 3),
    /** SIGSTOP for less than half of broker.session.timeout.ms: the node is back before anyone fences it. */
    PAUSE_SHORT(Needs.PROCESSES, 3),
    /** SIGSTOP for longer than broker.session.timeout.ms: the node is fenced, then wakes with stale beliefs. */
    PAUSE_LONG(Needs.PROCESSES, 3),
    /** SIGKILL, the log tail past the last fsync damaged, a restart: a power cut of one machine. */
    POWER_LOSS(Needs.PROCESSES, 3),
    /** SIGSTOP, then SIGKILL while stopped, then a restart: a hung node an operator kills. */
    PAUSE_THEN_KILL(Needs.PROCESSES, 3),
    /** A node killed and restarted, then at once the partition's leader killed, before the first has caught up. */
    KILL_AFTER_RESTART(Needs.PROCESSES, 3),
    /** One node paused while another is killed: two faults at once, so five nodes at least. */
    KILL_WHILE_PAUSED(Needs.PROCESSES, 5),
    /** The target node cut off from every other node, both ways. */
    ISOLATE(Needs.PARTITIONS, 3),
    /** A random minority (containing the target) cut off from the majority. */
    MAJORITY_MINORITY(Needs.PARTITIONS, 3),
    /** Two halves that cannot reach each other but both reach the target, the bridge. */
    BRIDGE(Needs.PARTITIONS, 3),
    /** Packets from the target to one other node dropped, the other way passing. */
    ONE_WAY(Needs.PARTITIONS, 3),
    /** The target's log dir full (ENOSPC). */
    DISK_FULL(Needs.FULL_DISKS, 3);

    /** What the bed must be able to do. */
    enum Needs { PROCESSES, PARTITIONS, FULL_DISKS }

    private final Needs needs;
    private final int minimumNodes;

    FaultKind(Needs needs, int minimumNodes) {
        this.needs = needs;
        this.minimumNodes = minimumNodes;
    }

    /** Whether a bed of {@code nodes} nodes with these abilities can inject this fault without losing a majority. */
    public boolean applies(int nodes, boolean canPartition, boolean canFillDisk) {
        boolean able = switch (needs) {
            case PROCESSES -> true;
            case PARTITIONS -> canPartition;
            case FULL_DISKS -> canFillDisk;
        };
        return able && nodes >= minimumNodes;
    }

    /** Whether the fault stops or kills a process (so it is to be restarted or resumed). */
    public boolean stopsProcesses() {
        return needs == Needs.PROCESSES;
    }
}

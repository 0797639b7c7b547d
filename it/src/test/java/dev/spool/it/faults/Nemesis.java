package dev.spool.it.faults;

import java.util.Set;

/**
 * The faults a fault schedule injects into a running cluster of nodes numbered 1..n (issue 20), and what it
 * asks of the cluster to aim them. Implementations: real processes on loopback (partitions unsupported), and
 * each node in a network namespace of its own joined by a bridge (every fault). Not thread-safe: one schedule
 * drives it. Every call returns once the fault is in place (a killed node's pid is gone, a cut route is set).
 */
public interface Nemesis extends AutoCloseable {

    /** The node ids, 1..n. */
    Set<Integer> nodes();

    /** SIGKILL. */
    void kill(int node) throws Exception;

    /** SIGTERM, waiting for the process to end (a controlled shutdown). */
    void terminate(int node) throws Exception;

    /** Starts a node that was killed or terminated again, on its data. */
    void restart(int node) throws Exception;

    /** Whether node {@code node}'s process runs (paused counts as running; one that stopped itself does not). */
    boolean isRunning(int node);

    /** SIGSTOP. */
    void pause(int node) throws Exception;

    /** SIGCONT. */
    void resume(int node) throws Exception;

    /** Whether {@link #partition} and {@link #cutOneWay} work here. */
    boolean canPartition();

    /** No packet passes between a node of {@code side} and one of {@code otherSide}, both ways, until {@link #heal}. */
    void partition(Set<Integer> side, Set<Integer> otherSide) throws Exception;

    /** Packets from {@code from} to {@code to} are dropped (the other way passes) until {@link #heal}. */
    void cutOneWay(int from, int to) throws Exception;

    /** Every cut is undone. */
    void heal() throws Exception;

    /** SIGKILL, then the node's log tail past its last fsync damaged (a power cut); {@link #restart} follows. */
    void powerLoss(int node) throws Exception;

    /** The node's log dir fills up (writes fail with ENOSPC) until {@link #freeDisk}. */
    void fillDisk(int node) throws Exception;

    void freeDisk(int node) throws Exception;

    /** Whether {@link #fillDisk} works here (it needs root for a loop-mounted file system). */
    boolean canFillDisk();

    /** The node leading a partition now, as the cluster's metadata says; -1 when none, or no answer in time. */
    default int leaderOf(String topic, int partition) {
        return new ClusterProbe(this::bootstrap).leaderOf(topic, partition);
    }

    /** The node leading the metadata quorum now; -1 when none is known, or no answer in time. */
    default int quorumLeader() {
        return new ClusterProbe(this::bootstrap).quorumLeader();
    }

    /** The bootstrap servers clients use. */
    String bootstrap();
}

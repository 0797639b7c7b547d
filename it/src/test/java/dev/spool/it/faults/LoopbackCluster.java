package dev.spool.it.faults;

import dev.spool.it.SpoolCluster;
import dev.spool.it.reliability.PowerCut;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Not thread-safe: one schedule drives it. The {@link Nemesis} of {@code bin/spool server} processes on
 * 127.0.0.1 ({@link SpoolCluster}): process faults and power loss, no network partitions (every node shares the
 * loopback interface, and cutting it needs root and a namespace of its own) and no full disk (that needs a
 * loop-mounted file system, hence root too).
 *
 * <p>Design note: a node is restarted on the same data dir and controller ports but a new client port (listeners use
 * port 0), so {@link #bootstrap} is read again by whoever creates a client; running clients learn the new port from
 * the cluster's metadata, as they would after a real broker moved.
 */
public final class LoopbackCluster implements Nemesis {

    private final SpoolCluster cluster;
    private final Random damageRandom;
    private final Set<Integer> paused = new TreeSet<>();

    private LoopbackCluster(SpoolCluster cluster, long seed) {
        this.cluster = cluster;
        this.damageRandom = new Random(seed);
    }

    /** Starts {@code nodes} combined broker-controller nodes with {@code settings}; power-loss damage seeded by {@code seed}. */
    public static LoopbackCluster start(int nodes, long seed, List<String> settings) throws Exception {
        return new LoopbackCluster(SpoolCluster.start(nodes, settings.toArray(String[]::new)), seed);
    }

    @Override
    public Set<Integer> nodes() {
        return IntStream.rangeClosed(1, cluster.size()).boxed().collect(Collectors.toCollection(TreeSet::new));
    }

    @Override
    public void kill(int node) throws Exception {
        cluster.kill(node);
        paused.remove(node);
    }

    @Override
    public void terminate(int node) throws Exception {
        if (paused.remove(node)) {
            // A stopped process does not act on SIGTERM until it runs again.
            cluster.node(node).resume();
        }
        cluster.stop(node);
    }

    @Override
    public void restart(int node) throws Exception {
        if (cluster.node(node).isAlive()) {
            throw new IllegalStateException("node " + node + " is running (pid " + cluster.node(node).pid() + ")");
        }
        cluster.restart(node);
    }

    @Override
    public boolean isRunning(int node) {
        return cluster.node(node).isAlive();
    }

    @Override
    public void pause(int node) throws Exception {
        cluster.node(node).pause();
        paused.add(node);
    }

    @Override
    public void resume(int node) throws Exception {
        cluster.node(node).resume();
        paused.remove(node);
    }

    @Override
    public boolean canPartition() {
        return false;
    }

    @Override
    public void partition(Set<Integer> side, Set<Integer> otherSide) {
        throw new UnsupportedOperationException("nodes on one loopback interface cannot be partitioned");
    }

    @Override
    public void cutOneWay(int from, int to) {
        throw new UnsupportedOperationException("nodes on one loopback interface cannot be partitioned");
    }

    @Override
    public void heal() {
        // Nothing is ever cut here.
    }

    @Override
    public void powerLoss(int node) throws Exception {
        kill(node);
        List<String> damaged = PowerCut.damageUnsyncedTails(cluster.dataDir(node), damageRandom);
        System.out.printf("LoopbackCluster: power loss of node %d damaged %s%n", node,
                damaged.isEmpty() ? "nothing (no unsynced batch)" : damaged);
    }

    @Override
    public void fillDisk(int node) {
        throw new UnsupportedOperationException("a full disk needs a loop-mounted file system (root)");
    }

    @Override
    public void freeDisk(int node) {
        throw new UnsupportedOperationException("a full disk needs a loop-mounted file system (root)");
    }

    @Override
    public boolean canFillDisk() {
        return false;
    }

    @Override
    public String bootstrap() {
        return cluster.bootstrap();
    }

    /** Resumes every paused node (a stopped process cannot act on SIGTERM), then stops every process and deletes the data. */
    @Override
    public void close() throws Exception {
        for (int node : List.copyOf(paused)) {
            resume(node);
        }
        cluster.close();
    }
}

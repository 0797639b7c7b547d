package dev.spool.it.faults;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Thread-safe (every method is synchronized: the shutdown hook may close the bed while a test uses it): nodes
 * 1..n, each in a network namespace of its own ({@code spool<run>n<i>}) with one veth link on a bridge
 * ({@code spb<run>}) in the root namespace, addressed {@code 10.77.X.i/24}; the root namespace has {@code .254} on
 * the bridge, so the test JVM reaches every node and is never cut off. Faults are set inside the namespaces, so the
 * root namespace's routes and firewall are never touched:
 * <ul>
 * <li>{@link #cut} both ways: a blackhole route to the other's address in each of the two namespaces; a connect
 * fails at once with EINVAL and a packet on an open connection is dropped before it leaves;</li>
 * <li>{@link #cutOneWay}: an iptables rule in the receiver's namespace dropping what comes from the sender
 * (INPUT, not the sender's OUTPUT: a drop in OUTPUT is reported to the sender with EPERM, not silent);</li>
 * <li>{@link #heal}: every route and rule removed.</li>
 * </ul>
 * X is chosen, under a lock shared by runs, so that no address or route of the root namespace is in 10.77.X.0/24.
 * Closing deletes the veth pairs, kills the processes left in the namespaces (by pid), deletes the namespaces and the
 * bridge; a shutdown hook closes it if the test did not, and a {@link RunRecord} lets the next run
 * remove it if this JVM was killed.
 */
public final class NetworkBed implements AutoCloseable {

    private static final String PREFIX = "10.77.";
    private static final int ROOT_HOST = 254;
    private static final Path LOCK = RunRecord.DIRECTORY.resolve(".lock");

    private final String runId;
    private final String subnet;
    private final int size;
    private final RunRecord record;
    private final String bridge;
    private final Set<String> blackholes = new LinkedHashSet<>();
    private final Set<Integer> namespacesWithRules = new LinkedHashSet<>();
    private final Thread closeOnExit = new Thread(this::closeQuietly, "network-bed-close");
    private boolean closed;

    private NetworkBed(String runId, String subnet, int size, RunRecord record) {
        this.runId = runId;
        this.subnet = subnet;
        this.size = size;
        this.record = record;
        this.bridge = "spb" + runId;
    }

    /** Why a bed cannot be made here, or null when it can: it needs root and a working {@code ip netns}. */
    public static String unavailableReason() {
        try {
            if (!HostCommand.run("id", "-u").strip().equals("0")) {
                return "network namespaces need root";
            }
            HostCommand.run("ip", "netns", "list");
            return null;
        } catch (IOException | InterruptedException e) {
            return "ip netns does not work here: " + e.getMessage();
        }
    }

    /** Whether {@link #cutOneWay} can work: the iptables userland is installed (bin/test installs it). */
    public static boolean canCutOneWay() {
        try {
            return HostCommand.succeeds("iptables", "--version");
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** Makes namespaces for nodes 1..{@code nodes} on a new bridge, after removing what dead runs left. */
    public static NetworkBed create(int nodes) throws IOException, InterruptedException {
        if (nodes < 1 || nodes > 250) {
            throw new IllegalArgumentException("nodes " + nodes + " (1..250)");
        }
        Files.createDirectories(RunRecord.DIRECTORY);
        try (FileChannel lockFile = FileChannel.open(LOCK, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock ignored = lockFile.lock()) {
            List<String> stale = RunRecord.removeStale();
            if (!stale.isEmpty()) {
                System.err.println("NetworkBed: removed what runs that died left behind: " + stale);
            }
            String runId = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()).substring(2);
            NetworkBed bed = new NetworkBed(runId, freeSubnet(), nodes, RunRecord.create(runId));
            Runtime.getRuntime().addShutdownHook(bed.closeOnExit);
            try {
                bed.build();
            } catch (IOException | InterruptedException | RuntimeException e) {
                bed.close();
                throw e;
            }
            return bed;
        }
    }

    /** A third octet X with nothing of the root namespace's (addresses, routes: other runs' bridges) in 10.77.X. */
    private static String freeSubnet() throws IOException, InterruptedException {
        String taken = HostCommand.run("ip", "-4", "-o", "addr", "show")
                + HostCommand.run("ip", "-4", "route", "show", "table", "all");
        int start = ThreadLocalRandom.current().nextInt(256);
        for (int i = 0; i < 256; i++) {
            String candidate = PREFIX + ((start + i) % 256) + ".";
            if (!taken.contains(candidate)) {
                return candidate;
            }
        }
        throw new IOException("every 10.77.X.0/24 is in use here");
    }

    private void build() throws IOException, InterruptedException {
        record.add("link", bridge);
        HostCommand.run("ip", "link", "add", bridge, "type", "bridge");
        HostCommand.run("ip", "addr", "add", subnet + ROOT_HOST + "/24", "dev", bridge);
        HostCommand.run("ip", "link", "set", bridge, "up");
        for (int node = 1; node <= size; node++) {
            String namespace = namespace(node);
            String hostEnd = hostLink(node);
            record.add("netns", namespace);
            HostCommand.run("ip", "netns", "add", namespace);
            record.add("link", hostEnd);
            HostCommand.run("ip", "link", "add", hostEnd, "type", "veth", "peer", "name", "eth0", "netns", namespace);
            HostCommand.run("ip", "link", "set", hostEnd, "master", bridge, "up");
            HostCommand.run("ip", "-n", namespace, "addr", "add", address(node) + "/24", "dev", "eth0");
            HostCommand.run("ip", "-n", namespace, "link", "set", "eth0", "up");
            HostCommand.run("ip", "-n", namespace, "link", "set", "lo", "up");
        }
    }

    public int size() {
        return size;
    }

    /** The namespace node {@code node} runs in. */
    public String namespace(int node) {
        checkNode(node);
        return "spool" + runId + "n" + node;
    }

    /** Node {@code node}'s address (the same from every namespace and from the root one). */
    public String address(int node) {
        checkNode(node);
        return subnet + node;
    }

    /** The root namespace's end of node {@code node}'s veth pair, on the bridge. */
    public String hostLink(int node) {
        checkNode(node);
        return "spv" + runId + "n" + node; // at most 15 characters (IFNAMSIZ)
    }

    /** The bridge joining the nodes, in the root namespace. */
    public String bridge() {
        return bridge;
    }

    /** The root namespace's address on the bridge (where the test JVM's connections come from). */
    public String hostAddress() {
        return subnet + ROOT_HOST;
    }

    /** The command prefix that runs a command in node {@code node}'s namespace; it execs it, keeping the pid. */
    public List<String> launcher(int node) {
        return List.of("ip", "netns", "exec", namespace(node));
    }

    /** The record of this run, for other things a test makes for it (mounts, image files). */
    RunRecord record() {
        return record;
    }

    /** No packet passes between nodes {@code a} and {@code b}, either way, until {@link #heal}. */
    public synchronized void cut(int a, int b) throws IOException, InterruptedException {
        blackhole(a, b);
        blackhole(b, a);
    }

    private void blackhole(int in, int to) throws IOException, InterruptedException {
        // replace, not add: cutting a cut pair again is no error
        HostCommand.run("ip", "-n", namespace(in), "route", "replace", "blackhole", address(to) + "/32");
        blackholes.add(in + ">" + to);
    }

    /** Packets from node {@code from} to node {@code to} are dropped on arrival; the other way passes. */
    public synchronized void cutOneWay(int from, int to) throws IOException, InterruptedException {
        checkNode(from);
        namespacesWithRules.add(to);
        HostCommand.run("ip", "netns", "exec", namespace(to), "iptables", "-w", "-A", "INPUT", "-s", address(from),
                "-j", "DROP");
    }

    /** Removes every cut. */
    public synchronized void heal() throws IOException, InterruptedException {
        for (String pair : new ArrayList<>(blackholes)) {
            String[] nodes = pair.split(">");
            HostCommand.run("ip", "-n", namespace(Integer.parseInt(nodes[0])), "route", "del", "blackhole",
                    address(Integer.parseInt(nodes[1])) + "/32");
            blackholes.remove(pair);
        }
        for (Integer node : new ArrayList<>(namespacesWithRules)) {
            HostCommand.run("ip", "netns", "exec", namespace(node), "iptables", "-w", "-F", "INPUT");
            namespacesWithRules.remove(node);
        }
    }

    /** Kills what still runs in the namespaces, then removes them and the bridge. */
    @Override
    public synchronized void close() throws IOException, InterruptedException {
        if (closed) {
            return;
        }
        closed = true;
        for (int node = 1; node <= size; node++) {
            // The pair is deleted by its root end: a namespace outlives its name while sockets of killed processes
            // still hold it (orphaned TCP connections retransmitting for minutes), and its veth pair with it.
            RunRecord.undo("link", hostLink(node));
            RunRecord.undo("netns", namespace(node));
        }
        RunRecord.undo("link", bridge);
        record.delete();
        try {
            Runtime.getRuntime().removeShutdownHook(closeOnExit);
        } catch (IllegalStateException shuttingDown) {
            // closed by the hook itself: nothing to unregister
        }
    }

    private void closeQuietly() {
        try {
            close();
        } catch (IOException | InterruptedException e) {
            System.err.println("NetworkBed " + runId + ": clean-up on exit failed, the next run removes it: " + e);
        }
    }

    private void checkNode(int node) {
        if (node < 1 || node > size) {
            throw new IllegalArgumentException("node " + node + " (1.." + size + ")");
        }
    }
}

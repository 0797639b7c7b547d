package dev.spool.it;

import dev.spool.fixtures.FixedPorts;
import dev.spool.log.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Several {@code bin/spool server} processes on loopback forming one cluster: the first nodes are voters of the
 * Raft metadata quorum (broker and controller, or {@link #startSeparated controllers only}), the rest broker-only
 * nodes that fetch the metadata from them; each has its data in a directory of its own. The controller ports are chosen
 * before start (every node names every voter); each has its Raft port next to it (controller port + 1). Nodes
 * start at once, since none finishes starting before a majority has elected a leader. Closing stops every
 * process by its pid and deletes the data. Not thread-safe.
 */
public final class SpoolCluster implements AutoCloseable {

    public static final String CLUSTER_ID = "U3Bvb2xDbHVzdGVySXRUZQ";

    private final Path root;
    private final List<Integer> controllerPorts;
    /**
     * Each node's client listener port (PLAINTEXT; SASL_PLAINTEXT the next one), the same after a restart, as a real
     * broker's: a client's bootstrap servers stay valid, and Kafka's clients rebootstrap from them when every node
     * they knew is gone.
     */
    private final List<Integer> clientPorts;
    private final List<String> extraSettings;
    private final SpoolProcess[] nodes;
    /** Whether the voters are controllers only, and the brokers find them through the bootstrap servers. */
    private final boolean separated;
    /** Whether each broker has a SASL_PLAINTEXT listener for clients beside PLAINTEXT (settings name its users). */
    private final boolean saslListener;

    private SpoolCluster(Path root, List<Integer> controllerPorts, List<Integer> clientPorts, int brokerOnly,
                         boolean separated, boolean saslListener, List<String> extraSettings) {
        this.root = root;
        this.controllerPorts = controllerPorts;
        this.clientPorts = clientPorts;
        this.extraSettings = extraSettings;
        this.separated = separated;
        this.saslListener = saslListener;
        this.nodes = new SpoolProcess[controllerPorts.size() + brokerOnly];
    }

    /** Starts {@code size} combined nodes (ids 1..size) with {@code settings} added to each one's. */
    public static SpoolCluster start(int size, String... settings) throws Exception {
        return start(size, 0, settings);
    }

    /**
     * Starts {@code voters} combined nodes (ids 1..voters) and {@code brokerOnly} broker-only nodes (the next ids),
     * with {@code settings} added to each one's.
     */
    public static SpoolCluster start(int voters, int brokerOnly, String... settings) throws Exception {
        return start(voters, brokerOnly, false, false, settings);
    }

    /**
     * Starts {@code size} combined nodes, each with a SASL_PLAINTEXT listener for clients too (its port in
     * {@code node(id).listenerPorts()}); {@code settings} name the SASL mechanisms and users.
     */
    public static SpoolCluster startWithSaslListener(int size, String... settings) throws Exception {
        return start(size, 0, false, true, settings);
    }

    /**
     * Starts {@code controllers} controller-only voters (ids 1..controllers) and {@code brokers} broker-only nodes
     * (the next ids) that find the controllers through {@code controller.quorum.bootstrap.servers}, as Kafka's
     * production layout runs them.
     */
    public static SpoolCluster startSeparated(int controllers, int brokers, String... settings) throws Exception {
        return start(controllers, brokers, true, false, settings);
    }

    private static SpoolCluster start(int voters, int brokerOnly, boolean separated, boolean saslListener,
                                      String... settings) throws Exception {
        Set<Integer> taken = new HashSet<>();
        List<Integer> ports = distinctPortRuns(voters, 2, taken);
        int size = voters + brokerOnly;
        List<Integer> clientPorts = distinctPortRuns(size, saslListener ? 2 : 1, taken);
        SpoolCluster cluster = new SpoolCluster(Files.createTempDirectory("spool-cluster-"), ports, clientPorts,
                brokerOnly, separated, saslListener, List.of(settings));
        try {
            ExecutorService starters = Executors.newFixedThreadPool(size);
            try {
                List<Future<SpoolProcess>> started = new ArrayList<>();
                for (int nodeId = 1; nodeId <= size; nodeId++) {
                    int id = nodeId;
                    started.add(starters.submit(() -> cluster.startProcess(id)));
                }
                for (int i = 0; i < size; i++) {
                    cluster.nodes[i] = started.get(i).get();
                }
            } finally {
                starters.shutdown();
            }
            return cluster;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    /** {@code count} runs of {@code length} consecutive fixed ports, none in {@code taken}, which gains them. */
    private static List<Integer> distinctPortRuns(int count, int length, Set<Integer> taken) throws IOException {
        List<Integer> runs = new ArrayList<>();
        while (runs.size() < count) {
            int first = FixedPorts.consecutive(length);
            List<Integer> run = new ArrayList<>();
            for (int port = first; port < first + length; port++) {
                run.add(port);
            }
            if (run.stream().noneMatch(taken::contains)) {
                taken.addAll(run);
                runs.add(first);
            }
        }
        return runs;
    }

    /**
     * A port free now whose next port is free too (the Raft port beside the controller port), below the ephemeral
     * range: a restarted node binds both again.
     */
    static int freePortPair() throws IOException {
        return FixedPorts.consecutive(2);
    }

    private SpoolProcess startProcess(int nodeId) throws IOException, InterruptedException {
        boolean voter = isVoter(nodeId);
        String roles = !voter ? "broker" : separated ? "controller" : "broker,controller";
        String controllerListener = voter ? "CONTROLLER://127.0.0.1:" + controllerPorts.get(nodeId - 1) : "";
        int clientPort = clientPorts.get(nodeId - 1);
        String clientListeners = "PLAINTEXT://127.0.0.1:" + clientPort
                + (saslListener ? ",SASL_PLAINTEXT://127.0.0.1:" + (clientPort + 1) : "");
        String listeners = separated && voter ? controllerListener
                : clientListeners + (voter ? "," + controllerListener : "");
        String quorum = separated && !voter ? "controller.quorum.bootstrap.servers=" + controllers()
                : "controller.quorum.voters=" + voters();
        List<String> settings = new ArrayList<>(List.of("process.roles=" + roles, "node.id=" + nodeId,
                "cluster.id=" + CLUSTER_ID, quorum, "controller.listener.names=CONTROLLER", "listeners=" + listeners,
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"
                        + (saslListener ? ",SASL_PLAINTEXT:SASL_PLAINTEXT" : "")));
        settings.addAll(extraSettings);
        return SpoolProcess.startIn(Files.createDirectories(root.resolve("node-" + nodeId)),
                settings.toArray(String[]::new));
    }

    private boolean isVoter(int nodeId) {
        return nodeId <= controllerPorts.size();
    }

    /** Every voter's controller listener, host:port,... (controller.quorum.bootstrap.servers, --bootstrap-controller). */
    String controllers() {
        StringJoiner controllers = new StringJoiner(",");
        for (int nodeId = 1; nodeId <= controllerPorts.size(); nodeId++) {
            controllers.add(controller(nodeId));
        }
        return controllers.toString();
    }

    /** controller.quorum.voters of this cluster. */
    String voters() {
        StringJoiner voters = new StringJoiner(",");
        for (int i = 0; i < controllerPorts.size(); i++) {
            voters.add((i + 1) + "@127.0.0.1:" + controllerPorts.get(i));
        }
        return voters.toString();
    }

    /** The running process of node {@code nodeId}. */
    public SpoolProcess node(int nodeId) {
        return nodes[nodeId - 1];
    }

    public int size() {
        return nodes.length;
    }

    /** Every running broker's client address, comma-separated (bootstrap.servers). */
    public String bootstrap() {
        StringJoiner bootstrap = new StringJoiner(",");
        for (int nodeId = 1; nodeId <= nodes.length; nodeId++) {
            SpoolProcess node = nodes[nodeId - 1];
            if (node != null && node.isAlive() && !(separated && isVoter(nodeId))) {
                bootstrap.add(node.bootstrap());
            }
        }
        return bootstrap.toString();
    }

    /** Node {@code nodeId}'s controller listener, host:port (for --bootstrap-controller). */
    public String controller(int nodeId) {
        return "127.0.0.1:" + controllerPorts.get(nodeId - 1);
    }

    /** The warnings and errors the running nodes printed, for a failure's message. */
    public String warnings() {
        StringBuilder said = new StringBuilder();
        for (int nodeId = 1; nodeId <= nodes.length; nodeId++) {
            if (node(nodeId) == null) {
                continue;
            }
            for (String line : node(nodeId).output()) {
                if (line.contains(" WARN ") || line.contains(" ERROR ")) {
                    said.append("node ").append(nodeId).append(": ").append(line).append('\n');
                }
            }
        }
        return said.toString();
    }

    /** Writes what each running node printed to {@code dir}/node-N.log, for a failure looked at after the test. */
    public Path saveOutputs(Path dir) throws IOException {
        Files.createDirectories(dir);
        for (int nodeId = 1; nodeId <= nodes.length; nodeId++) {
            if (node(nodeId) != null) {
                Files.write(dir.resolve("node-" + nodeId + ".log"), node(nodeId).output());
            }
        }
        return dir;
    }

    /** Kills node {@code nodeId} with SIGKILL, keeping its data. */
    public void kill(int nodeId) throws InterruptedException {
        nodes[nodeId - 1].kill();
    }

    /** Stops node {@code nodeId} with SIGTERM (a clean shutdown, as an operator stops it), keeping its data. */
    public void stop(int nodeId) throws InterruptedException {
        nodes[nodeId - 1].stop();
    }

    /**
     * Starts node {@code nodeId} again on its data (after {@link #kill} or {@link #stop}); returns once it has
     * registered.
     */
    public SpoolProcess restart(int nodeId) throws IOException, InterruptedException {
        nodes[nodeId - 1] = startProcess(nodeId);
        return nodes[nodeId - 1];
    }

    /** Node {@code nodeId}'s data directory (its log dir). */
    public Path dataDir(int nodeId) {
        return root.resolve("node-" + nodeId);
    }

    /**
     * Kills every node (SIGKILL) and deletes the data. Not stopped one by one: nothing is checked after a test, and
     * clean shutdowns in a row, each leaving a quorum that the next one leaves too, cost seconds per cluster.
     * Clean shutdown has tests of its own.
     */
    @Override
    public void close() throws IOException, InterruptedException {
        for (SpoolProcess node : nodes) {
            if (node != null) {
                node.kill();
            }
        }
        FileTrees.deleteRecursively(root);
    }
}

package dev.spool.it.faults;

import dev.spool.it.SpoolCluster;
import dev.spool.it.SpoolProcess;
import dev.spool.it.reliability.PowerCut;
import dev.spool.it.reliability.SmallFileSystem;
import dev.spool.log.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Not thread-safe: one fault schedule drives it (the {@link Nemesis} contract); only {@link #close} is
 * synchronized, for the shutdown hook. A cluster of {@code bin/spool server}
 * processes, each a combined broker and controller (a voter of the metadata quorum) in a network namespace of its
 * own on a {@link NetworkBed}, so that every fault of {@link Nemesis} works, partitions included. Every node listens
 * on the same ports of its own address (clients {@value #CLIENT_PORT}, controller {@value #CONTROLLER_PORT}, Raft
 * the port after it), and keeps its log dir on a loop-mounted ext4 image of its own ({@link SmallFileSystem}), which
 * {@link #fillDisk} fills; where loop mounts fail, on a plain directory and {@link #canFillDisk} is false. Closing
 * stops every process by its pid, unmounts and deletes the data, and removes the namespaces (a shutdown hook does it
 * if the test does not).
 */
public final class NamespaceCluster implements Nemesis {

    public static final int CLIENT_PORT = 9092;
    public static final int CONTROLLER_PORT = 9093;
    /** Big enough for a fault test's data (the image is sparse until written), small enough to fill in a second. */
    private static final int DISK_MEGABYTES = 96;

    private final NetworkBed bed;
    private final Path root;
    private final List<String> extraSettings;
    private final Random random;
    private final SpoolProcess[] processes;
    private final SmallFileSystem[] disks;
    private final Set<Integer> paused = new HashSet<>();
    private final List<String> powerCuts = new ArrayList<>();
    private final Path nodeLogs;
    private final Thread closeOnExit = new Thread(this::closeQuietly, "namespace-cluster-close");
    private boolean closed;

    private NamespaceCluster(NetworkBed bed, Path root, long seed, List<String> extraSettings) {
        this.bed = bed;
        this.root = root;
        this.extraSettings = extraSettings;
        this.random = new Random(seed);
        this.nodeLogs = Path.of("target", "faults", "node-logs-" + seed).toAbsolutePath();
        this.processes = new SpoolProcess[bed.size()];
        this.disks = new SmallFileSystem[bed.size()];
    }

    /**
     * Starts {@code size} nodes (3 or 5 make a quorum that survives a minority's loss) with {@code settings} added to
     * each one's; {@code seed} draws the power cuts' damage. Throws when the bed cannot be made
     * ({@link NetworkBed#unavailableReason} says why beforehand).
     */
    public static NamespaceCluster start(int size, long seed, String... settings)
            throws IOException, InterruptedException {
        NetworkBed bed = NetworkBed.create(size);
        NamespaceCluster cluster;
        try {
            cluster = new NamespaceCluster(bed, Files.createTempDirectory("spool-netns-cluster-"), seed,
                    List.of(settings));
        } catch (IOException e) {
            bed.close();
            throw e;
        }
        Runtime.getRuntime().addShutdownHook(cluster.closeOnExit);
        try {
            FileTrees.deleteRecursively(cluster.nodeLogs);
            Files.createDirectories(cluster.nodeLogs);
            bed.record().add("tree", cluster.root.toString());
            cluster.prepareDisks();
            cluster.startAll();
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    private void prepareDisks() throws IOException, InterruptedException {
        for (int node = 1; node <= processes.length; node++) {
            SmallFileSystem disk;
            try {
                disk = SmallFileSystem.mount(DISK_MEGABYTES);
            } catch (IOException noLoopMounts) {
                Files.createDirectories(root.resolve("node-" + node));
                continue; // canFillDisk() says so
            }
            disks[node - 1] = disk;
            bed.record().add("file", disk.image().toString());
            bed.record().add("mount", disk.root().toString());
        }
    }

    /** Starts every node at once: none finishes starting before a majority of voters has elected a leader. */
    private void startAll() throws IOException, InterruptedException {
        ExecutorService starters = Executors.newFixedThreadPool(processes.length);
        try {
            List<Future<SpoolProcess>> started = new ArrayList<>();
            for (int node = 1; node <= processes.length; node++) {
                int id = node;
                started.add(starters.submit(() -> startProcess(id)));
            }
            for (int node = 1; node <= processes.length; node++) {
                processes[node - 1] = started.get(node - 1).get();
            }
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IOException("a node did not start: " + e.getCause().getMessage(), e.getCause());
        } finally {
            starters.shutdown();
        }
    }

    private SpoolProcess startProcess(int node) throws IOException, InterruptedException {
        String address = bed.address(node);
        List<String> settings = new ArrayList<>(List.of("process.roles=broker,controller", "node.id=" + node,
                "cluster.id=" + SpoolCluster.CLUSTER_ID, "controller.quorum.voters=" + voters(),
                "controller.listener.names=CONTROLLER",
                "listeners=PLAINTEXT://" + address + ":" + CLIENT_PORT + ",CONTROLLER://" + address + ":"
                        + CONTROLLER_PORT,
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"));
        settings.addAll(extraSettings);
        return SpoolProcess.startThrough(bed.launcher(node), Files.createDirectories(dataDir(node)),
                Beds.nodeEnvironment(), List.of(), settings.toArray(String[]::new));
    }

    private String voters() {
        return IntStream.rangeClosed(1, processes.length)
                .mapToObj(node -> node + "@" + bed.address(node) + ":" + CONTROLLER_PORT)
                .collect(Collectors.joining(","));
    }

    @Override
    public Set<Integer> nodes() {
        return IntStream.rangeClosed(1, processes.length).boxed().collect(Collectors.toUnmodifiableSet());
    }

    /** Node {@code node}'s process (its pid, output); replaced by {@link #restart}. */
    public SpoolProcess process(int node) {
        return processes[node - 1];
    }

    /** Node {@code node}'s log dir. */
    public Path dataDir(int node) {
        SmallFileSystem disk = disks[node - 1];
        return disk != null ? disk.root().resolve("data") : root.resolve("node-" + node);
    }

    public NetworkBed bed() {
        return bed;
    }

    /**
     * Where each node's output is kept, {@code node-N.log}, every process it ran one after another (a process's lines
     * are written when it is replaced by a restart or the cluster closes), and at the close its metadata log,
     * {@code node-N-metadata/}. Kept after {@link #close} (under {@code target/}) for the run that failed.
     */
    public Path nodeLogs() {
        return nodeLogs;
    }

    private void saveOutput(int node) throws IOException {
        SpoolProcess process = processes[node - 1];
        List<String> lines = new ArrayList<>();
        lines.add("=== pid " + process.pid());
        lines.addAll(process.output());
        Files.write(nodeLogs.resolve("node-" + node + ".log"), lines, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    /**
     * Keeps node {@code node}'s copy of the metadata log ({@code node-N-metadata/}, Kafka's format: its
     * DumpLogSegments decodes every ISR and leader change with the time it was made) beside its output.
     */
    private void saveMetadataLog(int node) throws IOException {
        Path metadata = dataDir(node).resolve("__cluster_metadata-0");
        if (!Files.isDirectory(metadata)) {
            return;
        }
        Path copy = Files.createDirectories(nodeLogs.resolve("node-" + node + "-metadata"));
        try (Stream<Path> files = Files.list(metadata)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Files.copy(file, copy.resolve(file.getFileName().toString()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /** What each {@link #powerLoss} damaged, one line per partition, in order. */
    public List<String> powerCuts() {
        return List.copyOf(powerCuts);
    }

    @Override
    public void kill(int node) throws InterruptedException {
        paused.remove(node); // SIGKILL ends a stopped process too
        process(node).kill();
    }

    /** SIGTERM; a paused node is resumed first, or it could not act on it. */
    @Override
    public void terminate(int node) throws IOException, InterruptedException {
        if (paused.contains(node)) {
            resume(node);
        }
        process(node).stop();
    }

    @Override
    public void restart(int node) throws IOException, InterruptedException {
        if (process(node).isAlive()) {
            throw new IllegalStateException("node " + node + " still runs (pid " + process(node).pid() + ")");
        }
        saveOutput(node);
        processes[node - 1] = startProcess(node);
    }

    @Override
    public boolean isRunning(int node) {
        return process(node).isAlive();
    }

    @Override
    public void pause(int node) throws IOException, InterruptedException {
        process(node).pause();
        paused.add(node);
    }

    @Override
    public void resume(int node) throws IOException, InterruptedException {
        process(node).resume();
        paused.remove(node);
    }

    @Override
    public boolean canPartition() {
        return true;
    }

    @Override
    public void partition(Set<Integer> side, Set<Integer> otherSide) throws IOException, InterruptedException {
        for (int a : side) {
            for (int b : otherSide) {
                bed.cut(a, b);
            }
        }
    }

    @Override
    public void cutOneWay(int from, int to) throws IOException, InterruptedException {
        bed.cutOneWay(from, to);
    }

    @Override
    public void heal() throws IOException, InterruptedException {
        bed.heal();
    }

    /**
     * SIGKILL, then the tail of each partition's active segment past its checkpointed recovery point damaged (cut,
     * zeroed or garbled at a point drawn from the seed) and its indexes' tails garbled: what the page cache held
     * and the disk did not is lost. {@link #powerCuts} says what was done.
     */
    @Override
    public void powerLoss(int node) throws IOException, InterruptedException {
        kill(node);
        for (String damage : PowerCut.damageUnsyncedTails(dataDir(node), random)) {
            powerCuts.add("node " + node + " " + damage);
        }
    }

    @Override
    public void fillDisk(int node) throws IOException {
        disk(node).fill();
    }

    @Override
    public void freeDisk(int node) throws IOException {
        disk(node).empty();
    }

    private SmallFileSystem disk(int node) {
        SmallFileSystem disk = disks[node - 1];
        if (disk == null) {
            throw new UnsupportedOperationException("node " + node + "'s log dir is not on a file system of its own");
        }
        return disk;
    }

    @Override
    public boolean canFillDisk() {
        for (SmallFileSystem disk : disks) {
            if (disk == null) {
                return false;
            }
        }
        return true;
    }

    /** Every node's client address, running or not (a client finds the live ones). */
    @Override
    public String bootstrap() {
        StringJoiner bootstrap = new StringJoiner(",");
        for (int node = 1; node <= processes.length; node++) {
            bootstrap.add(bed.address(node) + ":" + CLIENT_PORT);
        }
        return bootstrap.toString();
    }

    /** Kills every node (SIGKILL, paused or not), unmounts their disks, removes the namespaces. */
    @Override
    public synchronized void close() throws IOException, InterruptedException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            for (int node = 1; node <= processes.length; node++) {
                if (processes[node - 1] != null) {
                    processes[node - 1].kill(); // as SpoolCluster closes: nothing is checked after the test
                    saveOutput(node);
                }
                saveMetadataLog(node);
            }
            for (SmallFileSystem disk : disks) {
                if (disk != null) {
                    disk.close();
                }
            }
            FileTrees.deleteRecursively(root);
        } finally {
            bed.close();
            try {
                Runtime.getRuntime().removeShutdownHook(closeOnExit);
            } catch (IllegalStateException shuttingDown) {
                // closed by the hook itself: nothing to unregister
            }
        }
    }

    private void closeQuietly() {
        try {
            close();
        } catch (IOException | InterruptedException e) {
            System.err.println("NamespaceCluster: clean-up on exit failed, the next run removes it: " + e);
        }
    }
}

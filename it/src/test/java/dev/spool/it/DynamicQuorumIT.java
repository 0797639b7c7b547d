package dev.spool.it;

import static dev.spool.it.MetadataQuorumTool.awaitTrue;
import static dev.spool.it.MetadataQuorumTool.leaderOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.log.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A dynamic metadata quorum (KIP-853) as a Kafka operator grows and shrinks one: {@code bin/spool format --standalone}
 * for the first controller, {@code --no-initial-controllers} for the others, each started with
 * {@code controller.quorum.bootstrap.servers} only, then added and removed with Kafka's own
 * {@code kafka-metadata-quorum add-controller} and {@code remove-controller}, which read each controller's
 * server.properties and meta.properties as they do for Kafka. All real processes on loopback.
 */
class DynamicQuorumIT {

    private static final String METADATA_QUORUM = MetadataQuorumTool.MAIN_CLASS;
    private static final Pattern VOTER = Pattern.compile("\"id\": (\\d+), \"directoryId\": \"([^\"]+)\"");
    private static final long AWAIT_MS = MetadataQuorumTool.AWAIT_MS;

    private Path root;
    private final List<Integer> ports = new ArrayList<>();
    private final SpoolProcess[] nodes = new SpoolProcess[4];

    @BeforeEach
    void choosePorts() throws IOException {
        root = Files.createTempDirectory("spool-dynamic-");
        while (ports.size() < 3) {
            int port = SpoolCluster.freePortPair();
            if (!ports.contains(port) && !ports.contains(port + 1) && !ports.contains(port - 1)) {
                ports.add(port);
            }
        }
    }

    @AfterEach
    void stopAll() throws Exception {
        for (SpoolProcess node : nodes) {
            if (node != null) {
                node.kill();
            }
        }
        FileTrees.deleteRecursively(root);
    }

    @Test
    void controllersAreAddedAndRemovedWithKafkasToolAndTheQuorumKeepsWorking() throws Exception {
        assertThat(format(1, "--standalone").exitCode()).isZero();
        assertThat(format(2, "--no-initial-controllers").exitCode()).isZero();
        assertThat(format(3, "--no-initial-controllers").exitCode()).isZero();
        for (int nodeId = 1; nodeId <= 3; nodeId++) {
            nodes[nodeId - 1] = start(nodeId);
        }
        nodes[3] = start(4);
        assertThat(voters(1)).as("the standalone controller alone").containsOnlyKeys(1);

        ExternalCommand.Result added = KafkaTool.run(METADATA_QUORUM, "--bootstrap-controller", controller(1),
                "--command-config", config(2).toString(), "add-controller");
        assertThat(added.exitCode()).as(added.output()).isZero();
        assertThat(added.output()).contains("Added controller 2 with directory id " + directoryId(2))
                .contains("CONTROLLER://127.0.0.1:" + ports.get(1));
        // Through a broker: forwarded to the active controller.
        ExternalCommand.Result forwarded = KafkaTool.run(METADATA_QUORUM, "--bootstrap-server", nodes[3].bootstrap(),
                "--command-config", config(3).toString(), "add-controller");
        assertThat(forwarded.exitCode()).as(forwarded.output()).isZero();
        assertThat(voters(2)).as("three voters, each with its directory id")
                .isEqualTo(Map.of(1, directoryId(1), 2, directoryId(2), 3, directoryId(3)));
        ExternalCommand.Result again = KafkaTool.run(METADATA_QUORUM, "--bootstrap-controller", controller(1),
                "--command-config", config(3).toString(), "add-controller");
        assertThat(again.exitCode()).isNotZero();
        assertThat(again.output()).contains("already part of the set of voters");

        ExternalCommand.Result features = KafkaTool.run("org.apache.kafka.tools.FeatureCommand",
                "--bootstrap-controller", controller(2), "describe");
        assertThat(features.output().lines().filter(line -> line.startsWith("Feature: kraft.version")).findFirst())
                .as(features.output()).hasValueSatisfying(line -> assertThat(line).contains("FinalizedVersionLevel: 1"));

        // The added voters are real: with the first one killed, two of three elect a leader and commit.
        nodes[0].kill();
        awaitTrue(() -> {
            int leader = leaderOf(KafkaTool.run(METADATA_QUORUM, "--bootstrap-controller", controller(2),
                    "--command-config", shortTimeouts().toString(), "describe", "--status").output());
            return leader == 2 || leader == 3;
        }, "a leader among the added controllers");
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", nodes[3].bootstrap(),
                "default.api.timeout.ms", "60000"))) {
            admin.createTopics(List.of(new NewTopic("after-the-first", 2, (short) 1))).all().get(60, TimeUnit.SECONDS);
        }
        nodes[0] = start(1);
        awaitTrue(() -> voters(1).size() == 3, "the restarted first controller, back with the voters of its Raft log");

        ExternalCommand.Result removed = KafkaTool.run(METADATA_QUORUM, "--bootstrap-controller", controller(1),
                "remove-controller", "--controller-id", "3", "--controller-directory-id", directoryId(3));
        assertThat(removed.exitCode()).as(removed.output()).isZero();
        assertThat(removed.output()).contains("Removed KRaft controller 3 with directory id " + directoryId(3));
        awaitTrue(() -> voters(1).keySet().equals(Set.of(1, 2)), "two voters left");
        assertThat(nodes[2].awaitExit(AWAIT_MS)).as("the removed controller stops").isNotNull();
        assertThat(nodes[2].output()).as("it says why").anyMatch(line -> line.contains("Shutting the node down")
                && line.contains("removed from the metadata quorum's voters"));
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", nodes[3].bootstrap(),
                "default.api.timeout.ms", "60000"))) {
            admin.createTopics(List.of(new NewTopic("after-the-removal", 1, (short) 1))).all()
                    .get(60, TimeUnit.SECONDS);
        }
    }

    /** The voters kafka-metadata-quorum describe --status shows through controller {@code through}: id, directory. */
    private Map<Integer, String> voters(int through) throws Exception {
        ExternalCommand.Result status = KafkaTool.run(METADATA_QUORUM, "--bootstrap-controller", controller(through),
                "--command-config", shortTimeouts().toString(), "describe", "--status");
        assertThat(status.exitCode()).as(status.output()).isZero();
        String line = status.output().lines().filter(candidate -> candidate.startsWith("CurrentVoters")).findFirst()
                .orElseThrow();
        Map<Integer, String> voters = new HashMap<>();
        Matcher matcher = VOTER.matcher(line);
        while (matcher.find()) {
            voters.put(Integer.parseInt(matcher.group(1)), matcher.group(2));
        }
        return voters;
    }

    /**
     * Admin settings for describing the quorum while it elects: a controller still names the leader that was just
     * killed for a second or two, and with the default timeouts one call would wait a minute for it.
     */
    private Path shortTimeouts() throws IOException {
        Path file = root.resolve("short-timeouts.properties");
        if (!Files.exists(file)) {
            Files.writeString(file, "request.timeout.ms=5000\ndefault.api.timeout.ms=10000\n");
        }
        return file;
    }

    private ExternalCommand.Result format(int nodeId, String initialVoters) throws Exception {
        ExternalCommand.Result result = ExternalCommand.run(SpoolProcess.repositoryRoot(), 120,
                SpoolProcess.repositoryRoot().resolve("bin/spool").toString(), "format", "--config",
                config(nodeId).toString(), initialVoters);
        assertThat(result.output()).contains("Formatting");
        return result;
    }

    private SpoolProcess start(int nodeId) throws Exception {
        Properties settings = settings(nodeId);
        List<String> overrides = new ArrayList<>();
        // bin/spool server's test launcher sets listeners and log.dirs first: the file's win back as overrides.
        overrides.add("listeners=" + settings.getProperty("listeners"));
        return SpoolProcess.startWithArguments(dataDir(nodeId), List.of("--config", config(nodeId).toString()),
                overrides.toArray(String[]::new));
    }

    /** Node {@code nodeId}'s server.properties, written once: what the node runs and add-controller reads. */
    private Path config(int nodeId) throws IOException {
        Path file = root.resolve("node-" + nodeId + ".properties");
        if (!Files.exists(file)) {
            try (var out = Files.newBufferedWriter(file)) {
                settings(nodeId).store(out, null);
            }
        }
        return file;
    }

    private Properties settings(int nodeId) {
        boolean controller = nodeId <= 3;
        Properties settings = new Properties();
        settings.setProperty("process.roles", controller ? "controller" : "broker");
        settings.setProperty("node.id", String.valueOf(nodeId));
        settings.setProperty("cluster.id", SpoolCluster.CLUSTER_ID);
        settings.setProperty("controller.listener.names", "CONTROLLER");
        settings.setProperty("listeners", controller ? "CONTROLLER://" + controller(nodeId) : "PLAINTEXT://127.0.0.1:0");
        settings.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        StringJoiner bootstrap = new StringJoiner(",");
        for (int id = 1; id <= 3; id++) {
            bootstrap.add(controller(id));
        }
        settings.setProperty("controller.quorum.bootstrap.servers", bootstrap.toString());
        settings.setProperty("log.dirs", dataDir(nodeId).toString());
        return settings;
    }

    private Path dataDir(int nodeId) {
        return root.resolve("node-" + nodeId);
    }

    private String controller(int nodeId) {
        return "127.0.0.1:" + ports.get(nodeId - 1);
    }

    private String directoryId(int nodeId) throws IOException {
        Properties meta = new Properties();
        try (var in = Files.newBufferedReader(dataDir(nodeId).resolve("meta.properties"))) {
            meta.load(in);
        }
        return meta.getProperty("directory.id");
    }
}

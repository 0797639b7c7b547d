package dev.spool.it;

import static dev.spool.it.MetadataQuorumTool.awaitTrue;
import static dev.spool.it.MetadataQuorumTool.leaderOf;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/spool server} processes as one cluster, three of them broker and controller (the Raft quorum's
 * voters), and a broker-only node that fetches the metadata from them: the quorum elects an active controller,
 * every node follows the same metadata at the same offsets, Kafka's tools and clients work through any node, and
 * the cluster keeps working when the quorum's leader or a broker is killed with SIGKILL.
 */
class ClusterIT {

    private static final String METADATA_QUORUM = MetadataQuorumTool.MAIN_CLASS;
    private static final Pattern VOTER_ID = Pattern.compile("\"id\": (\\d+)");
    private static final long AWAIT_MS = MetadataQuorumTool.AWAIT_MS;

    @Test
    void threeVotersAndABrokerFollowOneMetadataAndServeClientsThroughAnyNode() throws Exception {
        try (SpoolCluster cluster = SpoolCluster.start(3, 1, "group.initial.rebalance.delay.ms=0")) {
            for (String bootstrap : List.of("--bootstrap-server", "--bootstrap-controller")) {
                String address = bootstrap.equals("--bootstrap-server") ? cluster.node(1).bootstrap()
                        : cluster.controller(2);
                ExternalCommand.Result status = KafkaTool.run(METADATA_QUORUM, bootstrap, address, "describe",
                        "--status");
                assertThat(status.exitCode()).as(status.output()).isZero();
                assertThat(leaderOf(status.output())).isBetween(1, 3);
                assertThat(idsIn(status.output().lines().filter(line -> line.startsWith("CurrentVoters")).findFirst()
                        .orElseThrow())).containsExactlyInAnyOrder(1, 2, 3);
            }

            // Through the broker-only node: forwarded to the active controller.
            ExternalCommand.Result forwarded = KafkaTool.run(METADATA_QUORUM, "--bootstrap-server",
                    cluster.node(4).bootstrap(), "describe", "--status");
            assertThat(leaderOf(forwarded.output())).as(forwarded.output()).isBetween(1, 3);
            try (Admin admin = admin(cluster.node(4).bootstrap())) {
                admin.createTopics(List.of(new NewTopic("orders", 8, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            Map<Integer, String> layout = awaitSameLayoutOnEveryNode(cluster, "orders", 8);
            assertThat(layout.values().stream().map(partition -> partition.split(" ")[0]).distinct())
                    .as("leaders spread over the four brokers").hasSize(4);

            assertThat(produceAndReadInAGroup(cluster.node(4).bootstrap(), cluster.node(2).bootstrap(), "orders", 600))
                    .hasSize(600);
            awaitTrue(() -> sameMetadataLog(cluster), "the same metadata records at the same offsets on every node");

            // --replication: the leader, its two followers caught up (their log end as the leader sees it), and
            // the broker-only node as an observer.
            awaitTrue(() -> {
                ExternalCommand.Result replication = KafkaTool.run(METADATA_QUORUM, "--bootstrap-server",
                        cluster.node(4).bootstrap(), "describe", "--replication");
                // NodeId DirectoryId LogEndOffset Lag LastFetchTimestamp LastCaughtUpTimestamp Status
                List<String[]> rows = replication.output().lines().map(String::trim)
                        .filter(line -> line.matches("^\\d+\\s.*")).map(line -> line.split("\\s+")).toList();
                List<String[]> followers = rows.stream().filter(row -> row[6].equals("Follower")).toList();
                return replication.exitCode() == 0 && rows.size() == 4 && followers.size() == 2
                        && followers.stream().allMatch(row -> Long.parseLong(row[2]) > 0)
                        && rows.stream().anyMatch(row -> row[0].equals("4") && row[6].equals("Observer"));
            }, "kafka-metadata-quorum describe --replication with the followers' progress and the observer");
        }
    }

    @Test
    void losingTheQuorumLeaderElectsAnotherAndMetadataChangesKeepWorking() throws Exception {
        // Snapshots every few entries: the killed leader misses some, and comes back through one.
        try (SpoolCluster cluster = SpoolCluster.start(3, "metadata.log.max.records.between.snapshots=4")) {
            try (Admin admin = admin(cluster.bootstrap())) {
                admin.createTopics(List.of(new NewTopic("before", 3, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            int leader = quorumLeader(cluster.node(1).bootstrap());
            cluster.kill(leader);
            long killedAt = System.nanoTime();
            int survivor = leader == 1 ? 2 : 1;
            awaitTrue(() -> {
                int now = quorumLeader(cluster.node(survivor).bootstrap());
                return now != leader && now > 0;
            }, "a new quorum leader");
            long electionMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
            assertThat(electionMs).as("a new leader within seconds").isLessThan(15_000);

            try (Admin admin = admin(cluster.bootstrap())) {
                for (int i = 0; i < 6; i++) {
                    admin.createTopics(List.of(new NewTopic("while-away-" + i, 1, (short) 1))).all()
                            .get(30, TimeUnit.SECONDS);
                }
                admin.createTopics(List.of(new NewTopic("after", 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
                ConfigResource after = new ConfigResource(ConfigResource.Type.TOPIC, "after");
                admin.incrementalAlterConfigs(Map.of(after, List.of(new AlterConfigOp(
                        new ConfigEntry("retention.ms", "3600000"), AlterConfigOp.OpType.SET))))
                        .all().get(30, TimeUnit.SECONDS);
                admin.deleteTopics(List.of("before")).all().get(30, TimeUnit.SECONDS);
            }

            SpoolProcess rejoined = cluster.restart(leader);
            try (Admin admin = admin(rejoined.bootstrap())) {
                awaitTrue(() -> admin.listTopics().names().get(10, TimeUnit.SECONDS).contains("after")
                        && !admin.listTopics().names().get(10, TimeUnit.SECONDS).contains("before"),
                        "the restarted node has the changes it missed");
                ConfigResource after = new ConfigResource(ConfigResource.Type.TOPIC, "after");
                awaitTrue(() -> "3600000".equals(admin.describeConfigs(List.of(after)).all().get(10, TimeUnit.SECONDS)
                        .get(after).get("retention.ms").value()), "the restarted node has the config change");
            }
            for (int nodeId = 1; nodeId <= 3; nodeId++) {
                assertKafkaReadsTheNewestCheckpoint(cluster.dataDir(nodeId));
            }
        }
    }

    @Test
    void aBrokerThatMissedSnapshotsCatchesUpThroughOne() throws Exception {
        try (SpoolCluster cluster = SpoolCluster.start(3, 1, "metadata.log.max.records.between.snapshots=3")) {
            cluster.kill(4);
            try (Admin admin = admin(cluster.node(1).bootstrap())) {
                for (int i = 0; i < 12; i++) {
                    admin.createTopics(List.of(new NewTopic("missed-" + i, 2, (short) 1))).all()
                            .get(30, TimeUnit.SECONDS);
                }
            }
            SpoolProcess back = cluster.restart(4);
            assertThat(back.awaitOutput(line -> line.contains("Installed metadata snapshot"), 30_000))
                    .as("the broker read a snapshot with FetchSnapshot").isTrue();
            try (Admin admin = admin(back.bootstrap())) {
                awaitTrue(() -> admin.listTopics().names().get(10, TimeUnit.SECONDS).size() == 12,
                        "the broker knows every topic created while it was away");
            }
            Map<Integer, String> layout = awaitSameLayoutOnEveryNode(cluster, "missed-11", 2);
            assertThat(layout).hasSize(2);
            try (KafkaProducer<String, String> producer = producer(back.bootstrap())) {
                for (int i = 0; i < 12; i++) {
                    producer.send(new ProducerRecord<>("missed-" + i, "key", "value")).get(30, TimeUnit.SECONDS);
                }
            }

            // A broker taken out of the cluster for good: kafka-cluster unregister, through another broker-only
            // path (forwarded to the active controller when node 2 is not it).
            cluster.kill(4);
            ExternalCommand.Result unregistered = KafkaTool.run("org.apache.kafka.tools.ClusterTool", "unregister",
                    "--bootstrap-server", cluster.node(2).bootstrap(), "--id", "4");
            assertThat(unregistered.exitCode()).as(unregistered.output()).isZero();
            ExternalCommand.Result again = KafkaTool.run("org.apache.kafka.tools.ClusterTool", "unregister",
                    "--bootstrap-server", cluster.node(2).bootstrap(), "--id", "4");
            assertThat(again.exitCode()).as(again.output()).isNotZero();
            assertThat(again.output()).contains("not registered");
        }
    }

    /** Kafka's dump tool decodes the newest Raft snapshot, a checkpoint with Kafka's header and footer. */
    private static void assertKafkaReadsTheNewestCheckpoint(Path dataDir) throws Exception {
        Path checkpoint;
        try (var files = java.nio.file.Files.walk(dataDir.resolve("__cluster_metadata-0"))) {
            checkpoint = files.filter(file -> file.toString().endsWith(".checkpoint")).max(Path::compareTo)
                    .orElseThrow(() -> new AssertionError("no checkpoint under " + dataDir));
        }
        ExternalCommand.Result dump = KafkaTool.run("org.apache.kafka.tools.DumpLogSegments",
                "--cluster-metadata-decoder", "--files", checkpoint.toString());
        assertThat(dump.exitCode()).as(dump.output()).isZero();
        assertThat(dump.output()).contains("SnapshotHeader").contains("TOPIC_RECORD").contains("SnapshotFooter");
    }

    @Test
    void aKilledBrokerIsFencedAfterItsSessionAndUnfencedWhenItReturns() throws Exception {
        try (SpoolCluster cluster = SpoolCluster.start(3, "broker.session.timeout.ms=3000",
                "broker.heartbeat.interval.ms=500")) {
            try (Admin admin = admin(cluster.bootstrap())) {
                admin.createTopics(List.of(new NewTopic("spread", 3, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            int leader = quorumLeader(cluster.node(1).bootstrap());
            int victim = leader == 3 ? 2 : 3;
            int witness = 6 - leader - victim;
            Map<Integer, String> before = awaitSameLayoutOnEveryNode(cluster, "spread", 3);
            assertThat(before.values()).anySatisfy(partition -> assertThat(partition).startsWith(victim + " "));

            cluster.kill(victim);
            try (Admin admin = admin(cluster.node(witness).bootstrap())) {
                awaitTrue(() -> admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).stream()
                        .noneMatch(node -> node.id() == victim), "the killed broker fenced, gone from the cluster");
                awaitTrue(() -> describe(admin, "spread").partitions().stream()
                        .filter(partition -> partition.replicas().get(0).id() == victim)
                        .allMatch(partition -> partition.leader() == null), "its partitions without a leader");
                assertThat(describe(admin, "spread").partitions().stream()
                        .filter(partition -> partition.replicas().get(0).id() != victim)
                        .allMatch(partition -> partition.leader() != null)).as("the others keep theirs").isTrue();

                cluster.restart(victim);
                awaitTrue(() -> admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).stream()
                        .anyMatch(node -> node.id() == victim), "the restarted broker unfenced");
                awaitTrue(() -> describe(admin, "spread").partitions().stream()
                        .allMatch(partition -> partition.leader() != null), "every partition led again");
            }
        }
    }

    /**
     * The active controller's node dies: the new controller has never heard a heartbeat from it (it heartbeated to
     * itself) and gives every broker a full session, but that node's Raft voter is silent, which ends its session
     * long before the session timeout (two minutes here; Kafka waits them out).
     */
    @Test
    void theActiveControllersNodeKilledLosesItsLeadershipsLongBeforeItsSessionEnds() throws Exception {
        try (SpoolCluster cluster = SpoolCluster.start(3, "broker.session.timeout.ms=120000")) {
            int leader = quorumLeader(cluster.node(1).bootstrap());
            int witness = leader == 1 ? 2 : 1;
            List<Integer> replicas = List.of(leader, witness, 6 - leader - witness);
            try (Admin admin = admin(cluster.node(witness).bootstrap())) {
                admin.createTopics(List.of(new NewTopic("led", Map.of(0, replicas)))).all().get(30, TimeUnit.SECONDS);
                awaitTrue(() -> describe(admin, "led").partitions().get(0).isr().size() == 3
                        && describe(admin, "led").partitions().get(0).leader().id() == leader,
                        "led-0 led by the quorum leader, every replica in sync");

                cluster.kill(leader);
                long killedAt = System.nanoTime();
                awaitTrue(() -> {
                    Node now = describe(admin, "led").partitions().get(0).leader();
                    return now != null && now.id() != leader;
                }, "led-0 led by another node");
                long movedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
                System.out.printf("ClusterIT: the active controller's node killed, led-0 led again after %d ms%n",
                        movedMs);
                assertThat(movedMs).as("well within the two-minute session").isLessThan(60_000);
                assertThat(admin.describeCluster().nodes().get(10, TimeUnit.SECONDS)).extracting(Node::id)
                        .as("the killed node is fenced").doesNotContain(leader);
            }
        }
    }

    /**
     * The quorum leader stopped (SIGSTOP) for longer than an election, three times: each time it comes back to a
     * quorum that has moved on, steps down, follows, and is unfenced again, and the cluster takes metadata changes that
     * reach every node. (With Ratis' Netty RPC the stepping-down leader could deadlock its Raft server for good, and
     * the node then never applied metadata again; see RaftSettings.)
     */
    @Test
    void aQuorumLeaderPausedLongerThanAnElectionFollowsTheNewOneWhenItResumes() throws Exception {
        try (SpoolCluster cluster = SpoolCluster.start(3, "broker.session.timeout.ms=3000",
                "broker.heartbeat.interval.ms=500")) {
            for (int round = 1; round <= 3; round++) {
                int leader = quorumLeader(cluster.node(1).bootstrap());
                assertThat(leader).as("round %d: a quorum leader", round).isPositive();
                cluster.node(leader).pause();
                Thread.sleep(4_500); // past the longest election timeout (2 s) and the session (3 s)
                cluster.node(leader).resume();

                String topic = "after-pause-" + round;
                try (Admin admin = admin(cluster.bootstrap())) {
                    // Three replicas: refused until the controller has every broker unfenced again.
                    awaitTrue(() -> {
                        try {
                            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 3))).all()
                                    .get(30, TimeUnit.SECONDS);
                        } catch (ExecutionException e) {
                            if (!(e.getCause() instanceof TopicExistsException)) {
                                throw e; // an earlier try that timed out may have created it
                            }
                        }
                        return true;
                    }, topic + " created once node " + leader + " is unfenced again after its pause");
                }
                for (int nodeId = 1; nodeId <= 3; nodeId++) {
                    try (Admin alone = admin(cluster.node(nodeId).bootstrap())) {
                        awaitTrue(() -> alone.listTopics().names().get(10, TimeUnit.SECONDS).contains(topic),
                                topic + ": node " + nodeId + " has the topic created after the pause");
                    }
                }
            }
        }
    }

    @Test
    void controllerOnlyNodesServeBrokersThatFindThemThroughTheBootstrapServers() throws Exception {
        // A session far longer than the test: a broker gone from the cluster was fenced by its controlled
        // shutdown, not by a session that ran out.
        try (SpoolCluster cluster = SpoolCluster.startSeparated(3, 2, "broker.session.timeout.ms=120000",
                "group.initial.rebalance.delay.ms=0")) {
            ExternalCommand.Result status = KafkaTool.run(METADATA_QUORUM, "--bootstrap-controller",
                    cluster.controllers(), "describe", "--status");
            assertThat(status.exitCode()).as(status.output()).isZero();
            assertThat(idsIn(lineStartingWith(status.output(), "CurrentVoters"))).containsExactlyInAnyOrder(1, 2, 3);
            assertThat(idsIn(lineStartingWith(status.output(), "CurrentObservers"))).containsExactlyInAnyOrder(4, 5);
            int leader = leaderOf(status.output());
            assertThat(leader).isBetween(1, 3);

            try (Admin admin = admin(cluster.bootstrap())) {
                assertThat(ids(List.copyOf(admin.describeCluster().nodes().get(10, TimeUnit.SECONDS))))
                        .as("the controllers are no brokers").containsExactlyInAnyOrder(4, 5);
                assertThat(admin.describeCluster().controller().get(10, TimeUnit.SECONDS).id())
                        .as("clients are sent to a broker, which forwards to the controller-only leader").isIn(4, 5);
                admin.createTopics(List.of(new NewTopic("orders", 6, (short) 1))).all().get(30, TimeUnit.SECONDS);
                awaitTrue(() -> describe(admin, "orders").partitions().stream().map(partition -> partition.leader().id())
                        .distinct().sorted().toList().equals(List.of(4, 5)), "partitions on both brokers only");
            }
            assertThat(produceAndReadInAGroup(cluster.bootstrap(), cluster.node(5).bootstrap(), "orders", 300))
                    .hasSize(300);

            cluster.kill(leader);
            int survivor = leader == 1 ? 2 : 1;
            awaitTrue(() -> {
                ExternalCommand.Result after = KafkaTool.run(METADATA_QUORUM, "--bootstrap-controller",
                        cluster.controller(survivor), "describe", "--status");
                int elected = after.exitCode() == 0 ? leaderOf(after.output()) : -1;
                if (elected >= 1 && elected <= 3 && elected != leader) {
                    return true;
                }
                // The cause a timeout reports: what the survivor last said (this failed once in CI, never here).
                throw new AssertionError("controller " + survivor + " answered (exit " + after.exitCode() + "): "
                        + after.output());
            }, "another controller elected");
            try (Admin admin = admin(cluster.node(4).bootstrap())) {
                admin.createTopics(List.of(new NewTopic("after", 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
                cluster.restart(leader);

                // SIGTERM: a controlled shutdown fences the broker and moves its partitions' leadership away at once.
                cluster.node(5).stop();
                awaitTrue(() -> admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).stream()
                        .noneMatch(node -> node.id() == 5), "the stopped broker fenced by its controlled shutdown");
                awaitTrue(() -> describe(admin, "orders").partitions().stream()
                        .filter(partition -> partition.replicas().get(0).id() == 5)
                        .allMatch(partition -> partition.leader() == null), "its partitions without a leader");
            }
            awaitTrue(() -> {
                ExternalCommand.Result rejoined = KafkaTool.run(METADATA_QUORUM, "--bootstrap-controller",
                        cluster.controller(leader), "describe", "--status");
                return rejoined.exitCode() == 0 && leaderOf(rejoined.output()) != leader
                        && leaderOf(rejoined.output()) >= 1;
            }, "the restarted controller back in the quorum, following the new leader");
        }
    }

    /**
     * Produces {@code count} records to {@code topic} through {@code produceTo}, then reads them in group
     * "readers" through {@code consumeFrom} and commits; the distinct values read.
     */
    private static Set<String> produceAndReadInAGroup(String produceTo, String consumeFrom, String topic, int count) {
        try (KafkaProducer<String, String> producer = producer(produceTo)) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, "key-" + i, "value-" + i));
            }
            producer.flush();
        }
        Set<String> read = new HashSet<>();
        try (KafkaConsumer<String, String> consumer = consumer(consumeFrom, "readers")) {
            consumer.subscribe(List.of(topic));
            long deadline = System.currentTimeMillis() + AWAIT_MS;
            while (read.size() < count && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    read.add(record.value());
                }
            }
            consumer.commitSync();
        }
        return read;
    }

    private static String lineStartingWith(String output, String prefix) {
        return output.lines().filter(line -> line.startsWith(prefix)).findFirst().orElseThrow(() ->
                new AssertionError("no line starting with " + prefix + " in:\n" + output));
    }

    /** Each partition as "leader replicas isr" once every node describes the topic alike; by partition. */
    private static Map<Integer, String> awaitSameLayoutOnEveryNode(SpoolCluster cluster, String topic, int partitions)
            throws Exception {
        List<Map<Integer, String>> seen = new ArrayList<>();
        awaitTrue(() -> {
            seen.clear();
            for (int nodeId = 1; nodeId <= cluster.size(); nodeId++) {
                try (Admin admin = admin(cluster.node(nodeId).bootstrap())) {
                    Map<Integer, String> layout = new HashMap<>();
                    for (TopicPartitionInfo partition : describe(admin, topic).partitions()) {
                        layout.put(partition.partition(), (partition.leader() == null ? "none" : partition.leader().id())
                                + " " + ids(partition.replicas()) + " " + ids(partition.isr()));
                    }
                    seen.add(layout);
                }
            }
            return seen.get(0).size() == partitions && seen.stream().distinct().count() == 1;
        }, "every node describes " + topic + " alike");
        return seen.get(0);
    }

    private static List<Integer> ids(List<Node> nodes) {
        return nodes.stream().map(Node::id).toList();
    }

    private static TopicDescription describe(Admin admin, String topic) throws Exception {
        return admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic);
    }

    /** Whether every node's metadata log holds the same records at the same offsets (Kafka's dump tool reads them). */
    private static boolean sameMetadataLog(SpoolCluster cluster) throws Exception {
        List<String> dumps = new ArrayList<>();
        for (int nodeId = 1; nodeId <= cluster.size(); nodeId++) {
            Path segment = cluster.dataDir(nodeId).resolve("__cluster_metadata-0/00000000000000000000.log");
            ExternalCommand.Result dump = KafkaTool.run("org.apache.kafka.tools.DumpLogSegments",
                    "--cluster-metadata-decoder", "--files", segment.toString());
            assertThat(dump.exitCode()).as(dump.output()).isZero();
            // The batches as Kafka's tool decodes them, without the line naming the file.
            dumps.add(String.join("\n", dump.output().lines().filter(line -> line.contains("offset")).toList()));
        }
        assertThat(dumps.get(0)).contains("REGISTER_BROKER_RECORD").contains("TOPIC_RECORD");
        return dumps.stream().distinct().count() == 1;
    }

    private static int quorumLeader(String bootstrap) throws Exception {
        ExternalCommand.Result status = KafkaTool.run(METADATA_QUORUM, "--bootstrap-server", bootstrap, "describe",
                "--status");
        return status.exitCode() == 0 ? leaderOf(status.output()) : -1;
    }

    private static List<Integer> idsIn(String line) {
        List<Integer> ids = new ArrayList<>();
        Matcher matcher = VOTER_ID.matcher(line);
        while (matcher.find()) {
            ids.add(Integer.parseInt(matcher.group(1)));
        }
        return ids;
    }

    private static Admin admin(String bootstrap) {
        return Admin.create(Map.of("bootstrap.servers", bootstrap, "default.api.timeout.ms", "30000"));
    }

    private static KafkaProducer<String, String> producer(String bootstrap) {
        return new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap, "acks", "all"), new StringSerializer(),
                new StringSerializer());
    }

    private static KafkaConsumer<String, String> consumer(String bootstrap, String group) {
        return new KafkaConsumer<>(Map.of("bootstrap.servers", bootstrap, "group.id", group,
                "auto.offset.reset", "earliest", "enable.auto.commit", "false"), new StringDeserializer(),
                new StringDeserializer());
    }
}

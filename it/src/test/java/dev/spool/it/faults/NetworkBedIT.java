package dev.spool.it.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.spool.it.reliability.PartitionReader;
import dev.spool.it.reliability.RawRequest;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetFetchRequestData.OffsetFetchRequestTopic;
import org.apache.kafka.common.message.OffsetFetchResponseData.OffsetFetchResponsePartition;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.OffsetFetchResponse;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Each fault of the network-namespace bed does what it says, on a real 3-node cluster of {@code bin/spool server}
 * voters, each in its own namespace, driven from the root namespace by Kafka's clients: the cluster serves them; a
 * one-way cut lets packets pass one way only; a quorum leader cut off from the other two is replaced by one of
 * them; heal restores every path; pause, kill, terminate and restart act on the broker's own pid; a power loss
 * leaves a damaged tail that the restarted node recovers from; a full disk fails appends with KAFKA_STORAGE_ERROR
 * until it is freed, and a follower whose disk filled catches up once it is; a coordinator cut off from the others
 * answers no read_committed consumer with offsets the new one has moved past. Closing removes the namespaces, the
 * bridge and the mounts. Skipped (with the reason) where network namespaces are not available. Packet passage is
 * observed with UDP datagrams to a closed port, counted by the receiving namespace's kernel (Udp InDatagrams +
 * NoPorts in its /proc/net/snmp): TCP cannot show a one-way cut, since a handshake needs both ways.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NetworkBedIT {

    private static final long SEED = Long.getLong("netbed.seed", System.nanoTime());
    private static final int DISCARD_PORT = 9;

    private static NamespaceCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        String unavailable = NetworkBed.unavailableReason();
        Assumptions.assumeTrue(unavailable == null, unavailable);
        cluster = NamespaceCluster.start(3, SEED);
    }

    @AfterAll
    static void closeAndCheckNothingIsLeft() throws Exception {
        if (cluster == null) {
            return;
        }
        NetworkBed bed = cluster.bed();
        List<Path> dataDirs = List.of(cluster.dataDir(1), cluster.dataDir(2), cluster.dataDir(3));
        cluster.close();
        String namespaces = HostCommand.run("ip", "netns", "list");
        String links = HostCommand.run("ip", "-o", "link", "show");
        String mounts = Files.readString(Path.of("/proc/mounts"));
        for (int node = 1; node <= 3; node++) {
            assertThat(namespaces).doesNotContain(bed.namespace(node));
            assertThat(mounts).doesNotContain(dataDirs.get(node - 1).getParent().toString());
        }
        for (int node = 1; node <= 3; node++) {
            assertThat(links).doesNotContain(bed.hostLink(node) + "@");
        }
        assertThat(links).doesNotContain(bed.bridge() + ":");
        assertThat(HostCommand.run("ip", "-4", "-o", "addr", "show")).doesNotContain(bed.hostAddress());
    }

    @AfterEach
    void healAndRevive() throws Exception {
        cluster.heal();
        for (int node : cluster.nodes()) {
            if (!cluster.process(node).isAlive()) {
                cluster.restart(node);
            }
        }
    }

    @Test
    @Order(1)
    void eachNodeRunsInItsNamespaceAndServesClientsInTheRootNamespace() throws Exception {
        for (int node : cluster.nodes()) {
            long pid = cluster.process(node).pid();
            assertThat(ProcessHandle.of(pid).flatMap(process -> process.info().command()).orElse(""))
                    .as("ip netns exec and bin/spool exec: the pid is the JVM's").endsWith("java");
            assertThat(Files.getAttribute(Path.of("/proc/" + pid + "/ns/net"), "unix:ino"))
                    .as("node %d's network namespace", node)
                    .isEqualTo(Files.getAttribute(Path.of("/run/netns", cluster.bed().namespace(node)), "unix:ino"));
        }
        createTopic("served", 3, (short) 3);
        produce("served", 100, "served ");
        assertThat(PartitionReader.readAll(cluster.bootstrap(), "served", 0)).hasSize(100);
    }

    @Test
    @Order(2)
    void aOneWayCutDropsPacketsFromOneSideOnlyUntilHealed() throws Exception {
        Assumptions.assumeTrue(NetworkBed.canCutOneWay(), "no iptables here (bin/test installs it)");
        assertThat(datagramsArriving(1, 2)).as("1 to 2 before the cut").isPositive();
        cluster.cutOneWay(1, 2);
        assertThat(datagramsArriving(1, 2)).as("1 to 2, cut").isZero();
        assertThat(datagramsArriving(2, 1)).as("2 to 1, not cut").isPositive();
        assertThat(datagramsArriving(1, 3)).as("1 to 3, not cut").isPositive();
        cluster.heal();
        assertThat(datagramsArriving(1, 2)).as("1 to 2, healed").isPositive();
    }

    @Test
    @Order(3)
    void isolatingTheQuorumLeaderElectsANewOneOnTheMajoritySide() throws Exception {
        int leader = await("a quorum leader", cluster::quorumLeader, node -> node > 0);
        Set<Integer> others = new HashSet<>(cluster.nodes());
        others.remove(leader);
        cluster.partition(Set.of(leader), others);
        for (int other : others) {
            assertThat(datagramsArriving(leader, other)).as("%d to %d, partitioned", leader, other).isZero();
            assertThat(datagramsArriving(other, leader)).as("%d to %d, partitioned", other, leader).isZero();
        }
        int[] majority = others.stream().mapToInt(Integer::intValue).toArray();
        assertThat(datagramsArriving(majority[0], majority[1])).as("within the majority").isPositive();
        int newLeader = awaitQuorumLeaderAmong(others);
        System.out.printf("NetworkBedIT: quorum leader %d isolated, %d leads now%n", leader, newLeader);

        cluster.heal();
        for (int other : others) {
            assertThat(datagramsArriving(leader, other)).as("%d to %d, healed", leader, other).isPositive();
        }
        await("a quorum leader after healing", cluster::quorumLeader, node -> node > 0);
        // The healed voter takes the new leader's entries again: metadata written after the heal reaches it.
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic("after-heal", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        for (int node : cluster.nodes()) {
            await("topic after-heal in the metadata of node " + node + " (node logs in " + cluster.nodeLogs() + ")",
                    () -> knows(node, "after-heal") ? 1 : 0, known -> known == 1);
        }
        // Only now does every node know who leads "served": until the isolated node has caught up, it may still
        // answer a reader as the partition's leader of before, with what it had (a stale read, as in Kafka).
        produce("served", 10, "after heal ");
        assertThat(PartitionReader.readAll(cluster.bootstrap(), "served", 0)).hasSize(110);
    }

    @Test
    @Order(4)
    void pauseStopsTheNodeAndResumeLetsItAnswerAgain() throws Exception {
        long pid = cluster.process(3).pid();
        cluster.pause(3);
        try {
            assertThat(processState(pid)).isEqualTo("T");
            assertThat(answersAlone(3)).as("a paused node answers").isFalse();
        } finally {
            cluster.resume(3); // the next tests need node 3 whatever this one found
        }
        assertThat(processState(pid)).isNotEqualTo("T");
        assertThat(answersAlone(3)).as("a resumed node answers").isTrue();
    }

    @Test
    @Order(5)
    void killAndTerminateEndTheNodesProcessAndRestartBringsItBack() throws Exception {
        long killed = cluster.process(2).pid();
        cluster.kill(2);
        assertThat(ProcessHandle.of(killed)).as("killed pid").isEmpty();
        assertThat(answersAlone(2)).isFalse();
        cluster.restart(2);
        assertThat(cluster.process(2).pid()).isNotEqualTo(killed);
        assertThat(answersAlone(2)).isTrue();

        long terminated = cluster.process(2).pid();
        cluster.terminate(2);
        assertThat(ProcessHandle.of(terminated)).as("terminated pid").isEmpty();
        assertThat(cluster.process(2).output()).anyMatch(line -> line.toLowerCase().contains("shut"));
        cluster.restart(2);
        assertThat(answersAlone(2)).isTrue();
        await("node 2 registered again", () -> registeredBrokers().contains(2) ? 2 : -1, node -> node == 2);
    }

    @Test
    @Order(6)
    void powerLossDamagesTheUnsyncedTailAndTheRestartedNodeRecoversIt() throws Exception {
        createTopic("powered", 1, (short) 3);
        produce("powered", 2_000, "powered ");
        int leader = await("a leader of powered-0", () -> cluster.leaderOf("powered", 0), node -> node > 0);
        int follower = leader % 3 + 1;
        cluster.powerLoss(follower);
        assertThat(ProcessHandle.of(cluster.process(follower).pid())).isEmpty();
        assertThat(cluster.powerCuts()).as("damage done (seed %d)", SEED)
                .anyMatch(line -> line.startsWith("node " + follower + " powered-0: "));
        System.out.println("NetworkBedIT: " + cluster.powerCuts());

        cluster.restart(follower);
        assertThat(cluster.process(follower).awaitOutput(line -> line.contains("Recovery of")
                && line.contains("powered-0") && line.contains("truncating"), 30_000))
                .as("node %d's recovery says what it dropped (seed %d)", follower, SEED).isTrue();
        await("node " + follower + " back in powered-0's ISR", () -> isr("powered").size(), size -> size == 3);
        assertThat(PartitionReader.readAll(cluster.bootstrap(), "powered", 0)).hasSize(2_000);
    }

    @Test
    @Order(7)
    void aFullDiskFailsAppendsWithStorageErrorUntilItIsFreed() throws Exception {
        Assumptions.assumeTrue(cluster.canFillDisk(), "no loop-mounted file system here");
        int node = 3;
        createTopic("cramped", List.of(node));
        try (KafkaProducer<String, String> producer = producer(0)) {
            producer.send(new ProducerRecord<>("cramped", "before")).get(30, TimeUnit.SECONDS);
            cluster.fillDisk(node);
            Throwable failure = catchThrowable(() -> producer.send(new ProducerRecord<>("cramped",
                    "x".repeat(256 * 1024))).get(30, TimeUnit.SECONDS));
            assertThat(failure).isInstanceOf(ExecutionException.class).hasCauseInstanceOf(KafkaStorageException.class);
            cluster.freeDisk(node);
            producer.send(new ProducerRecord<>("cramped", "x".repeat(256 * 1024))).get(30, TimeUnit.SECONDS);
        }
        assertThat(PartitionReader.readAll(cluster.bootstrap(), "cramped", 0)).hasSize(2);
    }

    @Test
    @Order(8)
    void aFollowerWhoseDiskFilledCatchesUpOnceItIsFreed() throws Exception {
        Assumptions.assumeTrue(cluster.canFillDisk(), "no loop-mounted file system here");
        int follower = 3;
        createTopic("followed", List.of(1, 2, follower));
        await("node " + follower + " in followed-0's ISR", () -> isr("followed").size(), size -> size == 3);
        try (KafkaProducer<String, String> producer = producer(Integer.MAX_VALUE)) {
            cluster.fillDisk(follower);
            // Many batches the follower fails to write, in fetches that each span several index intervals. The disk
            // is freed well within replica.lag.time.max.ms: a metadata change while it is full (the ISR shrinking)
            // would stop the node, as Kafka's broker stops when its metadata log dir fails.
            List<Future<?>> sends = new ArrayList<>();
            for (int i = 0; i < 3_000; i++) {
                sends.add(producer.send(new ProducerRecord<>("followed", 0, null, "y".repeat(200) + " " + i)));
            }
            // Its fetcher warns (at most every 30 s, so maybe not this time) that it failed to write them; its next
            // fetches, a second apart, fail too, now with every record the leader has.
            cluster.process(follower).awaitOutput(line -> line.contains("No space left"), 5_000);
            Thread.sleep(3_000);
            cluster.freeDisk(follower);
            for (Future<?> send : sends) {
                send.get(90, TimeUnit.SECONDS);
            }
        }
        await("node " + follower + " in followed-0's ISR (it was " + isr("followed") + ")",
                () -> isr("followed").size(), size -> size == 3);
        assertThat(PartitionReader.readAll(cluster.bootstrap(), "followed", 0)).hasSize(3_000);
    }

    /**
     * Issue 20's copier finding: a group coordinator cut off from the other two keeps its shard in memory until it hears
     * of the new leader. It still answers a plain OffsetFetch with the offsets it had (as Kafka's would), but never a
     * read_committed consumer's (require_stable), which would process records again from them: that answer waits for
     * a record written for it to be committed, which the deposed leader cannot do.
     */
    @Test
    @Order(9)
    void aDeposedCoordinatorNeverAnswersAReadCommittedOffsetFetchWithStaleOffsets() throws Exception {
        String group = "stale-read";
        TopicPartition fetched = new TopicPartition("fetched", 0);
        createTopic(fetched.topic(), List.of(1, 2, 3));
        int coordinator;
        try (Admin admin = admin()) {
            admin.alterConsumerGroupOffsets(group, Map.of(fetched, new OffsetAndMetadata(10)))
                    .all().get(30, TimeUnit.SECONDS);
            coordinator = admin.describeConsumerGroups(List.of(group)).all().get(30, TimeUnit.SECONDS).get(group)
                    .coordinator().id();
        }
        Set<Integer> others = new HashSet<>(cluster.nodes());
        others.remove(coordinator);
        cluster.partition(Set.of(coordinator), others);

        StringJoiner majority = new StringJoiner(",");
        others.forEach(node -> majority.add(clientAddress(node)));
        // A new client each time: one that knew node 1 may ask it where the coordinator is, and it names itself. Only
        // reads until the majority names one: a commit sent to the deposed coordinator would be held uncommitted, and
        // every later answer of its shard with it.
        await("a coordinator for " + group + " among " + others, () -> {
            try (Admin admin = admin(majority.toString())) {
                return admin.describeConsumerGroups(List.of(group)).all().get(10, TimeUnit.SECONDS).get(group)
                        .coordinator().id();
            } catch (ExecutionException | java.util.concurrent.TimeoutException notYet) {
                return -1;
            }
        }, others::contains);
        await("offset 20 committed by the new coordinator", () -> {
            try (Admin admin = admin(majority.toString())) {
                admin.alterConsumerGroupOffsets(group, Map.of(fetched, new OffsetAndMetadata(20)))
                        .all().get(10, TimeUnit.SECONDS);
                return 1;
            } catch (ExecutionException | java.util.concurrent.TimeoutException notYet) {
                System.out.println("NetworkBedIT: commit of offset 20 not yet: " + notYet.getMessage());
                return 0;
            }
        }, committed -> committed == 1);

        assertThat(committedAsAnsweredBy(coordinator, group, fetched, false))
                .as("the deposed coordinator %d, asked for offsets as a plain consumer asks (the setting is real)",
                        coordinator).isEqualTo("offset 10");
        assertThat(committedAsAnsweredBy(coordinator, group, fetched, true))
                .as("the deposed coordinator %d, asked as a read_committed consumer asks", coordinator)
                .isIn("no answer", "error NOT_COORDINATOR", "offset 20");
    }

    /** What node {@code node} answers an OffsetFetch (v7, one group) of {@code partition}, within 10 s. */
    private static String committedAsAnsweredBy(int node, String group, TopicPartition partition,
                                                boolean requireStable) throws Exception {
        OffsetFetchRequestData request = new OffsetFetchRequestData().setGroupId(group).setRequireStable(requireStable)
                .setTopics(List.of(new OffsetFetchRequestTopic().setName(partition.topic())
                        .setPartitionIndexes(List.of(partition.partition()))));
        try {
            OffsetFetchResponse response = (OffsetFetchResponse) RawRequest.send(cluster.bed().address(node),
                    NamespaceCluster.CLIENT_PORT, ApiKeys.OFFSET_FETCH, (short) 7, request, 10_000);
            if (response.data().errorCode() != 0) {
                return "error " + Errors.forCode(response.data().errorCode());
            }
            OffsetFetchResponsePartition answer = response.data().topics().get(0).partitions().get(0);
            return answer.errorCode() != 0 ? "error " + Errors.forCode(answer.errorCode())
                    : "offset " + answer.committedOffset();
        } catch (SocketTimeoutException noAnswer) {
            return "no answer";
        }
    }

    /** Whether node {@code node}, asked alone for Metadata (v12), describes {@code topic}; false when it does not answer. */
    private static boolean knows(int node, String topic) throws Exception {
        MetadataRequestData request = new MetadataRequestData().setAllowAutoTopicCreation(false)
                .setTopics(List.of(new MetadataRequestData.MetadataRequestTopic().setName(topic)));
        try {
            MetadataResponse response = (MetadataResponse) RawRequest.send(cluster.bed().address(node),
                    NamespaceCluster.CLIENT_PORT, ApiKeys.METADATA, (short) 12, request, 5_000);
            return response.data().topics().find(topic).errorCode() == Errors.NONE.code();
        } catch (SocketTimeoutException noAnswer) {
            return false;
        }
    }

    /** How many of 3 UDP datagrams sent from {@code from}'s namespace reach {@code to}'s kernel. */
    private static long datagramsArriving(int from, int to) throws Exception {
        long before = udpReceived(to);
        for (int i = 0; i < 3; i++) {
            // bash's /dev/udp: no tool needed; a blackholed destination makes the write fail, which is the point
            HostCommand.succeeds("ip", "netns", "exec", cluster.bed().namespace(from), "bash", "-c",
                    "echo probe > /dev/udp/" + cluster.bed().address(to) + "/" + DISCARD_PORT);
        }
        Thread.sleep(200);
        return udpReceived(to) - before;
    }

    /** Udp InDatagrams + NoPorts of node {@code node}'s namespace: every datagram its kernel has received. */
    private static long udpReceived(int node) throws Exception {
        String snmp = HostCommand.run("ip", "netns", "exec", cluster.bed().namespace(node), "cat", "/proc/net/snmp");
        List<String> udp = snmp.lines().filter(line -> line.startsWith("Udp:")).toList();
        List<String> names = List.of(udp.get(0).split("\\s+"));
        String[] values = udp.get(1).split("\\s+");
        return Long.parseLong(values[names.indexOf("InDatagrams")]) + Long.parseLong(values[names.indexOf("NoPorts")]);
    }

    private static String processState(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        return stat.substring(stat.lastIndexOf(')') + 2).split(" ")[0];
    }

    /** Whether node {@code node}, asked alone, answers a DescribeCluster within 5 s. */
    private static boolean answersAlone(int node) throws InterruptedException {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                clientAddress(node),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 4_000))) {
            admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
            return true;
        } catch (ExecutionException | java.util.concurrent.TimeoutException noAnswer) {
            return false;
        }
    }

    private static Set<Integer> registeredBrokers() throws Exception {
        try (Admin admin = admin()) {
            Set<Integer> ids = new HashSet<>();
            for (Node node : admin.describeCluster().nodes().get(10, TimeUnit.SECONDS)) {
                ids.add(node.id());
            }
            return ids;
        }
    }

    private static List<Node> isr(String topic) throws Exception {
        try (Admin admin = admin()) {
            return admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic)
                    .partitions().get(0).isr();
        }
    }

    private interface Probe {
        int value() throws Exception;
    }

    /** Polls {@code probe} until {@code done} accepts its value (60 s at most: elections, sessions of 9 s). */
    private static int await(String what, Probe probe, IntPredicate done) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        int value = probe.value();
        while (!done.test(value)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no " + what + " in 60 s; last answer " + value);
            }
            Thread.sleep(500);
            value = probe.value();
        }
        return value;
    }

    /**
     * Asks each node of {@code side} alone which node leads the quorum until one names a node of {@code side}: asking
     * any node (the bootstrap list) would often reach the isolated one. On failure, says what every node saw.
     */
    private static int awaitQuorumLeaderAmong(Set<Integer> side) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            for (int node : side) {
                int leader = ClusterProbe.quorumLeaderAsSeenBy(clientAddress(node));
                if (side.contains(leader)) {
                    return leader;
                }
            }
            if (System.nanoTime() > deadline) {
                StringJoiner seen = new StringJoiner(", ");
                for (int node : cluster.nodes()) {
                    seen.add("node " + node + " names " + ClusterProbe.quorumLeaderAsSeenBy(clientAddress(node)));
                }
                throw new AssertionError("no quorum leader among " + side + " in 60 s: " + seen + "; node logs in "
                        + cluster.nodeLogs() + " (seed " + SEED + ")");
            }
            Thread.sleep(500);
        }
    }

    private static String clientAddress(int node) {
        return cluster.bed().address(node) + ":" + NamespaceCluster.CLIENT_PORT;
    }

    private static void awaitEveryBrokerUnfenced(Admin admin) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size() < 3) {
            assertThat(System.nanoTime()).as("every broker unfenced").isLessThan(deadline);
            Thread.sleep(200);
        }
    }

    /**
     * Creates the topic once every broker is unfenced again: an earlier test's pause or restart may have cost one
     * its session (a broker whose heartbeat connection closed, say after a pause, is fenced until its next
     * heartbeat), and a replication factor of 3 needs all three.
     */
    private static void createTopic(String topic, int partitions, short replicas) throws Exception {
        createTopic(new NewTopic(topic, partitions, replicas));
    }

    /** One partition on {@code replicas}, the first its preferred leader. */
    private static void createTopic(String topic, List<Integer> replicas) throws Exception {
        createTopic(new NewTopic(topic, Map.of(0, replicas)));
    }

    private static void createTopic(NewTopic topic) throws Exception {
        try (Admin admin = admin()) {
            awaitEveryBrokerUnfenced(admin);
            admin.createTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        }
    }

    private static void produce(String topic, int count, String prefix) throws Exception {
        try (KafkaProducer<String, String> producer = producer(Integer.MAX_VALUE)) {
            List<Future<?>> sends = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                sends.add(producer.send(new ProducerRecord<>(topic, 0, null, prefix + i)));
            }
            for (Future<?> send : sends) {
                send.get(90, TimeUnit.SECONDS);
            }
        }
    }

    private static KafkaProducer<String, String> producer(int retries) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap(),
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, retries > 0,
                ProducerConfig.RETRIES_CONFIG, retries, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 80_000,
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 1 << 20),
                new StringSerializer(), new StringSerializer());
    }

    private static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000));
    }

    /** A client of the nodes at {@code bootstrap} only, whose calls give up within 10 s. */
    private static Admin admin(String bootstrap) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000, AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000));
    }
}

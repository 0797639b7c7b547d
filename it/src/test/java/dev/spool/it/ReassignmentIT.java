package dev.spool.it;

import static dev.spool.it.MetadataQuorumTool.awaitTrue;
import static dev.spool.it.ReplicatedTopics.admin;
import static dev.spool.it.ReplicatedTopics.ids;
import static dev.spool.it.ReplicatedTopics.partition;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.it.reliability.LogAudit;
import dev.spool.it.reliability.NumberedProducer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.PartitionReassignment;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Partition reassignment (KIP-455) on real processes through Kafka's {@code kafka-reassign-partitions}: replicas
 * move to a fourth broker with their data, the moved-away replica's log is deleted, and a reassignment that cannot
 * finish is listed and cancelled; partitions move under an idempotent producer's load with nothing lost or duplicated.
 */
class ReassignmentIT {

    private static final String TOOL = "org.apache.kafka.tools.reassign.ReassignPartitionsCommand";
    private static final String TOPIC = "moved";

    @TempDir
    Path work;

    @Test
    void kafkaReassignPartitionsMovesReplicasWithTheirDataAndDeletesTheOldOnes() throws Exception {
        try (SpoolCluster cluster = SpoolCluster.start(3, 1, "auto.leader.rebalance.enable=false");
             Admin admin = admin(cluster.bootstrap())) {
            createTwoPartitionsOnBrokersOneToThree(admin);
            List<String> before = ReplicatedTopics.produce(cluster.bootstrap(), TOPIC, "before", 2_000, 100);

            ExternalCommand.Result generated = KafkaTool.run(TOOL, "--bootstrap-server", cluster.bootstrap(),
                    "--generate", "--topics-to-move-json-file", write("topics.json",
                            "{\"version\":1,\"topics\":[{\"topic\":\"" + TOPIC + "\"}]}"), "--broker-list", "2,3,4");
            assertThat(generated.exitCode()).as(generated.output()).isZero();
            assertThat(generated.output()).contains("Current partition replica assignment",
                    "Proposed partition reassignment configuration");

            String plan = write("plan.json", "{\"version\":1,\"partitions\":["
                    + "{\"topic\":\"" + TOPIC + "\",\"partition\":0,\"replicas\":[4,2,3]},"
                    + "{\"topic\":\"" + TOPIC + "\",\"partition\":1,\"replicas\":[2,3,4]}]}");
            ExternalCommand.Result executed = KafkaTool.run(TOOL, "--bootstrap-server", cluster.bootstrap(),
                    "--execute", "--reassignment-json-file", plan);
            assertThat(executed.exitCode()).as(executed.output()).isZero();
            assertThat(executed.output()).contains("Successfully started partition reassignments");

            awaitTrue(() -> {
                ExternalCommand.Result verified = KafkaTool.run(TOOL, "--bootstrap-server", cluster.bootstrap(),
                        "--verify", "--reassignment-json-file", plan);
                return verified.output().contains("Reassignment of partition " + TOPIC + "-0 is completed")
                        && verified.output().contains("Reassignment of partition " + TOPIC + "-1 is completed");
            }, "kafka-reassign-partitions --verify to say both are completed");
            assertThat(ids(partition(admin, TOPIC, 0).replicas())).containsExactly(4, 2, 3);
            assertThat(ids(partition(admin, TOPIC, 1).replicas())).containsExactly(2, 3, 4);
            assertThat(ids(partition(admin, TOPIC, 0).isr())).containsExactlyInAnyOrder(2, 3, 4);
            assertThat(partition(admin, TOPIC, 0).leader().id()).as("broker 1 gave the leadership up").isNotEqualTo(1);
            assertThat(admin.listPartitionReassignments().reassignments().get(30, TimeUnit.SECONDS)).isEmpty();

            Path moved = cluster.dataDir(1).resolve(TOPIC + "-0");
            awaitTrue(() -> !Files.exists(moved), "broker 1's replica of " + TOPIC + "-0 deleted");
            awaitTrue(() -> ReplicatedTopics.batches(cluster.dataDir(4).resolve(TOPIC + "-0"))
                    .equals(ReplicatedTopics.batches(cluster.dataDir(2).resolve(TOPIC + "-0"))),
                    "broker 4's replica holding the same batches as broker 2's");

            List<String> after = ReplicatedTopics.produce(cluster.bootstrap(), TOPIC, "after", 100);
            assertThat(ReplicatedTopics.readAll(cluster.bootstrap(), TOPIC, before.size() + after.size()))
                    .as("every acknowledged record, once").hasSize(before.size() + after.size())
                    .containsAll(before).containsAll(after);
        }
    }

    /**
     * Issue 19: both partitions move, each off its leader's broker, while an idempotent acks=all producer writes
     * without pause; the leaderships move with them. Every acknowledged record is then in the log once, per key in
     * order ({@link LogAudit}), and nothing else is (no send failed, so the log holds exactly what was acknowledged).
     */
    @Test
    void kafkaReassignPartitionsMovesLeadersUnderLoadWithNothingLostOrDuplicated() throws Exception {
        try (SpoolCluster cluster = SpoolCluster.start(3, 1, "auto.leader.rebalance.enable=false");
             Admin admin = admin(cluster.bootstrap())) {
            createTwoPartitionsOnBrokersOneToThree(admin);
            NumberedProducer producer = new NumberedProducer(cluster.bootstrap(), TOPIC, 4, 1_000);
            try {
                // Enough written that the new replicas have a log to copy while the writes go on.
                assertThat(producer.awaitProgress(5_000, Duration.ofSeconds(60))).as(producer.status()).isTrue();
                String plan = write("plan.json", "{\"version\":1,\"partitions\":["
                        + "{\"topic\":\"" + TOPIC + "\",\"partition\":0,\"replicas\":[4,2,3]},"
                        + "{\"topic\":\"" + TOPIC + "\",\"partition\":1,\"replicas\":[4,3,1]}]}");
                ExternalCommand.Result executed = KafkaTool.run(TOOL, "--bootstrap-server", cluster.bootstrap(),
                        "--execute", "--reassignment-json-file", plan);
                assertThat(executed.exitCode()).as(executed.output()).isZero();
                long acknowledgedAtStart = producer.ackedCount();
                awaitTrue(() -> {
                    ExternalCommand.Result verified = KafkaTool.run(TOOL, "--bootstrap-server", cluster.bootstrap(),
                            "--verify", "--reassignment-json-file", plan);
                    return verified.output().contains("Reassignment of partition " + TOPIC + "-0 is completed")
                            && verified.output().contains("Reassignment of partition " + TOPIC + "-1 is completed");
                }, "kafka-reassign-partitions --verify to say both are completed");
                assertThat(producer.ackedCount()).as("records acknowledged while the partitions moved")
                        .isGreaterThan(acknowledgedAtStart);
                assertThat(ids(partition(admin, TOPIC, 0).replicas())).containsExactly(4, 2, 3);
                assertThat(ids(partition(admin, TOPIC, 1).replicas())).containsExactly(4, 3, 1);
                assertThat(partition(admin, TOPIC, 0).leader().id()).as("broker 1 gave partition 0 up").isNotEqualTo(1);
                assertThat(partition(admin, TOPIC, 1).leader().id()).as("broker 2 gave partition 1 up").isNotEqualTo(2);
                assertThat(producer.awaitProgress(2_000, Duration.ofSeconds(60)))
                        .as("the producer goes on on the moved partitions: %s", producer.status()).isTrue();
            } finally {
                producer.close();
            }
            assertThat(producer.failedCount()).as(producer.status()).isZero();
            LogAudit.Result audit = LogAudit.check(cluster.bootstrap(), TOPIC, 2, producer.acked());
            assertThat(audit.problems()).as("every acknowledged record once, per key in order").isEmpty();
            assertThat(audit.records()).as("the log holds what was acknowledged, nothing more")
                    .isEqualTo(producer.ackedCount());
            for (int partition = 0; partition < 2; partition++) {
                String directory = TOPIC + "-" + partition;
                awaitTrue(() -> ReplicatedTopics.batches(cluster.dataDir(4).resolve(directory))
                        .equals(ReplicatedTopics.batches(cluster.dataDir(3).resolve(directory))),
                        "broker 4's replica of " + directory + " holding the same batches as broker 3's");
            }
        }
    }

    @Test
    void aReassignmentThatCannotFinishIsListedAndCancelled() throws Exception {
        try (SpoolCluster cluster = SpoolCluster.start(3, 1, "auto.leader.rebalance.enable=false",
                "broker.session.timeout.ms=3000", "broker.heartbeat.interval.ms=500");
             Admin admin = admin(cluster.bootstrap())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(1, 2, 3)))))
                    .all().get(30, TimeUnit.SECONDS);
            ReplicatedTopics.produce(cluster.bootstrap(), TOPIC, "before", 100);
            cluster.kill(4);
            TopicPartition partition = new TopicPartition(TOPIC, 0);
            admin.alterPartitionReassignments(Map.of(partition,
                    Optional.of(new NewPartitionReassignment(List.of(1, 2, 4))))).all().get(30, TimeUnit.SECONDS);

            Map<TopicPartition, PartitionReassignment> ongoing =
                    admin.listPartitionReassignments().reassignments().get(30, TimeUnit.SECONDS);
            assertThat(ongoing).containsOnlyKeys(partition);
            assertThat(ongoing.get(partition).replicas()).containsExactly(1, 2, 4, 3);
            assertThat(ongoing.get(partition).addingReplicas()).containsExactly(4);
            assertThat(ongoing.get(partition).removingReplicas()).containsExactly(3);
            ExternalCommand.Result listed = KafkaTool.run(TOOL, "--bootstrap-server", cluster.bootstrap(), "--list");
            assertThat(listed.output()).as(listed.output()).contains(TOPIC + "-0");

            String plan = write("plan.json", "{\"version\":1,\"partitions\":[{\"topic\":\"" + TOPIC
                    + "\",\"partition\":0,\"replicas\":[1,2,4]}]}");
            // Without --preserve-throttles the tool clears each broker's throttle at that broker, and broker 4 is down.
            ExternalCommand.Result cancelled = KafkaTool.run(TOOL, "--bootstrap-server", cluster.bootstrap(),
                    "--cancel", "--reassignment-json-file", plan, "--preserve-throttles");
            assertThat(cancelled.exitCode()).as(cancelled.output()).isZero();
            assertThat(cancelled.output()).contains("Successfully cancelled partition reassignment for: " + TOPIC
                    + "-0");
            assertThat(admin.listPartitionReassignments().reassignments().get(30, TimeUnit.SECONDS)).isEmpty();
            assertThat(ids(partition(admin, TOPIC, 0).replicas())).containsExactly(1, 2, 3);
            assertThat(ids(partition(admin, TOPIC, 0).isr())).containsExactlyInAnyOrder(1, 2, 3);
        }
    }

    /**
     * {@code --throttle} sets the leader's and the follower's replication throttles; the new replica then catches up
     * at that rate once past the first ten seconds' worth, which Kafka's measure lets through at once (400 KB at
     * 20 KB/s: about 10 s; unthrottled, well under a second); {@code --verify} clears them once completed.
     */
    @Test
    void aThrottledReassignmentCatchesUpAtTheThrottleAndVerifyClearsIt() throws Exception {
        try (SpoolCluster cluster = SpoolCluster.start(3, 1, "auto.leader.rebalance.enable=false",
                "replica.fetch.max.bytes=16384");
             Admin admin = admin(cluster.bootstrap())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(1, 2, 3)))))
                    .all().get(30, TimeUnit.SECONDS);
            List<String> before = ReplicatedTopics.produce(cluster.bootstrap(), TOPIC, "before", 4_000, 100);
            String plan = write("plan.json", "{\"version\":1,\"partitions\":[{\"topic\":\"" + TOPIC
                    + "\",\"partition\":0,\"replicas\":[4,2,3]}]}");

            long startedNs = System.nanoTime();
            ExternalCommand.Result executed = KafkaTool.run(TOOL, "--bootstrap-server", cluster.bootstrap(),
                    "--execute", "--reassignment-json-file", plan, "--throttle", "20000");
            assertThat(executed.exitCode()).as(executed.output()).isZero();
            assertThat(executed.output()).contains("The inter-broker throttle limit was set to 20000 B/s");
            Map<String, String> topicConfigs = configs(admin, new ConfigResource(ConfigResource.Type.TOPIC, TOPIC));
            assertThat(topicConfigs.get("follower.replication.throttled.replicas")).isEqualTo("0:4");
            assertThat(configs(admin, new ConfigResource(ConfigResource.Type.BROKER, "4"))
                    .get("follower.replication.throttled.rate")).isEqualTo("20000");

            awaitTrue(() -> !partition(admin, TOPIC, 0).replicas().stream().anyMatch(node -> node.id() == 1),
                    "the reassignment completed");
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNs);
            assertThat(tookMs).as("catching up 400 KB at 20 KB/s, past the first 200 KB").isGreaterThan(5_000);

            ExternalCommand.Result verified = KafkaTool.run(TOOL, "--bootstrap-server", cluster.bootstrap(),
                    "--verify", "--reassignment-json-file", plan);
            assertThat(verified.output()).as(verified.output())
                    .contains("Reassignment of partition " + TOPIC + "-0 is completed", "Clearing broker-level throttles",
                            "Clearing topic-level throttles");
            assertThat(configs(admin, new ConfigResource(ConfigResource.Type.TOPIC, TOPIC)))
                    .doesNotContainKey("follower.replication.throttled.replicas")
                    .doesNotContainKey("leader.replication.throttled.replicas");
            assertThat(configs(admin, new ConfigResource(ConfigResource.Type.BROKER, "4")))
                    .doesNotContainKey("follower.replication.throttled.rate");
            assertThat(ReplicatedTopics.readAll(cluster.bootstrap(), TOPIC, before.size()))
                    .hasSize(before.size()).containsAll(before);
        }
    }

    /** The topic, its partitions on brokers [1, 2, 3] and [2, 3, 1], min ISR 2, once every replica is in sync. */
    private static void createTwoPartitionsOnBrokersOneToThree(Admin admin) throws Exception {
        admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(1, 2, 3), 1, List.of(2, 3, 1)))
                .configs(Map.of("min.insync.replicas", "2")))).all().get(30, TimeUnit.SECONDS);
        awaitTrue(() -> ids(partition(admin, TOPIC, 0).isr()).size() == 3
                && ids(partition(admin, TOPIC, 1).isr()).size() == 3, "all replicas in sync");
    }

    /** The configs of {@code resource} set on it (not defaults). */
    private static Map<String, String> configs(Admin admin, ConfigResource resource) throws Exception {
        Map<String, String> set = new TreeMap<>();
        for (ConfigEntry entry : admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS)
                .get(resource).entries()) {
            if (entry.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG
                    || entry.source() == ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG) {
                set.put(entry.name(), entry.value());
            }
        }
        return set;
    }

    private String write(String name, String json) throws Exception {
        Path file = work.resolve(name);
        Files.writeString(file, json, StandardCharsets.UTF_8);
        return file.toString();
    }
}

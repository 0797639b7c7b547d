package dev.spool.it;

import static dev.spool.it.MetadataQuorumTool.awaitTrue;
import static dev.spool.it.ReplicatedTopics.admin;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Node;
import org.junit.jupiter.api.Test;

/**
 * Exactly once on a cluster of three under failure (issue 21): the consume-transform-produce loop of
 * {@link ExactlyOnceLoop} (Kafka 4's Java client, so transactions v2) on topics of 3 replicas with min ISR 2, while
 * the broker that coordinates its transactional id and the leader of an output partition are SIGKILLed in turn
 * ({@code -Dexactlyonce.clusterKills=N}, 4 by default; 1,000 input records per kill, so the loop outlasts them), each
 * restarted once another broker has taken its place. At the end a read_committed reader finds each input's result
 * exactly once. {@code -Dexactlyonce.seed=S} reproduces the kill moments.
 */
class ClusterExactlyOnceKillIT {

    private static final String INPUT = "eos-cluster-input";
    private static final String OUTPUT = "eos-cluster-output";
    private static final String NAME = "eos-cluster";
    private static final int PARTITIONS = 2;
    private static final int RECORDS_PER_KILL = 1_000;

    @Test
    void eachInputIsTransformedExactlyOnceWhileTheCoordinatorAndAPartitionLeaderAreKilled() throws Exception {
        int kills = Integer.getInteger("exactlyonce.clusterKills", 4);
        int records = RECORDS_PER_KILL * kills;
        long seed = Long.getLong("exactlyonce.seed", System.nanoTime());
        Random random = new Random(seed);
        try (SpoolCluster cluster = SpoolCluster.start(3, "broker.session.timeout.ms=3000",
                "broker.heartbeat.interval.ms=500", "group.initial.rebalance.delay.ms=0",
                "offsets.topic.num.partitions=3", "transaction.state.log.num.partitions=3")) {
            try (Admin admin = admin(cluster.bootstrap())) {
                ReplicatedTopics.create(admin, INPUT, PARTITIONS, 2);
                ReplicatedTopics.create(admin, OUTPUT, PARTITIONS, 2);
            }
            ExactlyOnceLoop.writeInput(cluster.bootstrap(), INPUT, records);
            ExactlyOnceLoop transformer = new ExactlyOnceLoop(cluster::bootstrap, INPUT, OUTPUT, PARTITIONS, records,
                    NAME);
            Thread loop = new Thread(transformer, "eos-cluster-transformer");
            loop.start();
            StringBuilder killed = new StringBuilder();
            try {
                for (int kill = 1; kill <= kills; kill++) {
                    ExactlyOnceKillIT.awaitACommit(transformer, "kill " + kill + " (seed " + seed + ")");
                    Thread.sleep(100 + random.nextInt(700));
                    Victim victim = kill % 2 == 1 ? Victim.COORDINATOR : Victim.LEADER;
                    int partition = kill / 2 % PARTITIONS;
                    int node = victim.of(cluster, partition);
                    assertThat(node).as("a broker to kill (seed %d)", seed).isPositive();
                    cluster.kill(node);
                    killed.append(' ').append(victim.name().toLowerCase()).append(' ').append(node);
                    awaitTrue(() -> victim.of(cluster, partition) != node, "another broker in the place of " + node);
                    cluster.restart(node);
                }
                loop.join(TimeUnit.SECONDS.toMillis(120));
                assertThat(loop.isAlive()).as("the loop copied everything within 120 s of the last restart (seed %d)",
                        seed).isFalse();
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "; killed" + killed + "; " + transformer.committedTransactions
                        + " committed, " + transformer.restarts + " loop restarts; node logs in "
                        + saveNodeLogs(cluster), e);
            } finally {
                transformer.running.set(false);
                loop.join(TimeUnit.SECONDS.toMillis(30));
            }
            List<String> output = ExactlyOnceLoop.readCommitted(cluster.bootstrap(), OUTPUT, PARTITIONS, records);
            assertThat(output).as("nothing written twice (seed %d)", seed).doesNotHaveDuplicates();
            assertThat(output).as("every input's result (seed %d)", seed)
                    .containsExactlyInAnyOrderElementsOf(ExactlyOnceLoop.expectedOutput(records));
            System.out.printf("ClusterExactlyOnceKillIT: killed%s (seed %d): %d results exactly once in %d committed "
                    + "transactions (%d aborted on purpose), %d loop restarts%n", killed, seed, output.size(),
                    transformer.committedTransactions.get(), transformer.abortedTransactions.get(),
                    transformer.restarts.get());
        }
    }

    /** Each node's output, for a failure's reader: under {@code it/target}. */
    private static Path saveNodeLogs(SpoolCluster cluster) throws IOException {
        Path dir = Files.createDirectories(Path.of("target", "cluster-eos-logs"));
        for (int nodeId = 1; nodeId <= cluster.size(); nodeId++) {
            Files.write(dir.resolve("node-" + nodeId + ".log"), cluster.node(nodeId).output());
        }
        return dir.toAbsolutePath();
    }

    /** Whom a kill takes, asked with a new admin client each time: a restarted broker listens on a new port. */
    private enum Victim {
        COORDINATOR, LEADER;

        int of(SpoolCluster cluster, int partition) throws Exception {
            try (Admin admin = admin(cluster.bootstrap())) {
                if (this == COORDINATOR) {
                    return ReplicatedTopics.transactionCoordinatorOf(admin, NAME);
                }
                Node leader = ReplicatedTopics.partition(admin, OUTPUT, partition).leader();
                return leader == null ? -1 : leader.id();
            }
        }
    }
}

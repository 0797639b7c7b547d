package dev.spool.it;

import static dev.spool.it.MetadataQuorumTool.awaitTrue;
import static dev.spool.it.ReplicatedTopics.admin;
import static dev.spool.it.ReplicatedTopics.describe;
import static dev.spool.it.ReplicatedTopics.ids;
import static dev.spool.it.ReplicatedTopics.partition;
import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Test;

/**
 * Preferred leader elections on real processes: after the preferred replica of a partition (the first of its
 * replicas) was killed and came back, Kafka's {@code kafka-leader-election} gives it its leadership back, and so does
 * the active controller on its own with {@code auto.leader.rebalance.enable}.
 */
class LeaderElectionIT {

    private static final String TOPIC = "elected";
    private static final String TOOL = "org.apache.kafka.tools.LeaderElectionCommand";

    @Test
    void kafkaLeaderElectionGivesThePreferredReplicaItsLeadershipBack() throws Exception {
        try (SpoolCluster cluster = SpoolCluster.start(3, "broker.session.timeout.ms=3000",
                "broker.heartbeat.interval.ms=500", "auto.leader.rebalance.enable=false");
             Admin admin = admin(cluster.bootstrap())) {
            ReplicatedTopics.create(admin, TOPIC, 3, 2);
            int preferred = movedAwayFromItsPreferredReplica(cluster, admin);

            ExternalCommand.Result elected = KafkaTool.run(TOOL, "--bootstrap-server", cluster.bootstrap(),
                    "--election-type", "PREFERRED", "--all-topic-partitions");
            assertThat(elected.output()).contains("Successfully completed leader election (PREFERRED)")
                    .contains(TOPIC + "-0");
            for (TopicPartitionInfo partition : describe(admin, TOPIC).partitions()) {
                assertThat(partition.leader().id()).as("partition %d led by its preferred replica",
                        partition.partition()).isEqualTo(partition.replicas().get(0).id());
            }
            assertThat(partition(admin, TOPIC, 0).leader().id()).isEqualTo(preferred);

            ExternalCommand.Result again = KafkaTool.run(TOOL, "--bootstrap-server", cluster.bootstrap(),
                    "--election-type", "PREFERRED", "--topic", TOPIC, "--partition", "0");
            assertThat(again.output()).contains("Valid replica already elected for partitions " + TOPIC + "-0");
            ExternalCommand.Result unclean = KafkaTool.run(TOOL, "--bootstrap-server", cluster.bootstrap(),
                    "--election-type", "UNCLEAN", "--topic", TOPIC, "--partition", "0");
            assertThat(unclean.output()).as("a partition with a leader needs no unclean election")
                    .contains("Valid replica already elected for partitions " + TOPIC + "-0");
            ExternalCommand.Result unknown = KafkaTool.run(TOOL, "--bootstrap-server", cluster.bootstrap(),
                    "--election-type", "PREFERRED", "--topic", TOPIC, "--partition", "7");
            assertThat(unknown.output()).contains("UnknownTopicOrPartitionException");
        }
    }

    @Test
    void theActiveControllerGivesThePreferredReplicaItsLeadershipBackOnItsOwn() throws Exception {
        try (SpoolCluster cluster = SpoolCluster.start(3, "broker.session.timeout.ms=3000",
                "broker.heartbeat.interval.ms=500", "leader.imbalance.check.interval.seconds=2");
             Admin admin = admin(cluster.bootstrap())) {
            ReplicatedTopics.create(admin, TOPIC, 3, 2);
            int preferred = movedAwayFromItsPreferredReplica(cluster, admin);
            awaitTrue(() -> partition(admin, TOPIC, 0).leader().id() == preferred,
                    "partition 0 led by its preferred replica again");
        }
    }

    /**
     * Kills the preferred replica of partition 0, waits for another replica to lead, and restarts it; returns its id
     * once it is back in the ISR (not leading, unless the controller balances leaders).
     */
    private static int movedAwayFromItsPreferredReplica(SpoolCluster cluster, Admin admin) throws Exception {
        TopicPartitionInfo before = partition(admin, TOPIC, 0);
        int preferred = before.replicas().get(0).id();
        assertThat(before.leader().id()).as("a new partition is led by its preferred replica").isEqualTo(preferred);
        cluster.kill(preferred);
        awaitTrue(() -> {
            Node leader = partition(admin, TOPIC, 0).leader();
            return leader != null && leader.id() != preferred;
        }, "another replica leading partition 0");
        cluster.restart(preferred);
        awaitTrue(() -> ids(partition(admin, TOPIC, 0).isr()).contains(preferred),
                "the preferred replica back in the ISR");
        return preferred;
    }
}

package dev.spool.it;

import static dev.spool.it.MetadataQuorumTool.awaitTrue;
import static dev.spool.it.ReplicatedTopics.admin;
import static dev.spool.it.ReplicatedTopics.ids;
import static dev.spool.it.ReplicatedTopics.partition;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

/**
 * {@code unclean.leader.election.enable} on real processes: a topic on two broker-only nodes loses its follower and
 * then its leader, the last of its ISR; when the follower (out of sync) comes back it leads, as the topic allows,
 * with what it has, and takes writes again. Without the setting the partition stays without a leader, until the
 * setting is turned on: the controller's periodic check ({@code unclean.leader.election.interval.ms}) then elects.
 */
class UncleanElectionIT {

    private static final String TOPIC = "unclean";

    @Test
    void aReplicaOutOfTheIsrLeadsWhenTheTopicAllowsItAndNoInSyncReplicaIsLeft() throws Exception {
        try (SpoolCluster cluster = ReplicatedTopics.twoBrokersBehindAQuorum();
             Admin admin = admin(cluster.bootstrap())) {
            ReplicatedTopics.createOnBrokersFourAndFive(admin, TOPIC, Map.of("unclean.leader.election.enable", "true"));
            List<String> beforeAll = ReplicatedTopics.produce(cluster.bootstrap(), TOPIC, "both", 10);
            cluster.kill(5);
            awaitTrue(() -> ids(partition(admin, TOPIC, 0).isr()).equals(List.of(4)), "broker 5 out of the ISR");
            cluster.kill(4);
            awaitTrue(() -> {
                Node leader = partition(admin, TOPIC, 0).leader();
                return leader == null || leader.id() < 0;
            }, "no leader once the last in-sync replica is gone");

            cluster.restart(5);
            ReplicatedTopics.awaitLeader(admin, TOPIC, 5, "broker 5 leading, out of sync as it was");
            assertThat(ids(partition(admin, TOPIC, 0).isr())).containsExactly(5);
            List<String> after = ReplicatedTopics.produce(cluster.bootstrap(), TOPIC, "after", 10);
            assertThat(ReplicatedTopics.readAll(cluster.bootstrap(), TOPIC, 20))
                    .as("what broker 5 had, and what it took since").containsAll(beforeAll).containsAll(after);
        }
    }

    @Test
    void turningUncleanElectionsOnGivesAnAlreadyLeaderlessPartitionALeader() throws Exception {
        try (SpoolCluster cluster = ReplicatedTopics.twoBrokersBehindAQuorum();
             Admin admin = admin(cluster.bootstrap())) {
            ReplicatedTopics.createOnBrokersFourAndFive(admin, TOPIC, Map.of());
            cluster.kill(5);
            awaitTrue(() -> ids(partition(admin, TOPIC, 0).isr()).equals(List.of(4)), "broker 5 out of the ISR");
            cluster.kill(4);
            cluster.restart(5);
            // Several of the controller's 1 s unclean checks pass: the topic does not allow it yet.
            Thread.sleep(3_000);
            assertThat(partition(admin, TOPIC, 0).leader()).as("no leader while unclean elections are off")
                    .matches(leader -> leader == null || leader.id() < 0);

            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, TOPIC);
            admin.incrementalAlterConfigs(Map.of(topic, List.of(new AlterConfigOp(
                    new ConfigEntry("unclean.leader.election.enable", "true"), AlterConfigOp.OpType.SET))))
                    .all().get(30, TimeUnit.SECONDS);

            ReplicatedTopics.awaitLeader(admin, TOPIC, 5, "broker 5 leading once the topic allows it");
            assertThat(ids(partition(admin, TOPIC, 0).isr())).containsExactly(5);
        }
    }
}

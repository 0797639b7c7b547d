package dev.spool.it;

import static dev.spool.it.MetadataQuorumTool.awaitTrue;
import static dev.spool.it.ReplicatedTopics.admin;
import static dev.spool.it.ReplicatedTopics.ids;
import static dev.spool.it.ReplicatedTopics.partition;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;

/**
 * KIP-966's eligible leader replicas on real processes, as {@code kafka-topics --describe} shows them: a topic with
 * min.insync.replicas 2 on two broker-only nodes loses its follower (the ISR falls below min ISR, so the follower,
 * which holds every acknowledged record, becomes eligible) and then its leader. Unclean elections stay off. A
 * follower that was shut down cleanly leads when it returns, with every acknowledged record; one that was killed
 * may have lost what it had not flushed, so it is no longer eligible, and the partition waits for its last leader.
 */
class EligibleLeaderReplicasIT {

    private static final String TOPIC = "eligible";

    /** Waits until kafka-topics --describe prints {@code expected} of partition 0 (see {@link #described}). */
    private static void awaitDescribed(SpoolCluster cluster, List<String> expected, String what) throws Exception {
        TopicsDescribeTool.awaitDescribed(cluster.bootstrap(), TOPIC, Map.of(0, expected), what);
    }

    /** What kafka-topics --describe prints of partition 0: leader, replicas, ISR, ELR, last known ELR. */
    private static List<String> described(SpoolCluster cluster) throws Exception {
        return TopicsDescribeTool.described(cluster.bootstrap(), TOPIC).get(0);
    }

    @Test
    void aFollowerThatLeftTheIsrBelowMinIsrLeadsWhenTheLeaderIsGoneWithoutAnUncleanElection() throws Exception {
        try (SpoolCluster cluster = ReplicatedTopics.twoBrokersBehindAQuorum();
             Admin admin = admin(cluster.bootstrap())) {
            ReplicatedTopics.createOnBrokersFourAndFive(admin, TOPIC, Map.of("min.insync.replicas", "2"));
            List<String> acknowledged = ReplicatedTopics.produce(cluster.bootstrap(), TOPIC, "both", 20);
            assertThat(described(cluster)).containsExactly("4", "4,5", "4,5", "", "");

            cluster.node(5).stop(); // SIGTERM: a controlled shutdown, and a clean one
            awaitDescribed(cluster, List.of("4", "4,5", "4", "5", ""),
                    "broker 5 out of the ISR, below min ISR: eligible");
            cluster.kill(4);
            awaitDescribed(cluster, List.of("none", "4,5", "", "4,5", "4"),
                    "no leader, an empty ISR, both eligible, broker 4 the last leader");

            cluster.restart(5);
            ReplicatedTopics.awaitLeader(admin, TOPIC, 5, "broker 5 leading, elected from the ELR");
            assertThat(described(cluster)).containsExactly("5", "4,5", "5", "4", "");
            assertThat(ReplicatedTopics.readAll(cluster.bootstrap(), TOPIC, acknowledged.size()))
                    .as("every acknowledged record").containsExactlyInAnyOrderElementsOf(acknowledged);

            cluster.restart(4); // killed: no longer eligible; it catches up as a follower
            awaitTrue(() -> ids(partition(admin, TOPIC, 0).isr()).size() == 2, "broker 4 back in sync");
            assertThat(described(cluster)).as("at min ISR, the ELR cleared").element(3).isEqualTo("");
            List<String> after = ReplicatedTopics.produce(cluster.bootstrap(), TOPIC, "after", 10);
            assertThat(ReplicatedTopics.readAll(cluster.bootstrap(), TOPIC, acknowledged.size() + after.size()))
                    .containsAll(acknowledged).containsAll(after);
        }
    }

    @Test
    void killedReplicasAreNoLongerEligibleAndThePartitionWaitsForItsLastLeader() throws Exception {
        try (SpoolCluster cluster = ReplicatedTopics.twoBrokersBehindAQuorum();
             Admin admin = admin(cluster.bootstrap())) {
            ReplicatedTopics.createOnBrokersFourAndFive(admin, TOPIC, Map.of("min.insync.replicas", "2"));
            List<String> acknowledged = ReplicatedTopics.produce(cluster.bootstrap(), TOPIC, "both", 20);
            cluster.kill(5);
            awaitDescribed(cluster, List.of("4", "4,5", "4", "5", ""), "broker 5 eligible");
            cluster.kill(4);
            awaitDescribed(cluster, List.of("none", "4,5", "", "4,5", "4"), "both eligible, no leader");

            cluster.restart(5);
            awaitDescribed(cluster, List.of("none", "4,5", "", "4", "4"),
                    "broker 5, killed, back but no longer eligible: still no leader");
            cluster.restart(4);
            ReplicatedTopics.awaitLeader(admin, TOPIC, 4, "broker 4, the last leader, leading again");
            assertThat(ReplicatedTopics.readAll(cluster.bootstrap(), TOPIC, acknowledged.size()))
                    .as("every acknowledged record").containsExactlyInAnyOrderElementsOf(acknowledged);
            awaitTrue(() -> ids(partition(admin, TOPIC, 0).isr()).size() == 2, "broker 5 back in sync");
        }
    }
}

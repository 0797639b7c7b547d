package dev.spool.it;

import static dev.spool.it.MetadataQuorumTool.awaitTrue;
import static dev.spool.it.ReplicatedTopics.admin;
import static dev.spool.it.ReplicatedTopics.batches;
import static dev.spool.it.ReplicatedTopics.ids;
import static dev.spool.it.ReplicatedTopics.offset;
import static dev.spool.it.ReplicatedTopics.partition;
import static dev.spool.it.ReplicatedTopics.produce;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DeleteRecordsOptions;
import org.apache.kafka.clients.admin.DeletedRecords;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Test;

/**
 * The log start offset on followers, with real processes: records the leader deleted go on its followers too (so a
 * new leader does not bring them back), and a follower that was away while the leader deleted past its log end
 * starts over at the leader's log start (the leader answers its fetch OFFSET_OUT_OF_RANGE) and rejoins the ISR.
 */
class FollowerLogStartIT {

    private static final String TOPIC = "trimmed";
    private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);
    /** Where the second test deletes up to: near the end of the 3,100 records, past what the paused follower has. */
    private static final long DELETED_BEFORE = 3_000;

    @Test
    void recordsDeletedOnTheLeaderStayDeletedUnderTheNextLeader() throws Exception {
        try (SpoolCluster cluster = SpoolCluster.start(3, "broker.session.timeout.ms=3000",
                "broker.heartbeat.interval.ms=500"); Admin admin = admin(cluster.bootstrap())) {
            ReplicatedTopics.create(admin, TOPIC, 1, 2);
            produce(cluster.bootstrap(), TOPIC, "before", 100);
            assertThat(deleteBefore(admin, 40)).isEqualTo(40);
            // Acknowledged by every in-sync replica: each had a fetch answered after the deletion.
            List<String> after = produce(cluster.bootstrap(), TOPIC, "after", 10);
            int leader = partition(admin, TOPIC, 0).leader().id();
            cluster.kill(leader);
            awaitTrue(() -> {
                Node now = partition(admin, TOPIC, 0).leader();
                return now != null && now.id() != leader;
            }, "another replica leading");
            assertThat(offset(admin, TOPIC, 0, OffsetSpec.earliest())).as("the new leader's log start").isEqualTo(40);
            List<String> read = ReplicatedTopics.readAll(cluster.bootstrap(), TOPIC, 70);
            assertThat(read).hasSize(70).startsWith("before-40").endsWith(after.get(after.size() - 1));
        }
    }

    @Test
    void aFollowerBehindTheLeadersLogStartStartsOverThereAndRejoinsTheIsr() throws Exception {
        // The session outlasts the pause: the follower is not fenced, the leader takes it out of the ISR itself.
        try (SpoolCluster cluster = SpoolCluster.start(3, "broker.session.timeout.ms=60000",
                "replica.lag.time.max.ms=3000"); Admin admin = admin(cluster.bootstrap())) {
            ReplicatedTopics.create(admin, TOPIC, 1, 2);
            produce(cluster.bootstrap(), TOPIC, "before", 100);
            TopicPartitionInfo before = partition(admin, TOPIC, 0);
            int leader = before.leader().id();
            int quorumLeader = MetadataQuorumTool.leaderOf(KafkaTool.run(MetadataQuorumTool.MAIN_CLASS,
                    "--bootstrap-server", cluster.bootstrap(), "describe", "--status").output());
            int away = before.replicas().stream().map(Node::id)
                    .filter(id -> id != leader && id != quorumLeader).findFirst().orElseThrow();
            // Clients started during the pause know the leader alone: one that picked the paused node for its metadata
            // would wait out its request timeout (30 s) there. The second admin client is connected before the pause:
            // the waiting DeleteRecords holds the first one's connection (as in Kafka).
            String leaderOnly = cluster.node(leader).bootstrap();
            Admin other = admin(leaderOnly);
            offset(other, TOPIC, 0, OffsetSpec.earliest());
            cluster.node(away).pause();
            KafkaFuture<DeletedRecords> deleted;
            try (other) {
                // Acknowledged once the leader took the paused follower out of the ISR. 3 MiB: the one fetch answer
                // that may wait in the paused follower's socket holds 1 MiB (replica.fetch.max.bytes) at most.
                produce(leaderOnly, TOPIC, "away", 3000, 1024);
                deleted = admin.deleteRecords(Map.of(PARTITION, RecordsToDelete.beforeOffset(DELETED_BEFORE)),
                        new DeleteRecordsOptions().timeoutMs(60_000)).lowWatermarks().get(PARTITION);
                awaitTrue(() -> offset(other, TOPIC, 0, OffsetSpec.earliest()) == DELETED_BEFORE,
                        "the leader's log start moved while the follower is away");
            } finally {
                cluster.node(away).resume();
            }
            // Answered, as Kafka answers, once the follower (still registered, so live) starts there too.
            assertThat(deleted.get(60, TimeUnit.SECONDS).lowWatermark()).isEqualTo(DELETED_BEFORE);
            awaitTrue(() -> ids(partition(admin, TOPIC, 0).isr()).contains(away),
                    "the follower back in the ISR, from the leader's log start");
            Map<Long, Integer> leaders = batches(partitionDir(cluster, leader));
            Map<Long, Integer> its = batches(partitionDir(cluster, away));
            long first = its.keySet().iterator().next();
            assertThat(first).as("its first batch: the one holding the leader's log start, none it had before")
                    .isGreaterThan(100L).isLessThanOrEqualTo(DELETED_BEFORE);
            assertThat(its).as("the leader's batches from there, the same CRCs")
                    .isEqualTo(new TreeMap<>(leaders).tailMap(first));
        }
    }

    private static long deleteBefore(Admin admin, long offset) throws Exception {
        return admin.deleteRecords(Map.of(PARTITION, RecordsToDelete.beforeOffset(offset))).lowWatermarks()
                .get(PARTITION).get(30, TimeUnit.SECONDS).lowWatermark();
    }

    private static Path partitionDir(SpoolCluster cluster, int nodeId) {
        return cluster.dataDir(nodeId).resolve(TOPIC + "-0");
    }
}

package dev.spool.it;

import static dev.spool.it.ReplicatedTopics.admin;
import static dev.spool.it.ReplicatedTopics.ids;
import static dev.spool.it.ReplicatedTopics.partition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DeleteRecordsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * DeleteRecords on a replicated partition answers, as Kafka's does, only once every live follower has deleted the
 * records too (the low watermark): a paused follower, still registered, holds the answer back until the request
 * times out; running again, it catches up and the deletion is answered with the low watermark.
 */
class ReplicatedDeleteRecordsIT {

    private static final String TOPIC = "deleted";

    @Test
    void deleteRecordsIsAnsweredOnceTheLiveFollowersDeletedToo() throws Exception {
        try (SpoolCluster cluster = SpoolCluster.start(3, 1, "auto.leader.rebalance.enable=false",
                "broker.session.timeout.ms=30000");
             Admin admin = admin(cluster.bootstrap())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(4, 1, 2)))))
                    .all().get(30, TimeUnit.SECONDS);
            MetadataQuorumTool.awaitTrue(() -> ids(partition(admin, TOPIC, 0).isr()).size() == 3, "all in sync");
            ReplicatedTopics.produce(cluster.bootstrap(), TOPIC, "r", 100);
            TopicPartition partition = new TopicPartition(TOPIC, 0);

            // A follower that is not the active controller: a new controller would fence a paused one as soon as
            // its Raft voter is silent (BrokerFencer), and it would no longer hold the deletion back.
            int quorumLeader = admin.describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS).leaderId();
            int follower = quorumLeader == 2 ? 1 : 2;
            cluster.node(follower).pause();
            try {
                // Within the 30 s session timeout the follower is still live: its replica must delete too. Tried
                // again until the leader has the request: the admin client may first ask the paused node for
                // metadata, and time out before the request is sent.
                MetadataQuorumTool.awaitTrue(() -> {
                    assertThatThrownBy(() -> admin.deleteRecords(Map.of(partition, RecordsToDelete.beforeOffset(40)),
                            new DeleteRecordsOptions().timeoutMs(3_000)).lowWatermarks().get(partition)
                            .get(30, TimeUnit.SECONDS))
                            .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TimeoutException.class);
                    return ReplicatedTopics.offset(admin, TOPIC, 0, OffsetSpec.earliest()) == 40;
                }, "the leader deleted meanwhile, the deletion not answered");
            } finally {
                cluster.node(follower).resume();
            }

            long lowWatermark = admin.deleteRecords(Map.of(partition, RecordsToDelete.beforeOffset(60)))
                    .lowWatermarks().get(partition).get(30, TimeUnit.SECONDS).lowWatermark();
            assertThat(lowWatermark).as("every replica's log starts at 60").isEqualTo(60);
        }
    }
}

package dev.spool.it;

import static dev.spool.it.MetadataQuorumTool.awaitTrue;
import static dev.spool.it.ReplicatedTopics.admin;
import static dev.spool.it.ReplicatedTopics.ids;
import static dev.spool.it.ReplicatedTopics.offset;
import static dev.spool.it.ReplicatedTopics.partition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * KIP-966's strict high watermark rule on real processes: while the ISR is smaller than min.insync.replicas, nothing
 * more is committed (not even acks=1 records, which the leader has), acks=all is refused before the append, and once
 * the ISR is whole again everything the leader has is committed and read.
 */
class StrictHighWatermarkIT {

    private static final String TOPIC = "strict";

    @Test
    void nothingIsCommittedWhileTheIsrIsBelowMinInsyncReplicas() throws Exception {
        // The session outlasts the pause: the follower is not fenced, the leader takes it out of the ISR itself.
        try (SpoolCluster cluster = SpoolCluster.start(3, "broker.session.timeout.ms=60000",
                "replica.lag.time.max.ms=3000"); Admin admin = admin(cluster.bootstrap())) {
            ReplicatedTopics.create(admin, TOPIC, 1, 3);
            List<String> written = new ArrayList<>(ReplicatedTopics.produce(cluster.bootstrap(), TOPIC, "before", 10));
            TopicPartitionInfo before = partition(admin, TOPIC, 0);
            // A follower that is not the active controller, so the ISR change need not wait out an election.
            int quorumLeader = MetadataQuorumTool.leaderOf(KafkaTool.run(MetadataQuorumTool.MAIN_CLASS,
                    "--bootstrap-server", cluster.bootstrap(), "describe", "--status").output());
            int lagging = before.replicas().stream().map(Node::id)
                    .filter(id -> id != before.leader().id() && id != quorumLeader).findFirst().orElseThrow();
            try (KafkaProducer<String, String> acksOne = producer(cluster.bootstrap(), "1");
                 KafkaProducer<String, String> acksAll = producer(cluster.bootstrap(), "all")) {
                // Their metadata first: a client asking the paused node would wait out its request timeout.
                acksOne.send(new ProducerRecord<>(TOPIC, "first", "first")).get(30, TimeUnit.SECONDS);
                acksAll.send(new ProducerRecord<>(TOPIC, "second", "second")).get(30, TimeUnit.SECONDS);
                written.addAll(List.of("first", "second"));
                long committed = written.size();
                awaitTrue(() -> offset(admin, TOPIC, 0, OffsetSpec.latest()) == committed,
                        "the first record committed, every replica in sync");
                cluster.node(lagging).pause();
                try {
                    awaitTrue(() -> !ids(partition(admin, TOPIC, 0).isr()).contains(lagging),
                            "the paused follower out of the ISR after replica.lag.time.max.ms");
                    long lastOffset = -1;
                    for (int i = 0; i < 50; i++) {
                        lastOffset = acksOne.send(new ProducerRecord<>(TOPIC, "key-" + i, "short-" + i))
                                .get(30, TimeUnit.SECONDS).offset();
                        written.add("short-" + i);
                    }
                    assertThat(lastOffset).as("the leader appended them").isEqualTo(written.size() - 1);
                    // The other follower has them too, but two of the three replicas commit nothing.
                    long until = System.currentTimeMillis() + 3_000;
                    while (System.currentTimeMillis() < until) {
                        assertThat(offset(admin, TOPIC, 0, OffsetSpec.latest()))
                                .as("the high watermark while the ISR is below min.insync.replicas")
                                .isEqualTo(committed);
                        Thread.sleep(200);
                    }
                    assertThatThrownBy(() -> acksAll.send(new ProducerRecord<>(TOPIC, "refused", "refused"))
                            .get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                            .hasCauseInstanceOf(NotEnoughReplicasException.class);
                } finally {
                    cluster.node(lagging).resume();
                }
            }
            awaitTrue(() -> ids(partition(admin, TOPIC, 0).isr()).contains(lagging),
                    "the follower back in the ISR once caught up");
            awaitTrue(() -> offset(admin, TOPIC, 0, OffsetSpec.latest()) == written.size(),
                    "everything the leader has committed once the ISR is whole");
            assertThat(ReplicatedTopics.readAll(cluster.bootstrap(), TOPIC, written.size()))
                    .containsExactlyElementsOf(written);
        }
    }

    /** No retries: a refusal reaches the test as it was answered. */
    private static KafkaProducer<String, String> producer(String bootstrap, String acks) {
        return new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap, "acks", acks, "enable.idempotence", "false",
                "retries", "0", "delivery.timeout.ms", "40000", "request.timeout.ms", "30000"),
                new StringSerializer(), new StringSerializer());
    }
}

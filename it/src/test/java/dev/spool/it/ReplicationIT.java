package dev.spool.it;

import static dev.spool.it.MetadataQuorumTool.awaitTrue;
import static dev.spool.it.ReplicatedTopics.admin;
import static dev.spool.it.ReplicatedTopics.describe;
import static dev.spool.it.ReplicatedTopics.ids;
import static dev.spool.it.ReplicatedTopics.produce;
import static dev.spool.it.ReplicatedTopics.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Partitions replicated between {@code bin/spool server} processes with Kafka's protocol: followers fetch from the
 * leader, the high watermark follows the in-sync replicas, acks=all is answered once every in-sync replica has the
 * batch, and when the leader is killed another replica leads with every acknowledged record.
 */
class ReplicationIT {

    private static final String TOPIC = "replicated";

    /** Three nodes (a short session: a killed one is fenced soon) with the topic on all three, min ISR 2. */
    private static SpoolCluster clusterWithTopic(int partitions) throws Exception {
        SpoolCluster cluster = SpoolCluster.start(3, "broker.session.timeout.ms=3000",
                "broker.heartbeat.interval.ms=500");
        try (Admin admin = admin(cluster.bootstrap())) {
            ReplicatedTopics.create(admin, TOPIC, partitions, 2);
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    @Test
    void acknowledgedRecordsSurviveTheLeadersLossAndReplicasHoldTheLeadersBytes() throws Exception {
        try (SpoolCluster cluster = clusterWithTopic(3)) {
            try (Admin admin = admin(cluster.bootstrap())) {
                TopicDescription described = describe(admin, TOPIC);
                for (TopicPartitionInfo partition : described.partitions()) {
                    assertThat(ids(partition.replicas())).hasSize(3);
                    assertThat(ids(partition.isr())).containsExactlyInAnyOrderElementsOf(ids(partition.replicas()));
                }
            }
            List<String> acknowledged = new ArrayList<>(produce(cluster.bootstrap(), TOPIC, "before", 3000));
            awaitTrue(() -> sameLogOnEveryReplica(cluster, 0), "the followers' segments byte-identical to the leader's");

            int leader;
            try (Admin admin = admin(cluster.bootstrap())) {
                leader = describe(admin, TOPIC).partitions().get(0).leader().id();
            }
            // The leader is killed while a producer writes: what it acknowledged must be on the new leader.
            Set<String> acknowledgedDuring = ConcurrentHashMap.newKeySet();
            AtomicBoolean producing = new AtomicBoolean(true);
            Thread writer = new Thread(() -> produceUntilStopped(cluster.bootstrap(), producing, acknowledgedDuring));
            writer.start();
            awaitTrue(() -> acknowledgedDuring.size() > 500, "records acknowledged before the kill");
            cluster.kill(leader);
            try (Admin admin = admin(cluster.bootstrap())) {
                awaitTrue(() -> {
                    Node now = describe(admin, TOPIC).partitions().get(0).leader();
                    return now != null && now.id() != leader;
                }, "another in-sync replica leading partition 0");
            }
            int atElection = acknowledgedDuring.size();
            awaitTrue(() -> acknowledgedDuring.size() > atElection + 500, "records acknowledged by the new leaders");
            producing.set(false);
            writer.join(120_000);
            acknowledged.addAll(acknowledgedDuring);
            acknowledged.addAll(produce(cluster.bootstrap(), TOPIC, "after", 1000));

            List<String> read = readAll(cluster.bootstrap(), TOPIC, acknowledged.size());
            assertThat(read).as("no record read twice").doesNotHaveDuplicates();
            assertThat(read).as("every acknowledged record").containsAll(acknowledged);

            cluster.restart(leader);
            awaitTrue(() -> sameLogOnEveryReplica(cluster, 0), "the restarted replica caught up, byte for byte");
        }
    }

    @Test
    void acksAllIsAnsweredOnlyOnceTheInSyncReplicasHaveTheRecords() throws Exception {
        try (SpoolCluster cluster = clusterWithTopic(1)) {
            List<String> acknowledged = new ArrayList<>(produce(cluster.bootstrap(), TOPIC, "before", 100));
            int leader;
            try (Admin admin = admin(cluster.bootstrap())) {
                leader = describe(admin, TOPIC).partitions().get(0).leader().id();
            }
            List<Integer> followers = new ArrayList<>(List.of(1, 2, 3));
            followers.remove(Integer.valueOf(leader));
            Set<String> acknowledgedWhilePaused = ConcurrentHashMap.newKeySet();
            Set<String> acknowledgedLater = ConcurrentHashMap.newKeySet();
            AtomicBoolean paused = new AtomicBoolean(true);
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                    cluster.node(leader).bootstrap(), "acks", "all", "enable.idempotence", "true",
                    "delivery.timeout.ms", "120000", "request.timeout.ms", "10000"), new StringSerializer(),
                    new StringSerializer())) {
                // Its producer id and metadata first: the active controller that hands out ids may be paused next.
                producer.send(new ProducerRecord<>(TOPIC, "first", "first")).get(30, TimeUnit.SECONDS);
                acknowledged.add("first");
                // Both followers paused: nothing written now reaches them, so nothing written now may be acknowledged.
                for (int follower : followers) {
                    cluster.node(follower).pause();
                }
                for (int i = 0; i < 200; i++) {
                    String value = "paused-" + i;
                    producer.send(new ProducerRecord<>(TOPIC, "key-" + i, value), (metadata, failure) -> {
                        if (failure == null) {
                            (paused.get() ? acknowledgedWhilePaused : acknowledgedLater).add(value);
                        }
                    });
                }
                try {
                    Thread.sleep(3_000);
                    paused.set(false);
                    assertThat(acknowledgedWhilePaused).as("acknowledged while no follower had them").isEmpty();
                    cluster.kill(leader);
                } finally {
                    for (int follower : followers) {
                        cluster.node(follower).resume();
                    }
                }
                producer.flush();
            }
            acknowledged.addAll(acknowledgedWhilePaused);
            acknowledged.addAll(acknowledgedLater);
            List<String> read = readAll(cluster.bootstrap(), TOPIC, acknowledged.size());
            assertThat(read).as("no record read twice").doesNotHaveDuplicates();
            assertThat(read).as("every acknowledged record, on the new leader").containsAll(acknowledged);

            // The old leader comes back as a follower of the new one and ends up with its bytes. (Whether its log
            // diverged depends on whether the paused followers' sockets had already received its records.)
            cluster.restart(leader);
            awaitTrue(() -> sameLogOnEveryReplica(cluster, 0), "the old leader caught up with the new one");
        }
    }

    @Test
    void aFollowerThatFallsBehindLeavesTheIsrAndRejoinsOnceCaughtUp() throws Exception {
        // The session outlasts the pause: the follower is not fenced, the leader takes it out of the ISR itself.
        try (SpoolCluster cluster = SpoolCluster.start(3, "broker.session.timeout.ms=60000",
                "replica.lag.time.max.ms=3000"); Admin admin = admin(cluster.bootstrap())) {
            ReplicatedTopics.create(admin, TOPIC, 1, 2);
            List<String> acknowledged = new ArrayList<>(produce(cluster.bootstrap(), TOPIC, "before", 100));
            TopicPartitionInfo before = describe(admin, TOPIC).partitions().get(0);
            // The active controller when it is a follower: the ISR change must then wait out its election.
            int quorumLeader = MetadataQuorumTool.leaderOf(KafkaTool.run(MetadataQuorumTool.MAIN_CLASS,
                    "--bootstrap-server", cluster.bootstrap(), "describe", "--status").output());
            int lagging = quorumLeader > 0 && quorumLeader != before.leader().id() ? quorumLeader
                    : before.replicas().stream().map(Node::id).filter(id -> id != before.leader().id())
                            .findFirst().orElseThrow();
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                    cluster.bootstrap(), "acks", "all", "enable.idempotence", "true", "delivery.timeout.ms",
                    "120000"), new StringSerializer(), new StringSerializer())) {
                // Its producer id first: the active controller that hands out ids may be the node paused next.
                producer.send(new ProducerRecord<>(TOPIC, "first", "first")).get(30, TimeUnit.SECONDS);
                acknowledged.add("first");
                // Paused: neither heartbeats nor fetches (a node of the quorum, which may have to elect anew).
                cluster.node(lagging).pause();
                try {
                    List<Future<RecordMetadata>> sent = new ArrayList<>();
                    for (int i = 0; i < 100; i++) {
                        sent.add(producer.send(new ProducerRecord<>(TOPIC, "key-" + i, "lagging-" + i)));
                    }
                    awaitTrue(() -> !ids(describe(admin, TOPIC).partitions().get(0).isr()).contains(lagging),
                            "the paused follower out of the ISR after replica.lag.time.max.ms");
                    for (int i = 0; i < 100; i++) {
                        sent.get(i).get(60, TimeUnit.SECONDS);
                        acknowledged.add("lagging-" + i);
                    }
                } finally {
                    cluster.node(lagging).resume();
                }
            }
            awaitTrue(() -> ids(describe(admin, TOPIC).partitions().get(0).isr()).contains(lagging),
                    "the follower back in the ISR once caught up");
            awaitTrue(() -> sameLogOnEveryReplica(cluster, 0), "its log the leader's");
            assertThat(readAll(cluster.bootstrap(), TOPIC, acknowledged.size())).containsExactlyInAnyOrderElementsOf(
                    acknowledged);
        }
    }

    /** Sends records (acks=all, idempotent) until {@code producing} is false, adding each acknowledged value. */
    private static void produceUntilStopped(String bootstrap, AtomicBoolean producing, Set<String> acknowledged) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap,
                "acks", "all", "enable.idempotence", "true", "delivery.timeout.ms", "60000", "linger.ms", "5",
                "max.in.flight.requests.per.connection", "5"), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; producing.get(); i++) {
                String value = "during-" + i;
                producer.send(new ProducerRecord<>(TOPIC, "key-" + i, value), (metadata, failure) -> {
                    if (failure == null) {
                        acknowledged.add(value);
                    }
                });
                if (i % 100 == 99) {
                    Thread.sleep(10); // a steady stream, not a backlog that outlives the test
                }
            }
            producer.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether partition {@code partition}'s segment is the same bytes on every node (once followers caught up). */
    private static boolean sameLogOnEveryReplica(SpoolCluster cluster, int partition) throws Exception {
        byte[] first = null;
        for (int nodeId = 1; nodeId <= cluster.size(); nodeId++) {
            Path segment = cluster.dataDir(nodeId).resolve(TOPIC + "-" + partition + "/00000000000000000000.log");
            byte[] bytes = Files.readAllBytes(segment);
            if (bytes.length == 0) {
                return false;
            }
            if (first == null) {
                first = bytes;
            } else if (!Arrays.equals(first, bytes)) {
                return false;
            }
        }
        return true;
    }
}

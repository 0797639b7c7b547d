package dev.spool.it;

import static dev.spool.it.MetadataQuorumTool.awaitTrue;
import static dev.spool.it.ReplicatedTopics.admin;
import static dev.spool.it.ReplicatedTopics.describe;
import static dev.spool.it.ReplicatedTopics.ids;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.it.reliability.CommittingConsumer;
import dev.spool.it.reliability.GroupReadAudit;
import dev.spool.it.reliability.LogAudit;
import dev.spool.it.reliability.NumberedProducer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.MetadataResponse;
import org.junit.jupiter.api.Test;

/**
 * Issue 19's failover loop on a three-node cluster: an idempotent acks=all producer ({@link NumberedProducer}) and a
 * group member committing after each poll ({@link CommittingConsumer}) run while, round after round, the node leading
 * partition 0 or the group's coordinator is stopped (SIGTERM, then SIGKILL), another replica takes over, and the node
 * comes back and rejoins every ISR. After each round the group's committed offsets, read from the coordinator now
 * serving it, are not behind the commits acknowledged before the stop. At the end: every acknowledged record is in the
 * log once and per key in order ({@link LogAudit}), and the group read each record of the log once, with the value
 * the log holds, re-reading only from its last acknowledged commit ({@link GroupReadAudit}).
 * {@code -Dleaderfailover.rounds=N} runs more rounds (4 by default: each kind of stop of each kind of node).
 */
class LeaderFailoverLoopIT {

    private static final String TOPIC = "ledger";
    private static final String GROUP = "ledger-readers";
    private static final int PARTITIONS = 3;
    private static final int NODES = 3;

    /** What a round stops, and how. */
    private record Round(boolean coordinator, boolean sigkill) {

        /** Rounds 1, 2: partition 0's leader; 3, 4: the group's coordinator; then again. Odd rounds SIGTERM. */
        static Round number(int round) {
            return new Round((round - 1) / 2 % 2 == 1, round % 2 == 0);
        }

        @Override
        public String toString() {
            return (sigkill ? "SIGKILL" : "SIGTERM") + " of " + (coordinator ? "the group's coordinator"
                    : "partition 0's leader");
        }
    }

    @Test
    void theGroupReadsEveryAcknowledgedRecordOnceWhileLeadersAndCoordinatorsAreStoppedAndKilled() throws Exception {
        int rounds = Integer.getInteger("leaderfailover.rounds", 4);
        long startedNs = System.nanoTime();
        try (SpoolCluster cluster = SpoolCluster.start(NODES, "broker.session.timeout.ms=3000",
                "broker.heartbeat.interval.ms=500", "group.initial.rebalance.delay.ms=0")) {
            try (Admin admin = admin(cluster.bootstrap())) {
                ReplicatedTopics.create(admin, TOPIC, PARTITIONS, 2);
            }
            ReplicatedTopics.awaitEveryReplicaInSync(cluster, TOPIC);
            NumberedProducer producer = new NumberedProducer(cluster.bootstrap(), TOPIC, 6, 1_000);
            CommittingConsumer consumer = new CommittingConsumer(cluster.bootstrap(), TOPIC, GROUP);
            try {
                assertThat(producer.awaitProgress(500, Duration.ofSeconds(60))).as("the producer gets going").isTrue();
                awaitTrue(() -> !consumer.history().acknowledgedCommits().isEmpty(), "the group's first commits");
                ReplicatedTopics.awaitEveryReplicaInSync(cluster, "__consumer_offsets");
                for (int round = 1; round <= rounds; round++) {
                    runRound(cluster, producer, consumer, round, Round.number(round));
                }
                producer.close();
                awaitConsumerAtEnd(cluster, consumer);
            } finally {
                producer.close();
                consumer.close();
            }
            // One node of three down at a time, two in sync: a correct cluster takes every write within the delivery
            // timeout (120 s).
            assertThat(producer.failedCount()).as("sends that failed: %s; the nodes said:%n%s", producer.status(),
                    cluster.warnings()).isZero();
            LogAudit.Result log = LogAudit.check(cluster.bootstrap(), TOPIC, PARTITIONS, producer.acked());
            assertThat(log.problems()).as("the log: every acknowledged record once, per key in order").isEmpty();
            assertThat(GroupReadAudit.check(cluster.bootstrap(), TOPIC, PARTITIONS, consumer.history()))
                    .as("what the group read: each record of the log once, as the log holds it").isEmpty();
            assertThat(log.records()).isEqualTo(consumer.history().processedUpTo().values().stream()
                    .mapToLong(upTo -> upTo + 1).sum());
            System.out.printf("LeaderFailoverLoopIT: %d rounds in %d s: %d records acknowledged, %d sends failed, "
                    + "%d in the log, each read once by the group (%d read again after a failed commit, %d client "
                    + "errors)%n", rounds, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startedNs),
                    producer.ackedCount(), producer.failedCount(), log.records(), consumer.history().rereads(),
                    consumer.errorCount());
        }
    }

    /**
     * Stops the round's node, waits for partition 0 and the group to be served elsewhere and for both clients to go
     * on, checks the group's commits survived, restarts the node and waits for it back in every ISR.
     */
    private static void runRound(SpoolCluster cluster, NumberedProducer producer, CommittingConsumer consumer,
                                 int number, Round round) throws Exception {
        int victim;
        try (Admin admin = admin(cluster.bootstrap())) {
            victim = round.coordinator() ? coordinator(admin) : leader(admin, 0);
        }
        Map<Integer, Long> acknowledgedBefore = consumer.history().acknowledgedCommits();
        long roundStartedNs = System.nanoTime();
        if (round.sigkill()) {
            cluster.kill(victim);
        } else {
            cluster.stop(victim);
        }
        String what = "round " + number + " (" + round + ", node " + victim + ")";
        try (Admin admin = admin(cluster.bootstrap())) {
            awaitTrue(() -> leader(admin, 0) != victim && coordinator(admin) != victim,
                    "partition 0 and the group served by another node after " + what);
        }
        boolean producerWentOn = producer.awaitProgress(300, Duration.ofSeconds(60));
        if (!producerWentOn) {
            System.out.println("LeaderFailoverLoopIT: node output in "
                    + cluster.saveOutputs(Path.of("target", "leader-failover-nodes-" + System.currentTimeMillis())));
        }
        assertThat(producerWentOn)
                .as("the producer goes on after %s: %s; its own view: %s; each node's view of the partitions: %s; "
                        + "the producer logged:%n%s%nthe nodes said:%n%s", what, producer.status(),
                        producer.clientView(), views(cluster), ClientLog.last(NumberedProducer.CLIENT_ID, 30),
                        cluster.warnings()).isTrue();
        long processed = consumer.processedCount();
        try {
            awaitTrue(() -> consumer.processedCount() > processed + 300, "the group reading on after " + what);
        } catch (AssertionError timedOut) {
            throw new AssertionError(timedOut.getMessage() + "; the member: " + consumer.status()
                    + "; the nodes said:\n" + cluster.warnings(), timedOut);
        }
        Map<TopicPartition, Long> committed = committed(cluster);
        acknowledgedBefore.forEach((partition, offset) -> assertThat(committed.get(new TopicPartition(TOPIC, partition)))
                .as("partition %d's committed offset after %s, against %d acknowledged before", partition, what, offset)
                .isNotNull().isGreaterThanOrEqualTo(offset));

        cluster.restart(victim);
        awaitVotersCaughtUp(cluster, what);
        ReplicatedTopics.awaitEveryReplicaInSync(cluster, TOPIC);
        ReplicatedTopics.awaitEveryReplicaInSync(cluster, "__consumer_offsets");
        System.out.printf("LeaderFailoverLoopIT: %s done in %d ms; %s; the group processed %d%n", what,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - roundStartedNs), producer.status(),
                consumer.processedCount());
    }

    /**
     * Waits until every voter has the metadata log up to the quorum's high watermark: a voter restarted but still
     * catching up, with another one stopped in the next round, would leave the quorum without a majority to commit
     * the next round's changes (two of three voters out, more than the test means to take away).
     */
    private static void awaitVotersCaughtUp(SpoolCluster cluster, String what) throws Exception {
        try (Admin admin = admin(cluster.bootstrap())) {
            long highWatermark = admin.describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS).highWatermark();
            awaitTrue(() -> admin.describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS).voters().stream()
                    .allMatch(voter -> voter.logEndOffset() >= highWatermark),
                    "every voter with the metadata log up to " + highWatermark + " after " + what);
        }
    }

    /** Each live node's answer for the topic's partitions (leader, ISR), asked of it alone: for a failure's message. */
    private static String views(SpoolCluster cluster) {
        StringBuilder views = new StringBuilder();
        for (int nodeId = 1; nodeId <= NODES; nodeId++) {
            SpoolProcess node = cluster.node(nodeId);
            if (node == null || !node.isAlive()) {
                continue;
            }
            views.append("\nnode ").append(nodeId).append(": ");
            try (RawConnection connection = new RawConnection(node.port())) {
                MetadataResponse answer = (MetadataResponse) connection.send(ApiKeys.METADATA, (short) 12,
                        new MetadataRequestData().setTopics(List.of(new MetadataRequestData.MetadataRequestTopic()
                                .setName(TOPIC))));
                answer.data().topics().forEach(topic -> topic.partitions().forEach(partition -> views
                        .append(partition.partitionIndex()).append(" leader ").append(partition.leaderId())
                        .append(" epoch ").append(partition.leaderEpoch()).append(" isr ")
                        .append(partition.isrNodes()).append("; ")));
            } catch (Exception e) {
                views.append(e);
            }
        }
        return views.toString();
    }

    private static int leader(Admin admin, int partition) throws Exception {
        Node leader = describe(admin, TOPIC).partitions().get(partition).leader();
        return leader == null ? -1 : leader.id();
    }

    private static int coordinator(Admin admin) throws Exception {
        Node coordinator = admin.describeConsumerGroups(List.of(GROUP)).all().get(30, TimeUnit.SECONDS).get(GROUP)
                .coordinator();
        return coordinator == null ? -1 : coordinator.id();
    }

    /** Waits until the group member has processed every record up to the log end. */
    private static void awaitConsumerAtEnd(SpoolCluster cluster, CommittingConsumer consumer) throws Exception {
        Map<TopicPartition, Long> end = endOffsets(cluster);
        awaitTrue(() -> {
            Map<Integer, Long> done = consumer.processedUpTo();
            return end.entrySet().stream()
                    .allMatch(e -> done.getOrDefault(e.getKey().partition(), -1L) >= e.getValue() - 1);
        }, "the group member at the log end " + end);
        awaitTrue(() -> committed(cluster).equals(end), "the group's commits at the log end " + end);
    }

    /** The group's committed offsets, as the coordinator serving it now answers. */
    private static Map<TopicPartition, Long> committed(SpoolCluster cluster) throws Exception {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        try (Admin admin = admin(cluster.bootstrap())) {
            admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS)
                    .forEach((partition, offset) -> {
                        if (offset != null) {
                            offsets.put(partition, offset.offset());
                        }
                    });
        }
        return offsets;
    }

    private static Map<TopicPartition, Long> endOffsets(SpoolCluster cluster) throws Exception {
        Map<TopicPartition, Long> end = new HashMap<>();
        try (Admin admin = admin(cluster.bootstrap())) {
            for (int partition = 0; partition < PARTITIONS; partition++) {
                end.put(new TopicPartition(TOPIC, partition),
                        ReplicatedTopics.offset(admin, TOPIC, partition, OffsetSpec.latest()));
            }
        }
        return end;
    }
}

package dev.spool.it;

import static dev.spool.it.MetadataQuorumTool.awaitTrue;
import static dev.spool.it.ReplicatedTopics.admin;
import static dev.spool.it.ReplicatedTopics.describe;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.it.reliability.LogAudit;
import dev.spool.it.reliability.NumberedProducer;
import dev.spool.it.reliability.PartitionFill;
import java.time.Duration;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Test;

/**
 * Replication at the scale users run: a topic of 2,000 partitions with three replicas each (6,000 replicas on three
 * combined nodes), min ISR 2, every partition holding records, under an idempotent acks=all producer. A node is
 * SIGKILLed: every partition it led gets another leader and the producer goes on; the node comes back and every
 * replica is in sync again. At the end every acknowledged record is in the log once, in per-key order. Fencing,
 * elections and the followers' fetches walk every partition, so a cost per partition shows here as a timeout.
 */
class ManyPartitionsClusterIT {

    private static final String TOPIC = "wide-replicated";
    private static final int PARTITIONS = 2_000;
    private static final int RECORDS_PER_PARTITION = 5;
    private static final int VICTIM = 2;

    @Test
    void twoThousandReplicatedPartitionsFailOverAndCatchUpWithEveryAcknowledgedRecord() throws Exception {
        long startedNs = System.nanoTime();
        try (SpoolCluster cluster = SpoolCluster.start(3, "broker.session.timeout.ms=3000",
                "broker.heartbeat.interval.ms=500", "auto.leader.rebalance.enable=false")) {
            try (Admin admin = admin(cluster.bootstrap())) {
                ReplicatedTopics.create(admin, TOPIC, PARTITIONS, 2);
            }
            ReplicatedTopics.awaitEveryReplicaInSync(cluster, TOPIC);
            long createdMs = millisSince(startedNs);
            Map<String, NavigableSet<Long>> filled =
                    PartitionFill.everyPartition(cluster.bootstrap(), TOPIC, PARTITIONS, RECORDS_PER_PARTITION);
            NumberedProducer producer = new NumberedProducer(cluster.bootstrap(), TOPIC, PARTITIONS, 2_000);
            long failoverMs;
            long caughtUpMs;
            try {
                assertThat(producer.awaitProgress(2_000, Duration.ofSeconds(120)))
                        .as("the producer gets going: %s", producer.status()).isTrue();

                long killedNs = System.nanoTime();
                cluster.kill(VICTIM);
                try (Admin admin = admin(cluster.bootstrap())) {
                    awaitTrue(() -> describe(admin, TOPIC).partitions().stream()
                            .allMatch(p -> p.leader() != null && p.leader().id() != VICTIM),
                            "every partition led by a live node after node " + VICTIM + "'s SIGKILL");
                }
                failoverMs = millisSince(killedNs);
                assertThat(producer.awaitProgress(2_000, Duration.ofSeconds(60)))
                        .as("the producer goes on without node %d: %s", VICTIM, producer.status()).isTrue();

                long restartedNs = System.nanoTime();
                cluster.restart(VICTIM);
                ReplicatedTopics.awaitEveryReplicaInSync(cluster, TOPIC);
                caughtUpMs = millisSince(restartedNs);
                try (Admin admin = admin(cluster.bootstrap())) {
                    long led = describe(admin, TOPIC).partitions().stream().map(TopicPartitionInfo::isr)
                            .filter(isr -> isr.stream().anyMatch(node -> node.id() == VICTIM)).count();
                    assertThat(led).as("partitions with node %d in sync again", VICTIM).isEqualTo(PARTITIONS);
                }
                assertThat(producer.awaitProgress(1_000, Duration.ofSeconds(60)))
                        .as("the producer goes on with node %d back: %s", VICTIM, producer.status()).isTrue();
            } finally {
                producer.close();
            }
            assertThat(producer.failedCount()).as("sends that failed: %s", producer.status()).isZero();
            Map<String, NavigableSet<Long>> acked = new TreeMap<>(producer.acked());
            acked.putAll(filled);
            LogAudit.Result audit = LogAudit.check(cluster.bootstrap(), TOPIC, PARTITIONS, acked);
            assertThat(audit.problems()).as("the log: every acknowledged record once, per key in order").isEmpty();
            System.out.printf("ManyPartitionsClusterIT: %d partitions x 3 replicas created and in sync in %d ms; "
                            + "after node %d's SIGKILL every partition led again in %d ms; restarted, every replica "
                            + "in sync in %d ms; %d records in the log, 0 lost, 0 duplicated%n", PARTITIONS,
                    createdMs, VICTIM, failoverMs, caughtUpMs, audit.records());
        }
    }

    private static long millisSince(long startedNs) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNs);
    }
}

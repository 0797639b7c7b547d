package dev.spool.it.faults;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * Not thread-safe (one schedule asks): what a fault schedule asks the cluster to aim its faults and to know it
 * healed, through Kafka's Admin client on the bootstrap servers of the moment. Every question is answered within a
 * few seconds: a cluster in the middle of a fault may not answer, and "unknown" (-1, false) is then the answer,
 * since a schedule must go on rather than hang.
 */
public final class ClusterProbe {

    /** Long enough for a healthy cluster on a loaded 2-core machine, short enough not to stall a schedule. */
    private static final int ANSWER_MS = 5_000;

    private final Supplier<String> bootstrap;

    /** {@code bootstrap} is read at each question: restarted nodes may listen on new ports. */
    public ClusterProbe(Supplier<String> bootstrap) {
        this.bootstrap = bootstrap;
    }

    private Admin admin() {
        return admin(bootstrap.get());
    }

    private static Admin admin(String servers) {
        return Admin.create(Map.of("bootstrap.servers", servers, "default.api.timeout.ms", ANSWER_MS,
                "request.timeout.ms", ANSWER_MS, "reconnect.backoff.max.ms", 500));
    }

    /** The node leading {@code topic}-{@code partition}; -1 when none, or when the cluster does not answer in time. */
    public int leaderOf(String topic, int partition) {
        try (Admin admin = admin()) {
            TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(ANSWER_MS, TimeUnit.MILLISECONDS).get(topic);
            Node leader = description.partitions().get(partition).leader();
            return leader == null ? -1 : leader.id();
        } catch (Exception unknown) {
            return -1;
        }
    }

    /** The node leading the metadata quorum; -1 when the cluster does not answer in time. */
    public int quorumLeader() {
        try (Admin admin = admin()) {
            return quorumLeader(admin);
        } catch (Exception unknown) {
            return -1;
        }
    }

    /**
     * The node leading the metadata quorum as the node at {@code address} (host:port) alone knows it; -1 when it knows
     * none, or does not answer in time. (A node answers DescribeQuorum from its own Raft state.)
     */
    public static int quorumLeaderAsSeenBy(String address) {
        try (Admin admin = admin(address)) {
            return quorumLeader(admin);
        } catch (Exception unknown) {
            return -1;
        }
    }

    private static int quorumLeader(Admin admin) throws Exception {
        return admin.describeMetadataQuorum().quorumInfo().get(ANSWER_MS, TimeUnit.MILLISECONDS).leaderId();
    }

    /** Whether every partition of {@code topics} has a leader and all its replicas in sync. */
    public boolean everyReplicaInSync(List<String> topics) {
        try (Admin admin = admin()) {
            for (TopicDescription description : admin.describeTopics(topics).allTopicNames()
                    .get(ANSWER_MS, TimeUnit.MILLISECONDS).values()) {
                for (TopicPartitionInfo partition : description.partitions()) {
                    if (partition.leader() == null || !ids(partition.isr()).equals(ids(partition.replicas()))) {
                        return false;
                    }
                }
            }
            return true;
        } catch (Exception unknown) {
            return false;
        }
    }

    /** Waits up to {@code timeoutMs} for {@link #everyReplicaInSync}; whether it came. */
    public boolean awaitEveryReplicaInSync(List<String> topics, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (System.nanoTime() < deadline) {
            if (everyReplicaInSync(topics)) {
                return true;
            }
            Thread.sleep(200);
        }
        return false;
    }

    /** Creates {@code topic} with three replicas of each of {@code partitions} and {@code min.insync.replicas}. */
    public void createTopic(String topic, int partitions, int minInsyncReplicas) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap.get(), "default.api.timeout.ms", 30_000))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 3)
                    .configs(Map.of("min.insync.replicas", Integer.toString(minInsyncReplicas)))))
                    .all().get(30, TimeUnit.SECONDS);
        }
    }

    /** Per partition of {@code topic}, the log end offset now (the next offset a write would take). */
    public Map<Integer, Long> endOffsets(String topic, int partitions) throws Exception {
        Map<TopicPartition, OffsetSpec> latest = latest(topic, partitions);
        Map<Integer, Long> ends = new TreeMap<>();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap.get(), "default.api.timeout.ms", 30_000))) {
            admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS)
                    .forEach((partition, info) -> ends.put(partition.partition(), info.offset()));
        }
        return ends;
    }

    /**
     * For a look at readers that did not reach the end: per partition, its read_committed end (the last stable
     * offset) and the producers its leader counts with a transaction open (DescribeProducers); the error instead
     * when the cluster does not answer.
     */
    public String openTransactions(String topic, int partitions) {
        Map<TopicPartition, OffsetSpec> latest = latest(topic, partitions);
        try (Admin admin = admin()) {
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> stable = admin.listOffsets(latest,
                    new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get(ANSWER_MS, TimeUnit.MILLISECONDS);
            Map<TopicPartition, PartitionProducerState> producers = admin.describeProducers(latest.keySet()).all()
                    .get(ANSWER_MS, TimeUnit.MILLISECONDS);
            StringBuilder out = new StringBuilder();
            for (int index = 0; index < partitions; index++) {
                TopicPartition partition = new TopicPartition(topic, index);
                out.append(partition).append(": last stable offset ").append(stable.get(partition).offset());
                producers.get(partition).activeProducers().stream()
                        .filter(producer -> producer.currentTransactionStartOffset().isPresent())
                        .forEach(producer -> out.append("; producer ").append(producer.producerId()).append(" epoch ")
                                .append(producer.producerEpoch()).append(" open from ")
                                .append(producer.currentTransactionStartOffset().getAsLong()));
                out.append('\n');
            }
            return out.toString();
        } catch (Exception unknown) {
            return "open transactions unknown: " + unknown;
        }
    }

    /** Every partition of {@code topic}, to be looked up at its end. */
    private static Map<TopicPartition, OffsetSpec> latest(String topic, int partitions) {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (int partition = 0; partition < partitions; partition++) {
            latest.put(new TopicPartition(topic, partition), OffsetSpec.latest());
        }
        return latest;
    }

    private static Set<Integer> ids(List<Node> nodes) {
        Set<Integer> ids = new HashSet<>();
        for (Node node : nodes) {
            ids.add(node.id());
        }
        return ids;
    }
}

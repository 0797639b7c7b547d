package dev.spool.it;

import static dev.spool.it.MetadataQuorumTool.awaitTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
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

/** What the replication tests do with a replicated topic through Kafka's clients, and how they compare replicas. */
final class ReplicatedTopics {

    private ReplicatedTopics() {
    }

    static Admin admin(String bootstrap) {
        return Admin.create(Map.of("bootstrap.servers", bootstrap, "default.api.timeout.ms", "30000"));
    }

    /** Creates {@code topic} with three replicas of each partition and the given {@code min.insync.replicas}. */
    static void create(Admin admin, String topic, int partitions, int minInsyncReplicas) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 3)
                .configs(Map.of("min.insync.replicas", Integer.toString(minInsyncReplicas)))))
                .all().get(30, TimeUnit.SECONDS);
    }

    /**
     * A cluster of three controllers and the broker-only nodes 4 and 5, fenced 3 s after they stop, with no leader
     * balancing and unclean elections checked every second: the layout for a topic whose two replicas are taken
     * down one by one.
     */
    static SpoolCluster twoBrokersBehindAQuorum() throws Exception {
        return SpoolCluster.start(3, 2, "broker.session.timeout.ms=3000", "broker.heartbeat.interval.ms=500",
                "auto.leader.rebalance.enable=false", "unclean.leader.election.interval.ms=1000");
    }

    /**
     * Creates {@code topic}, one partition on brokers 4 (leading) and 5, with {@code configs}; waits for both in
     * sync.
     */
    static void createOnBrokersFourAndFive(Admin admin, String topic, Map<String, String> configs) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, Map.of(0, List.of(4, 5))).configs(configs)))
                .all().get(30, TimeUnit.SECONDS);
        MetadataQuorumTool.awaitTrue(() -> ids(partition(admin, topic, 0).isr()).size() == 2, "both replicas in sync");
    }

    /** Waits until broker {@code leaderId} leads partition 0 of {@code topic}. */
    static void awaitLeader(Admin admin, String topic, int leaderId, String what) throws Exception {
        MetadataQuorumTool.awaitTrue(() -> {
            Node leader = partition(admin, topic, 0).leader();
            return leader != null && leader.id() == leaderId;
        }, what);
    }

    /**
     * Waits until every partition of {@code topic} has all its replicas in sync (a restarted node caught up); a
     * timeout names how many are not, the first of them, and what the nodes warned of.
     */
    static void awaitEveryReplicaInSync(SpoolCluster cluster, String topic) throws Exception {
        try (Admin admin = admin(cluster.bootstrap())) {
            awaitEveryReplicaInSync(admin, cluster, topic);
        }
    }

    /** As {@link #awaitEveryReplicaInSync(SpoolCluster, String)}, asking through {@code admin} (a secured client). */
    static void awaitEveryReplicaInSync(Admin admin, SpoolCluster cluster, String topic) throws Exception {
        try {
            awaitTrue(() -> notInSync(admin, topic).isEmpty(), "every replica of " + topic + " in sync");
        } catch (AssertionError timedOut) {
            List<TopicPartitionInfo> behind = notInSync(admin, topic);
            throw new AssertionError(timedOut.getMessage() + "; " + behind.size() + " partitions are not, e.g. "
                    + behind.subList(0, Math.min(5, behind.size())) + "; the nodes warned:\n"
                    + cluster.warnings(), timedOut);
        }
    }

    private static List<TopicPartitionInfo> notInSync(Admin admin, String topic) throws Exception {
        return describe(admin, topic).partitions().stream()
                .filter(p -> p.leader() == null || !Set.copyOf(ids(p.isr())).equals(Set.copyOf(ids(p.replicas()))))
                .toList();
    }

    static TopicDescription describe(Admin admin, String topic) throws Exception {
        return admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic);
    }

    /** The leader of the {@code __transaction_state} partition of {@code transactionalId} (Kafka's rule), or -1. */
    static int transactionCoordinatorOf(Admin admin, String transactionalId) throws Exception {
        List<TopicPartitionInfo> partitions = describe(admin, "__transaction_state").partitions();
        TopicPartitionInfo partition = partitions.get((transactionalId.hashCode() & 0x7fffffff) % partitions.size());
        return partition.leader() == null ? -1 : partition.leader().id();
    }

    static TopicPartitionInfo partition(Admin admin, String topic, int partition) throws Exception {
        return describe(admin, topic).partitions().get(partition);
    }

    static List<Integer> ids(List<Node> nodes) {
        return nodes.stream().map(Node::id).toList();
    }

    /** The offset a consumer would get for {@code spec} (the high watermark for the latest). */
    static long offset(Admin admin, String topic, int partition, OffsetSpec spec) throws Exception {
        TopicPartition topicPartition = new TopicPartition(topic, partition);
        return admin.listOffsets(Map.of(topicPartition, spec)).partitionResult(topicPartition)
                .get(30, TimeUnit.SECONDS).offset();
    }

    /** Sends {@code count} records with acks=all and idempotence; the values acknowledged. */
    static List<String> produce(String bootstrap, String topic, String prefix, int count) throws Exception {
        return produce(bootstrap, topic, prefix, count, 0);
    }

    /** As {@link #produce(String, String, String, int)}, each value padded with {@code padding} characters. */
    static List<String> produce(String bootstrap, String topic, String prefix, int count, int padding)
            throws Exception {
        String pad = "x".repeat(padding);
        List<String> acknowledged = new ArrayList<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap,
                "acks", "all", "enable.idempotence", "true", "delivery.timeout.ms", "60000", "linger.ms", "5"),
                new StringSerializer(), new StringSerializer())) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                sent.add(producer.send(new ProducerRecord<>(topic, "key-" + i, prefix + "-" + i + pad)));
            }
            for (int i = 0; i < count; i++) {
                sent.get(i).get(60, TimeUnit.SECONDS);
                acknowledged.add(prefix + "-" + i + pad);
            }
        }
        return acknowledged;
    }

    /**
     * Every value of {@code topic} from its earliest offsets to its end offsets (taken first), waiting until
     * {@code expected} were read: a duplicate in the log is read for certain.
     */
    static List<String> readAll(String bootstrap, String topic, int expected) {
        List<String> read = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", bootstrap,
                "auto.offset.reset", "earliest", "enable.auto.commit", "false"), new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.currentTimeMillis() + MetadataQuorumTool.AWAIT_MS;
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            while ((read.size() < expected || !atEnd(consumer, ends)) && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    read.add(record.value());
                }
            }
        }
        return read;
    }

    private static boolean atEnd(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> ends) {
        return ends.entrySet().stream().allMatch(end -> consumer.position(end.getKey()) >= end.getValue());
    }

    /**
     * The batches of a replica's partition directory as its segment files hold them: base offset to CRC, read from
     * Kafka's batch header (base offset at byte 0, length at 8, CRC at 17), so two replicas compare batch by batch
     * whatever offset their first segment starts at.
     */
    static Map<Long, Integer> batches(Path partitionDir) throws IOException {
        Map<Long, Integer> batches = new TreeMap<>();
        List<Path> segments;
        try (Stream<Path> files = Files.list(partitionDir)) {
            segments = files.filter(file -> file.getFileName().toString().endsWith(".log")).sorted().toList();
        }
        for (Path segment : segments) {
            ByteBuffer bytes;
            try (FileChannel channel = FileChannel.open(segment)) {
                bytes = ByteBuffer.allocate((int) channel.size());
                while (bytes.hasRemaining() && channel.read(bytes) >= 0) {
                    // read it all
                }
            }
            bytes.flip();
            while (bytes.remaining() >= 21) {
                int start = bytes.position();
                long baseOffset = bytes.getLong(start);
                int length = bytes.getInt(start + 8);
                if (length <= 0 || start + 12 + length > bytes.limit()) {
                    break; // a torn or preallocated tail
                }
                batches.put(baseOffset, bytes.getInt(start + 17));
                bytes.position(start + 12 + length);
            }
        }
        return batches;
    }
}

package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.log.FileTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.Test;

/**
 * Kafka Streams 4.4, unchanged, with {@code processing.guarantee=exactly_once_v2}: a word count (a repartition topic,
 * a changelogged state store, transactions over all of them with the input offsets) while the broker is SIGKILLed and
 * restarted twice; and on a cluster of three (every topic 3 replicas, min ISR 2) while the transaction coordinator's
 * broker, then an output partition's leader, is SIGKILLed and restarted. The last count of each word a read_committed
 * reader finds is exactly how often it was sent: a record processed twice, or lost, would show.
 */
class StreamsExactlyOnceIT {

    private static final String INPUT = "sentences";
    private static final String OUTPUT = "word-counts";
    private static final List<String> WORDS = List.of("alpha", "beta", "gamma", "delta", "epsilon");
    private static final int SENTENCES = 600;

    /** A failure injected while the sentences are sent: the first ({@code which} 0) at a third, the second at two. */
    private interface Failure {
        void inject(int which) throws Exception;
    }

    @Test
    void aWordCountCountsEachWordExactlyOnceThroughBrokerKills() throws Exception {
        String[] overrides = {"listeners=PLAINTEXT://127.0.0.1:" + KillLoopIT.freePort(),
                "group.initial.rebalance.delay.ms=0", "offsets.topic.num.partitions=3",
                "transaction.state.log.num.partitions=3"};
        SpoolProcess[] spool = {SpoolProcess.start(overrides)};
        String bootstrap = spool[0].bootstrap();
        try {
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                admin.createTopics(List.of(new NewTopic(INPUT, 2, (short) 1), new NewTopic(OUTPUT, 2, (short) 1)))
                        .all().get(30, TimeUnit.SECONDS);
            }
            countEachWordExactlyOnce(() -> bootstrap, 1, which -> {
                spool[0].kill();
                spool[0] = SpoolProcess.startIn(spool[0].dataDir(), overrides);
            });
        } finally {
            spool[0].close();
        }
    }

    @Test
    void aWordCountOnAClusterCountsEachWordExactlyOnceWhileTheCoordinatorAndALeaderAreKilled() throws Exception {
        // One partition of __transaction_state: its leader coordinates every transactional id Streams makes up.
        try (SpoolCluster cluster = SpoolCluster.start(3, "broker.session.timeout.ms=3000",
                "broker.heartbeat.interval.ms=500", "group.initial.rebalance.delay.ms=0",
                "offsets.topic.num.partitions=3", "transaction.state.log.num.partitions=1")) {
            try (Admin admin = ReplicatedTopics.admin(cluster.bootstrap())) {
                ReplicatedTopics.create(admin, INPUT, 2, 2);
                ReplicatedTopics.create(admin, OUTPUT, 2, 2);
            }
            countEachWordExactlyOnce(cluster::bootstrap, 3, which -> {
                String topic = which == 0 ? "__transaction_state" : OUTPUT;
                int node = leaderOf(cluster, topic);
                cluster.kill(node);
                MetadataQuorumTool.awaitTrue(() -> leaderOf(cluster, topic) != node,
                        "another broker leading " + topic + "-0");
                cluster.restart(node);
            });
        }
    }

    /** Partition 0's leader, asked with a new admin client: a restarted broker listens on a new port. */
    private static int leaderOf(SpoolCluster cluster, String topic) throws Exception {
        try (Admin admin = ReplicatedTopics.admin(cluster.bootstrap())) {
            Node leader = ReplicatedTopics.partition(admin, topic, 0).leader();
            return leader == null ? -1 : leader.id();
        }
    }

    /** Sends the sentences through the word count, with the two failures; then checks the counts. */
    private static void countEachWordExactlyOnce(Supplier<String> bootstrap, int replicationFactor, Failure failure)
            throws Exception {
        Path stateDir = Files.createTempDirectory("spool-streams-");
        Map<String, Long> sent = new HashMap<>();
        KafkaStreams streams = start(bootstrap.get(), stateDir, replicationFactor);
        try {
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                    bootstrap.get(), "enable.idempotence", "true", "delivery.timeout.ms", "120000"),
                    new StringSerializer(), new StringSerializer())) {
                for (int i = 0; i < SENTENCES; i++) {
                    String sentence = WORDS.get(i % WORDS.size()) + " " + WORDS.get((i * 7 + 3) % WORDS.size());
                    for (String word : sentence.split(" ")) {
                        sent.merge(word, 1L, Long::sum);
                    }
                    producer.send(new ProducerRecord<>(INPUT, "s" + i, sentence)).get(60, TimeUnit.SECONDS);
                    if (i == SENTENCES / 3 || i == 2 * SENTENCES / 3) {
                        failure.inject(i == SENTENCES / 3 ? 0 : 1);
                    }
                }
            }
            Map<String, Long> counts = lastCounts(bootstrap.get(), sent);
            assertThat(counts).as("each word counted exactly as often as it was sent").isEqualTo(sent);
        } finally {
            streams.close(Duration.ofSeconds(30));
            FileTrees.deleteRecursively(stateDir);
        }
    }

    private static KafkaStreams start(String bootstrap, Path stateDir, int replicationFactor) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(INPUT, Consumed.with(Serdes.String(), Serdes.String()))
                .flatMapValues(sentence -> List.of(sentence.split(" ")))
                .groupBy((key, word) -> word, Grouped.with(Serdes.String(), Serdes.String()))
                .count()
                .toStream()
                .to(OUTPUT, Produced.with(Serdes.String(), Serdes.Long()));
        Properties properties = new Properties();
        properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "spool-word-count");
        properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        properties.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        properties.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, replicationFactor);
        properties.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        properties.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        KafkaStreams streams = new KafkaStreams(builder.build(), properties);
        streams.start();
        return streams;
    }

    /** The last count per word a read_committed reader finds, once it matches what was sent (or after 120 s). */
    private static Map<String, Long> lastCounts(String bootstrap, Map<String, Long> sent) {
        Map<String, Long> counts = new HashMap<>();
        try (KafkaConsumer<String, Long> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", bootstrap,
                "isolation.level", "read_committed", "enable.auto.commit", "false"), new StringDeserializer(),
                new LongDeserializer())) {
            List<TopicPartition> partitions = List.of(new TopicPartition(OUTPUT, 0), new TopicPartition(OUTPUT, 1));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.currentTimeMillis() + 120_000;
            while (!counts.equals(sent) && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, Long> record : consumer.poll(Duration.ofMillis(500))) {
                    counts.put(record.key(), record.value());
                }
            }
            for (ConsumerRecord<String, Long> record : consumer.poll(Duration.ofSeconds(2))) {
                counts.put(record.key(), record.value());
            }
        }
        return counts;
    }
}

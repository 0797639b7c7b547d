package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
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
 * restarted twice. The last count of each word a read_committed reader finds is exactly how often it was sent: a
 * record processed twice, or lost, would show.
 */
class StreamsExactlyOnceIT {

    private static final String INPUT = "sentences";
    private static final String OUTPUT = "word-counts";
    private static final List<String> WORDS = List.of("alpha", "beta", "gamma", "delta", "epsilon");
    private static final int SENTENCES = 600;

    @Test
    void aWordCountCountsEachWordExactlyOnceThroughBrokerKills() throws Exception {
        String[] overrides = {"listeners=PLAINTEXT://127.0.0.1:" + KillLoopIT.freePort(),
                "group.initial.rebalance.delay.ms=0", "offsets.topic.num.partitions=3",
                "transaction.state.log.num.partitions=3"};
        SpoolProcess spool = SpoolProcess.start(overrides);
        String bootstrap = spool.bootstrap();
        Path stateDir = Files.createTempDirectory("spool-streams-");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(INPUT, 2, (short) 1), new NewTopic(OUTPUT, 2, (short) 1)))
                    .all().get(30, TimeUnit.SECONDS);
        }
        Map<String, Long> sent = new HashMap<>();
        KafkaStreams streams = start(bootstrap, stateDir);
        try {
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap,
                    "enable.idempotence", "true", "delivery.timeout.ms", "120000"), new StringSerializer(),
                    new StringSerializer())) {
                for (int i = 0; i < SENTENCES; i++) {
                    String sentence = WORDS.get(i % WORDS.size()) + " " + WORDS.get((i * 7 + 3) % WORDS.size());
                    for (String word : sentence.split(" ")) {
                        sent.merge(word, 1L, Long::sum);
                    }
                    producer.send(new ProducerRecord<>(INPUT, "s" + i, sentence)).get(60, TimeUnit.SECONDS);
                    if (i == SENTENCES / 3 || i == 2 * SENTENCES / 3) {
                        spool.kill();
                        spool = SpoolProcess.startIn(spool.dataDir(), overrides);
                    }
                }
            }
            Map<String, Long> counts = lastCounts(bootstrap, sent);
            assertThat(counts).as("each word counted exactly as often as it was sent").isEqualTo(sent);
        } finally {
            streams.close(Duration.ofSeconds(30));
            spool.close();
        }
    }

    private static KafkaStreams start(String bootstrap, Path stateDir) {
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
        properties.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
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

package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Log compaction seen from real clients: {@code __consumer_offsets} stays bounded under 100,000 offset
 * commits of a few groups (and the committed offsets survive compaction and a restart); a Java consumer
 * reading a compacted user topic from the beginning sees the latest value of every key; a record
 * without a key is refused on a compacted topic; switching a topic to compact applies without restart; an
 * idempotent producer's sequence survives compaction of its batches and a broker crash.
 */
class CompactionIT {
    private static final int GROUPS = 4;
    private static final int COMMITS_PER_GROUP = 25_000;
    private static final String TOPIC = "committed";

    @Test
    void consumerOffsetsStaysBoundedUnderAHundredThousandCommits() throws Exception {
        SpoolProcess first = SpoolProcess.start("offsets.topic.num.partitions=1", "offsets.topic.segment.bytes=16384",
                "log.cleaner.backoff.ms=100", "group.initial.rebalance.delay.ms=0");
        TopicPartition offsets = new TopicPartition("__consumer_offsets", 0);
        AtomicLong maxSizeBytes = new AtomicLong();
        long uncompactedBytes;
        try (Admin admin = GroupClients.admin(first.bootstrap())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 2, (short) 1))).all().get(20, TimeUnit.SECONDS);
            ExecutorService committers = Executors.newFixedThreadPool(GROUPS);
            List<Future<?>> done = new ArrayList<>();
            for (int g = 0; g < GROUPS; g++) {
                String group = "committer-" + g;
                done.add(committers.submit(() -> {
                    try (KafkaConsumer<String, String> consumer = GroupClients.consumer(first.bootstrap(), group, "earliest")) {
                        for (int n = 0; n < COMMITS_PER_GROUP; n++) {
                            consumer.commitSync(Map.of(new TopicPartition(TOPIC, n % 2), new OffsetAndMetadata(n)));
                        }
                    }
                    return null;
                }));
            }
            while (done.stream().anyMatch(future -> !future.isDone())) {
                maxSizeBytes.accumulateAndGet(partitionSize(admin, offsets), Math::max);
                Thread.sleep(250);
            }
            for (Future<?> future : done) {
                future.get();
            }
            committers.shutdown();
            long commits = (long) GROUPS * COMMITS_PER_GROUP;
            // each commit is a record of about 80 bytes in a batch of its own (61 bytes of header)
            uncompactedBytes = commits * 140;
            long deadline = System.currentTimeMillis() + 30_000;
            while (partitionSize(admin, offsets) > 64 * 1024 && System.currentTimeMillis() < deadline) {
                Thread.sleep(200);
            }
            long settled = partitionSize(admin, offsets);
            System.out.printf("__consumer_offsets-0 after %d commits: %d bytes (largest seen %d; uncompacted ~%d)%n",
                    commits, settled, maxSizeBytes.get(), uncompactedBytes);
            assertThat(settled).isLessThanOrEqualTo(64 * 1024);
            assertThat(maxSizeBytes.get()).isLessThan(uncompactedBytes / 5);
            assertCommitted(admin);
        }
        first.stop();
        assertKafkaDecodesTheCompactedOffsets(first.dataDir().resolve("__consumer_offsets-0"));
        // the coordinator replays the compacted log on start-up: the same committed offsets
        try (SpoolProcess second = SpoolProcess.startIn(first.dataDir(), "offsets.topic.num.partitions=1",
                "offsets.topic.segment.bytes=16384");
             Admin admin = GroupClients.admin(second.bootstrap())) {
            assertCommitted(admin);
        }
    }

    /** Kafka's kafka-dump-log --offsets-decoder reads the compacted segments: every group's latest commits. */
    private static void assertKafkaDecodesTheCompactedOffsets(Path partitionDir) throws Exception {
        List<String> segments;
        try (Stream<Path> files = Files.list(partitionDir)) {
            segments = files.map(Path::toString).filter(name -> name.endsWith(".log")).sorted().toList();
        }
        ExternalCommand.Result dump = KafkaTool.run("org.apache.kafka.tools.DumpLogSegments", "--deep-iteration",
                "--offsets-decoder", "--files", String.join(",", segments));
        assertThat(dump.exitCode()).as(dump.output()).isZero();
        assertThat(dump.output()).doesNotContainIgnoringCase("exception").doesNotContainIgnoringCase("corrupt");
        for (int g = 0; g < GROUPS; g++) {
            assertThat(dump.output()).contains("\"group\":\"committer-" + g + "\"")
                    .contains("\"offset\":" + (COMMITS_PER_GROUP - 1));
        }
    }

    private static void assertCommitted(Admin admin) throws Exception {
        for (int g = 0; g < GROUPS; g++) {
            assertThat(GroupClients.committed(admin, "committer-" + g, TOPIC))
                    .isEqualTo(Map.of(0, (long) COMMITS_PER_GROUP - 2, 1, (long) COMMITS_PER_GROUP - 1));
        }
    }

    private static long partitionSize(Admin admin, TopicPartition partition) throws Exception {
        return admin.describeLogDirs(List.of(1)).descriptions().get(1).get(20, TimeUnit.SECONDS).values().stream()
                .map(dir -> dir.replicaInfos().get(partition))
                .filter(info -> info != null)
                .mapToLong(info -> info.size())
                .sum();
    }

    private static KafkaProducer<String, String> producer(String bootstrap) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.LINGER_MS_CONFIG, "2");
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        // the broker refuses a batch larger than segment.bytes, as Kafka does
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, "2048");
        return new KafkaProducer<>(props);
    }

    @Test
    void switchingAnExistingTopicToCompactTakesEffectWithoutRestart() throws Exception {
        try (SpoolProcess spool = SpoolProcess.start("log.cleaner.backoff.ms=100");
             Admin admin = GroupClients.admin(spool.bootstrap())) {
            String topic = "becomes-compacted";
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1).configs(Map.of("segment.bytes", "8192"))))
                    .all().get(20, TimeUnit.SECONDS);
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            try (KafkaProducer<String, String> producer = producer(spool.bootstrap())) {
                for (int round = 0; round < 200; round++) {
                    for (int k = 0; k < 10; k++) {
                        sent.add(producer.send(new ProducerRecord<>(topic, "key-" + k, "value-" + round + "-" + k)));
                    }
                }
                producer.flush();
            }
            for (Future<RecordMetadata> future : sent) {
                future.get();
            }
            TopicPartition partition = new TopicPartition(topic, 0);
            long before = partitionSize(admin, partition);
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, topic), List.of(
                    new AlterConfigOp(new ConfigEntry("cleanup.policy", "compact"), AlterConfigOp.OpType.SET),
                    new AlterConfigOp(new ConfigEntry("min.cleanable.dirty.ratio", "0.01"), AlterConfigOp.OpType.SET))))
                    .all().get(20, TimeUnit.SECONDS);
            long deadline = System.currentTimeMillis() + 30_000;
            while (partitionSize(admin, partition) > before / 4 && System.currentTimeMillis() < deadline) {
                Thread.sleep(200);
            }
            assertThat(partitionSize(admin, partition)).as("compacted from " + before + " bytes")
                    .isLessThanOrEqualTo(before / 4);
        }
    }

    @Test
    void anIdempotentProducersSequenceSurvivesCompactionAndACrash() throws Exception {
        String topic = "compacted-idempotent";
        TopicPartition partition = new TopicPartition(topic, 0);
        SpoolProcess first = SpoolProcess.start("log.cleaner.backoff.ms=100");
        ProducerState before;
        try (Admin admin = GroupClients.admin(first.bootstrap())) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1).configs(Map.of("cleanup.policy", "compact",
                    "segment.bytes", "8192", "min.cleanable.dirty.ratio", "0.01")))).all().get(20, TimeUnit.SECONDS);
            // the idempotent producer writes first; a plain producer then overwrites every key, so
            // compaction empties the idempotent producer's batches and must keep the last one's header
            writeRounds(first.bootstrap(), topic, "true", "idempotent");
            writeRounds(first.bootstrap(), topic, "false", "plain");
            // 1,000 one-record batches of about 80 bytes were written; compacted, at most the active segment remains
            long deadline = System.currentTimeMillis() + 30_000;
            while (partitionSize(admin, partition) > 12 * 1024 && System.currentTimeMillis() < deadline) {
                Thread.sleep(200);
            }
            assertThat(partitionSize(admin, partition)).isLessThanOrEqualTo(12 * 1024);
            before = idempotentProducer(admin, partition);
            assertThat(before.lastSequence()).isEqualTo(50 * 10 - 1);
        }
        first.kill();
        List<String> segments;
        try (Stream<Path> files = Files.list(first.dataDir().resolve(topic + "-0"))) {
            segments = files.map(Path::toString).filter(name -> name.endsWith(".log")).sorted().toList();
        }
        ExternalCommand.Result dump = KafkaTool.run("org.apache.kafka.tools.DumpLogSegments", "--files",
                String.join(",", segments));
        assertThat(dump.output()).as("the producer's last batch, emptied").containsPattern(
                "count: 0 baseSequence: \\d+ lastSequence: " + before.lastSequence() + " producerId: "
                        + before.producerId() + " producerEpoch: " + before.producerEpoch() + " ");
        try (SpoolProcess second = SpoolProcess.startIn(first.dataDir());
             Admin admin = GroupClients.admin(second.bootstrap())) {
            ProducerState after = idempotentProducer(admin, partition);
            assertThat(after.producerId()).isEqualTo(before.producerId());
            assertThat(after.producerEpoch()).isEqualTo(before.producerEpoch());
            assertThat(after.lastSequence()).isEqualTo(before.lastSequence());
        }
    }

    private static void writeRounds(String bootstrap, String topic, String idempotence, String prefix) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, idempotence);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, "2048");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
            for (int round = 0; round < 50; round++) {
                for (int k = 0; k < 10; k++) {
                    producer.send(new ProducerRecord<>(topic, "key-" + k, prefix + "-" + round)).get();
                }
            }
        }
    }

    private static ProducerState idempotentProducer(Admin admin, TopicPartition partition) throws Exception {
        List<ProducerState> producers = admin.describeProducers(List.of(partition)).partitionResult(partition)
                .get(20, TimeUnit.SECONDS).activeProducers();
        assertThat(producers).hasSize(1);
        return producers.get(0);
    }

    @Test
    void aConsumerFromTheBeginningSeesTheLatestValueOfEveryKey() throws Exception {
        try (SpoolProcess spool = SpoolProcess.start("log.cleaner.backoff.ms=100");
             Admin admin = GroupClients.admin(spool.bootstrap())) {
            String topic = "compacted-users";
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1).configs(Map.of("cleanup.policy", "compact",
                    "segment.bytes", "8192", "min.cleanable.dirty.ratio", "0.01", "delete.retention.ms", "100"))))
                    .all().get(20, TimeUnit.SECONDS);
            Map<String, String> latest = new HashMap<>();
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            try (KafkaProducer<String, String> producer = producer(spool.bootstrap())) {
                for (int round = 0; round < 300; round++) {
                    for (int k = 0; k < 20; k++) {
                        String key = "user-" + k;
                        // user-0 is deleted at the end: its tombstone is removed after delete.retention.ms
                        String value = round == 299 && k == 0 ? null : key + "-v" + round;
                        sent.add(producer.send(new ProducerRecord<>(topic, key, value)));
                        latest.put(key, value);
                    }
                }
                producer.flush();
                for (Future<RecordMetadata> future : sent) {
                    future.get();
                }
                assertThatThrownBy(() -> producer.send(new ProducerRecord<>(topic, null, "no key")).get())
                        .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(InvalidRecordException.class);
            }
            TopicPartition partition = new TopicPartition(topic, 0);
            long written = 300 * 20;
            long deadline = System.currentTimeMillis() + 30_000;
            while (partitionSize(admin, partition) > 8 * 1024 && System.currentTimeMillis() < deadline) {
                Thread.sleep(200);
            }
            Map<String, String> seen = new HashMap<>();
            int records = 0;
            try (KafkaConsumer<String, String> consumer = GroupClients.consumer(spool.bootstrap(), "reader", "earliest")) {
                consumer.assign(List.of(partition));
                consumer.seekToBeginning(List.of(partition));
                long end = consumer.endOffsets(List.of(partition)).get(partition);
                while (consumer.position(partition) < end) {
                    for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                        seen.put(record.key(), record.value());
                        records++;
                    }
                }
            }
            for (int k = 1; k < 20; k++) {
                assertThat(seen).containsEntry("user-" + k, latest.get("user-" + k));
            }
            assertThat(seen.get("user-0")).as("user-0 is deleted (tombstone or nothing)").isNull();
            assertThat(records).as("compacted: far fewer records than the " + written + " written")
                    .isLessThan((int) (written / 4));
        }
    }
}

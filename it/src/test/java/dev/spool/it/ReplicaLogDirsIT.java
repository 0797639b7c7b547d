package dev.spool.it;

import static dev.spool.it.MetadataQuorumTool.awaitTrue;
import static dev.spool.it.ReplicatedTopics.admin;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeReplicaLogDirsResult.ReplicaLogDirInfo;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionReplica;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replicas moved between one broker's log dirs (AlterReplicaLogDirs, KIP-113) by Kafka's own
 * {@code kafka-reassign-partitions} with {@code log_dirs}, while an idempotent producer writes to them: the tool's
 * {@code --verify} sees the moves complete, {@code kafka-log-dirs} and the admin client show the replicas in their
 * new dirs, every acknowledged record is read once and in order, and the old directories go.
 */
class ReplicaLogDirsIT {

    private static final String TOOL = "org.apache.kafka.tools.reassign.ReassignPartitionsCommand";
    private static final String TOPIC = "moving";

    @TempDir
    Path work;

    @Test
    void kafkaReassignPartitionsMovesReplicasBetweenLogDirsWhileTheyAreWritten() throws Exception {
        Path first = Files.createDirectories(work.resolve("d1"));
        Path second = Files.createDirectories(work.resolve("d2"));
        try (SpoolProcess broker = SpoolProcess.startIn(first, "log.dirs=" + first + "," + second);
             Admin admin = admin(broker.bootstrap())) {
            int brokerId = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).iterator().next().id();
            admin.createTopics(List.of(new NewTopic(TOPIC, 2, (short) 1)
                    .configs(Map.of("segment.bytes", "65536", "file.delete.delay.ms", "1000"))))
                    .all().get(30, TimeUnit.SECONDS);
            Map<Integer, Path> before = logDirs(admin, brokerId);
            assertThat(before.values()).as("placement spreads the partitions").containsExactlyInAnyOrder(first, second);

            Map<Integer, List<String>> acknowledged = new TreeMap<>();
            AtomicBoolean producing = new AtomicBoolean(true);
            Thread producer = new Thread(() -> produceUntilStopped(broker.bootstrap(), producing, acknowledged));
            producer.start();
            awaitTrue(() -> count(acknowledged) > 10_000, "records acknowledged before the move");

            // Each partition to the other dir; 'log_dirs' makes the tool send AlterReplicaLogDirs.
            Map<Integer, Path> target = Map.of(0, before.get(1), 1, before.get(0));
            StringBuilder plan = new StringBuilder("{\"version\":1,\"partitions\":[");
            for (int partition = 0; partition < 2; partition++) {
                plan.append(partition == 0 ? "" : ",").append("{\"topic\":\"").append(TOPIC)
                        .append("\",\"partition\":").append(partition).append(",\"replicas\":[").append(brokerId)
                        .append("],\"log_dirs\":[\"").append(target.get(partition)).append("\"]}");
            }
            Path planFile = Files.writeString(work.resolve("plan.json"), plan.append("]}").toString(),
                    StandardCharsets.UTF_8);
            ExternalCommand.Result executed = KafkaTool.run(TOOL, "--bootstrap-server", broker.bootstrap(),
                    "--execute", "--reassignment-json-file", planFile.toString());
            assertThat(executed.exitCode()).as(executed.output()).isZero();

            awaitTrue(() -> {
                ExternalCommand.Result verified = KafkaTool.run(TOOL, "--bootstrap-server", broker.bootstrap(),
                        "--verify", "--reassignment-json-file", planFile.toString());
                return verified.output().contains("Reassignment of replica " + TOPIC + "-0-" + brokerId
                        + " completed successfully") && verified.output().contains("Reassignment of replica "
                        + TOPIC + "-1-" + brokerId + " completed successfully");
            }, "kafka-reassign-partitions --verify to say both replicas completed their moves");
            int atMove = count(acknowledged);
            awaitTrue(() -> count(acknowledged) > atMove + 2_000, "records acknowledged after the move");
            producing.set(false);
            producer.join(60_000);

            assertThat(logDirs(admin, brokerId)).isEqualTo(target);
            ExternalCommand.Result described = KafkaTool.run("org.apache.kafka.tools.LogDirsCommand",
                    "--bootstrap-server", broker.bootstrap(), "--describe", "--broker-list", String.valueOf(brokerId),
                    "--topic-list", TOPIC);
            assertThat(described.exitCode()).as(described.output()).isZero();
            assertThat(described.output()).contains("\"partition\":\"" + TOPIC + "-0\"", "\"isFuture\":false");

            Map<Integer, List<String>> read = readAll(broker.bootstrap(), count(acknowledged));
            assertThat(read).as("every acknowledged record once, in the order acknowledged, per partition")
                    .isEqualTo(acknowledged);
            for (Path logDir : List.of(first, second)) {
                awaitTrue(() -> directories(logDir).stream().noneMatch(name -> name.endsWith("-delete")),
                        "the replaced logs in " + logDir + " removed after file.delete.delay.ms");
            }
            assertThat(directories(target.get(0))).contains(TOPIC + "-0");
            assertThat(directories(target.get(1))).contains(TOPIC + "-1");
        }
    }

    /** The log dir of each partition of the topic on {@code brokerId}, as DescribeLogDirs reports it. */
    private static Map<Integer, Path> logDirs(Admin admin, int brokerId) throws Exception {
        Map<Integer, Path> dirs = new TreeMap<>();
        List<TopicPartitionReplica> replicas = List.of(new TopicPartitionReplica(TOPIC, 0, brokerId),
                new TopicPartitionReplica(TOPIC, 1, brokerId));
        Map<TopicPartitionReplica, ReplicaLogDirInfo> infos = admin.describeReplicaLogDirs(replicas).all()
                .get(30, TimeUnit.SECONDS);
        infos.forEach((replica, info) -> {
            assertThat(info.getFutureReplicaLogDir()).as("no move under way").isNull();
            dirs.put(replica.partition(), Path.of(info.getCurrentReplicaLogDir()));
        });
        return dirs;
    }

    /** Idempotent acks=all sends, round robin over both partitions; each partition's values in the order acknowledged. */
    private static void produceUntilStopped(String bootstrap, AtomicBoolean producing,
                                            Map<Integer, List<String>> acknowledged) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap,
                "acks", "all", "enable.idempotence", "true", "linger.ms", "2", "delivery.timeout.ms", "60000"),
                new StringSerializer(), new StringSerializer())) {
            for (int i = 0; producing.get(); i++) {
                int partition = i % 2;
                String value = "value-" + i + "-" + "x".repeat(100);
                producer.send(new ProducerRecord<>(TOPIC, partition, null, value), (metadata, error) -> {
                    if (error == null) {
                        synchronized (acknowledged) {
                            acknowledged.computeIfAbsent(partition, p -> new ArrayList<>()).add(value);
                        }
                    }
                });
                if (i % 1_000 == 999) {
                    producer.flush(); // a bounded backlog: what is acknowledged follows what is sent
                }
            }
            producer.flush();
        }
    }

    private static int count(Map<Integer, List<String>> values) {
        synchronized (values) {
            return values.values().stream().mapToInt(List::size).sum();
        }
    }

    /** Each partition's values from the earliest offset, once {@code expected} were read (and a last poll). */
    private static Map<Integer, List<String>> readAll(String bootstrap, int expected) {
        Map<Integer, List<String>> read = new TreeMap<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", bootstrap,
                "auto.offset.reset", "earliest", "enable.auto.commit", "false"), new StringDeserializer(),
                new StringDeserializer())) {
            consumer.assign(List.of(new TopicPartition(TOPIC, 0), new TopicPartition(TOPIC, 1)));
            int total = 0;
            long deadline = System.currentTimeMillis() + MetadataQuorumTool.AWAIT_MS;
            while (total < expected && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    read.computeIfAbsent(record.partition(), p -> new ArrayList<>()).add(record.value());
                    total++;
                }
            }
            for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofSeconds(1))) {
                read.computeIfAbsent(record.partition(), p -> new ArrayList<>()).add(record.value());
            }
        }
        return read;
    }

    private static List<String> directories(Path logDir) throws Exception {
        try (Stream<Path> entries = Files.list(logDir)) {
            return entries.filter(Files::isDirectory).map(path -> path.getFileName().toString()).toList();
        }
    }
}

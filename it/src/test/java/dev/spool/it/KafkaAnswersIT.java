package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConsumerGroupOffsetsResult;
import org.apache.kafka.clients.admin.DeleteRecordsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.PolicyViolationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Answers in which Spool used to differ from Kafka 4.4, each checked with the Java client and with kafkajs
 * or kcat where the client has the operation: acks=all on a topic whose {@code min.insync.replicas} exceeds
 * its replication factor, DeleteRecords on a compact-only topic (kafkajs: {@link KafkajsAdminIT}), offset
 * commits naming partitions that do not exist.
 */
class KafkaAnswersIT {

    private static final long TIMEOUT_SECONDS = 60;

    @RegisterExtension
    static final SharedSpoolProcess SPOOL = new SharedSpoolProcess("group.initial.rebalance.delay.ms=0");

    private static String bootstrap() {
        return SPOOL.process().bootstrap();
    }

    private static long endOffset(Admin admin, TopicPartition partition) throws Exception {
        return admin.listOffsets(Map.of(partition, OffsetSpec.latest())).partitionResult(partition)
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS).offset();
    }

    private static long startOffset(Admin admin, TopicPartition partition) throws Exception {
        return admin.listOffsets(Map.of(partition, OffsetSpec.earliest())).partitionResult(partition)
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS).offset();
    }

    /** Kafka caps the minimum at the replication factor (1 here), so acks=all succeeds at once. */
    @Test
    void acksAllIsAcceptedWhenMinInsyncReplicasExceedsTheReplicationFactor() throws Exception {
        String topic = "min-isr-two";
        ProduceIT.createTopic(bootstrap(), topic, 1, Map.of("min.insync.replicas", "2"));
        // NOT_ENOUGH_REPLICAS is retriable: bounded delivery times turn a refusal into a failure, not a long wait.
        try (KafkaProducer<String, String> producer = ProduceIT.producer(bootstrap(), Map.of(
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 10_000))) {
            assertThat(producer.send(new ProducerRecord<>(topic, "java")).get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .offset()).isZero();
        }
        ExternalCommand.Result kafkajs = ExternalCommand.run(SpoolProcess.repositoryRoot().resolve("it/js"), 90,
                "node", "produce.js", bootstrap(), topic);
        assertThat(kafkajs.exitCode()).as(kafkajs.output()).isZero();
        Path input = Files.createTempFile("kcat-acks-all", ".txt");
        try {
            Files.writeString(input, "kcat\n", StandardCharsets.UTF_8);
            ExternalCommand.Result kcat = ExternalCommand.run(SpoolProcess.repositoryRoot(), 60, "kcat", "-P", "-l",
                    "-b", bootstrap(), "-t", topic, "-X", "acks=all", "-X", "message.timeout.ms=10000",
                    input.toString());
            assertThat(kcat.exitCode()).as(kcat.output()).isZero();
        } finally {
            Files.delete(input);
        }
        try (Admin admin = ProduceIT.admin(bootstrap())) {
            // one from Java, eight from produce.js, one from kcat
            assertThat(endOffset(admin, new TopicPartition(topic, 0))).isEqualTo(10);
        }
    }

    /** Kafka refuses to delete records of a topic that is compacted only; compact,delete allows it. */
    @Test
    void deleteRecordsOnACompactOnlyTopicIsAPolicyViolation() throws Exception {
        TopicPartition compactOnly = new TopicPartition("compact-only", 0);
        TopicPartition compactAndDelete = new TopicPartition("compact-and-delete", 0);
        ProduceIT.createTopic(bootstrap(), compactOnly.topic(), 1, Map.of("cleanup.policy", "compact"));
        ProduceIT.createTopic(bootstrap(), compactAndDelete.topic(), 1, Map.of("cleanup.policy", "compact,delete"));
        try (KafkaProducer<String, String> producer = ProduceIT.producer(bootstrap(), Map.of())) {
            for (int i = 0; i < 5; i++) {
                producer.send(new ProducerRecord<>(compactOnly.topic(), "key-" + i, "value-" + i));
                producer.send(new ProducerRecord<>(compactAndDelete.topic(), "key-" + i, "value-" + i));
            }
            producer.flush();
        }
        try (Admin admin = ProduceIT.admin(bootstrap())) {
            DeleteRecordsResult result = admin.deleteRecords(Map.of(
                    compactOnly, RecordsToDelete.beforeOffset(2), compactAndDelete, RecordsToDelete.beforeOffset(2)));
            assertThatThrownBy(() -> result.lowWatermarks().get(compactOnly).get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(PolicyViolationException.class);
            assertThat(result.lowWatermarks().get(compactAndDelete).get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .lowWatermark()).isEqualTo(2);
            assertThat(startOffset(admin, compactOnly)).isZero();
            assertThat(startOffset(admin, compactAndDelete)).isEqualTo(2);
        }
    }

    /**
     * Kafka answers UNKNOWN_TOPIC_OR_PARTITION for each partition of an offset commit that does not exist, and
     * stores the others: for the simple commit of an admin tool (no member, generation -1) and for a member of a
     * group.
     */
    @Test
    void offsetCommitsOfPartitionsThatDoNotExistAreUnknownTopicOrPartition() throws Exception {
        TopicPartition existing = new TopicPartition("committed", 0);
        TopicPartition missingPartition = new TopicPartition("committed", 5);
        TopicPartition missingTopic = new TopicPartition("never-created", 0);
        ProduceIT.createTopic(bootstrap(), existing.topic(), 1, Map.of());
        try (Admin admin = ProduceIT.admin(bootstrap())) {
            AlterConsumerGroupOffsetsResult simple = admin.alterConsumerGroupOffsets("simple-committer", Map.of(
                    existing, new OffsetAndMetadata(3), missingPartition, new OffsetAndMetadata(4),
                    missingTopic, new OffsetAndMetadata(5)));
            simple.partitionResult(existing).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            for (TopicPartition missing : List.of(missingPartition, missingTopic)) {
                assertThatThrownBy(() -> simple.partitionResult(missing).get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                        .as(missing.toString()).isInstanceOf(ExecutionException.class)
                        .hasCauseInstanceOf(UnknownTopicOrPartitionException.class);
            }
            assertThat(committed(admin, "simple-committer")).containsExactly(Map.entry(existing, 3L));

            try (KafkaConsumer<String, String> member = GroupClients.consumer(bootstrap(), "member-committer",
                    "earliest")) {
                member.subscribe(List.of(existing.topic()));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
                while (member.assignment().isEmpty() && System.nanoTime() < deadline) {
                    member.poll(Duration.ofMillis(100));
                }
                assertThat(member.assignment()).containsExactly(existing);
                CompletableFuture<Exception> answer = new CompletableFuture<>();
                member.commitAsync(Map.of(missingPartition, new OffsetAndMetadata(1), missingTopic,
                        new OffsetAndMetadata(1)), (offsets, exception) -> answer.complete(exception));
                while (!answer.isDone() && System.nanoTime() < deadline) {
                    member.poll(Duration.ofMillis(100));
                }
                assertThat(answer.getNow(null)).as("the commit's answer").isNotNull()
                        .hasCauseInstanceOf(UnknownTopicOrPartitionException.class);
                member.commitSync(Map.of(existing, new OffsetAndMetadata(2)));
            }
            assertThat(committed(admin, "member-committer")).containsExactly(Map.entry(existing, 2L));
        }
    }

    private static Map<TopicPartition, Long> committed(Admin admin, String group) throws Exception {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .forEach((partition, offset) -> offsets.put(partition, offset.offset()));
        return offsets;
    }
}

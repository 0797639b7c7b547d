package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * A broker restarted on the same data directory keeps every topic (with its id), partition count,
 * topic config override and dynamic broker setting.
 */
class RestartKeepsMetadataIT {

    private static Admin admin(SpoolProcess spool) {
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, spool.bootstrap());
        return Admin.create(properties);
    }

    private static AlterConfigOp set(String name, String value) {
        return new AlterConfigOp(new ConfigEntry(name, value), AlterConfigOp.OpType.SET);
    }

    private static final ConfigResource KEPT = new ConfigResource(ConfigResource.Type.TOPIC, "kept");
    private static final ConfigResource CLUSTER = new ConfigResource(ConfigResource.Type.BROKER, "");
    private static final TopicPartition KEPT_0 = new TopicPartition("kept", 0);

    @Test
    void restartKeepsTopicsPartitionsAndConfigs() throws Exception {
        Path dataDir = Files.createTempDirectory("spool-restart-it-");
        Uuid keptId;
        // The first broker is stopped, not closed: close() would delete the data directory.
        SpoolProcess first = SpoolProcess.startIn(dataDir);
        try (Admin admin = admin(first)) {
            admin.createTopics(List.of(new NewTopic("kept", 3, (short) 1).configs(Map.of("retention.ms", "123456")),
                    new NewTopic("gone", 1, (short) 1))).all().get(20, TimeUnit.SECONDS);
            admin.createPartitions(Map.of("kept", NewPartitions.increaseTo(5))).all().get(20, TimeUnit.SECONDS);
            admin.incrementalAlterConfigs(Map.of(KEPT, List.of(set("cleanup.policy", "compact,delete")),
                    CLUSTER, List.of(set("log.retention.bytes", "987654321")))).all().get(20, TimeUnit.SECONDS);
            admin.deleteTopics(List.of("gone")).all().get(20, TimeUnit.SECONDS);
            produce(first, 10);
            admin.deleteRecords(Map.of(KEPT_0, RecordsToDelete.beforeOffset(3))).all().get(20, TimeUnit.SECONDS);
            keptId = admin.describeTopics(List.of("kept")).allTopicNames().get(20, TimeUnit.SECONDS).get("kept")
                    .topicId();
        } finally {
            first.stop();
        }
        try (SpoolProcess second = SpoolProcess.startIn(dataDir); Admin admin = admin(second)) {
            assertThat(admin.listTopics().names().get(20, TimeUnit.SECONDS)).contains("kept").doesNotContain("gone");
            TopicDescription kept = admin.describeTopics(List.of("kept")).allTopicNames().get(20, TimeUnit.SECONDS)
                    .get("kept");
            assertThat(kept.topicId()).isEqualTo(keptId);
            assertThat(kept.partitions()).hasSize(5);

            Config configs = admin.describeConfigs(List.of(KEPT)).all().get(20, TimeUnit.SECONDS).get(KEPT);
            assertThat(configs.get("retention.ms").value()).isEqualTo("123456");
            assertThat(configs.get("retention.ms").source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
            assertThat(configs.get("cleanup.policy").value()).isEqualTo("compact,delete");
            assertThat(configs.get("retention.bytes").value()).isEqualTo("987654321");
            assertThat(configs.get("retention.bytes").source())
                    .isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);

            assertThat(offset(admin, OffsetSpec.latest())).isEqualTo(10);
        }
    }

    @Test
    void restartKeepsTheLogStartOffsetThatDeleteRecordsMoved() throws Exception {
        Path dataDir = Files.createTempDirectory("spool-restart-it-");
        SpoolProcess first = SpoolProcess.startIn(dataDir);
        try (Admin admin = admin(first)) {
            admin.createTopics(List.of(new NewTopic("kept", 1, (short) 1))).all().get(20, TimeUnit.SECONDS);
            produce(first, 10);
            admin.deleteRecords(Map.of(KEPT_0, RecordsToDelete.beforeOffset(3))).all().get(20, TimeUnit.SECONDS);
        } finally {
            first.stop();
        }
        try (SpoolProcess second = SpoolProcess.startIn(dataDir); Admin admin = admin(second)) {
            assertThat(offset(admin, OffsetSpec.earliest())).isEqualTo(3);
        }
    }

    private static long offset(Admin admin, OffsetSpec spec) throws Exception {
        return admin.listOffsets(Map.of(KEPT_0, spec)).partitionResult(KEPT_0).get(20, TimeUnit.SECONDS).offset();
    }

    private static void produce(SpoolProcess spool, int count) throws Exception {
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, spool.bootstrap());
        properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties)) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>("kept", 0, "key-" + i, "value-" + i)).get(20, TimeUnit.SECONDS);
            }
        }
    }
}

package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.AlterConfigsOptions;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConfigEntry.ConfigSource;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Topic and broker configs through the Java Admin client of Kafka 4.4 (DescribeConfigs v4,
 * IncrementalAlterConfigs v1, CreateTopics v7 configs), against a broker started with
 * {@code log.retention.hours=100} and {@code message.max.bytes=2000000} in its static settings.
 */
class ConfigsIT {

    private static SpoolProcess spool;
    private static Admin admin;

    @BeforeAll
    static void start() throws Exception {
        spool = SpoolProcess.start("log.retention.hours=100", "message.max.bytes=2000000");
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, spool.bootstrap());
        admin = Admin.create(properties);
    }

    @AfterAll
    static void stop() throws Exception {
        if (admin != null) {
            admin.close();
        }
        if (spool != null) {
            spool.close();
        }
    }

    private static ConfigResource topic(String name) {
        return new ConfigResource(ConfigResource.Type.TOPIC, name);
    }

    private static Config describe(ConfigResource resource) throws Exception {
        return admin.describeConfigs(List.of(resource), new DescribeConfigsOptions().includeSynonyms(true)
                .includeDocumentation(true)).all().get(20, TimeUnit.SECONDS).get(resource);
    }

    private static void alter(ConfigResource resource, AlterConfigOp... ops) throws Exception {
        admin.incrementalAlterConfigs(Map.of(resource, List.of(ops))).all().get(20, TimeUnit.SECONDS);
    }

    private static AlterConfigOp set(String name, String value) {
        return new AlterConfigOp(new ConfigEntry(name, value), AlterConfigOp.OpType.SET);
    }

    private static void create(String name, Map<String, String> configs) throws Exception {
        admin.createTopics(List.of(new NewTopic(name, 1, (short) 1).configs(configs))).all().get(20, TimeUnit.SECONDS);
    }

    @Test
    void createTopicsAnswersWithTheNewTopicsConfigs() throws Exception {
        CreateTopicsResult result = admin.createTopics(List.of(new NewTopic("cfg-created", 2, (short) 1)
                .configs(Map.of("retention.ms", "1000", "cleanup.policy", "compact"))));

        Config config = result.config("cfg-created").get(20, TimeUnit.SECONDS);
        assertThat(config.get("retention.ms").value()).isEqualTo("1000");
        assertThat(config.get("retention.ms").source()).isEqualTo(ConfigSource.DYNAMIC_TOPIC_CONFIG);
        assertThat(config.get("cleanup.policy").value()).isEqualTo("compact");
        assertThat(config.get("max.message.bytes").value()).isEqualTo("2000000");
        assertThat(config.get("max.message.bytes").source()).isEqualTo(ConfigSource.STATIC_BROKER_CONFIG);
        assertThat(config.get("segment.bytes").source()).isEqualTo(ConfigSource.DEFAULT_CONFIG);
        assertThat(result.numPartitions("cfg-created").get()).isEqualTo(2);
    }

    @Test
    void describeTopicGivesValuesSourcesSynonymsTypesAndDocs() throws Exception {
        create("cfg-described", Map.of("cleanup.policy", "compact"));

        Config config = describe(topic("cfg-described"));

        ConfigEntry policy = config.get("cleanup.policy");
        assertThat(policy.value()).isEqualTo("compact");
        assertThat(policy.source()).isEqualTo(ConfigSource.DYNAMIC_TOPIC_CONFIG);
        assertThat(policy.type()).isEqualTo(ConfigEntry.ConfigType.LIST);
        assertThat(policy.isReadOnly()).isFalse();
        assertThat(policy.isSensitive()).isFalse();
        assertThat(policy.documentation()).isNotBlank();
        assertThat(policy.synonyms()).extracting(ConfigEntry.ConfigSynonym::name, ConfigEntry.ConfigSynonym::source)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("cleanup.policy", ConfigSource.DYNAMIC_TOPIC_CONFIG),
                        org.assertj.core.groups.Tuple.tuple("log.cleanup.policy", ConfigSource.DEFAULT_CONFIG));
        ConfigEntry maxBytes = config.get("max.message.bytes");
        assertThat(maxBytes.value()).isEqualTo("2000000");
        assertThat(maxBytes.source()).isEqualTo(ConfigSource.STATIC_BROKER_CONFIG);
        assertThat(maxBytes.type()).isEqualTo(ConfigEntry.ConfigType.INT);
        // log.retention.hours=100 gives retention.ms its value; Kafka 4.4 still reports DEFAULT_CONFIG here.
        assertThat(config.get("retention.ms").value()).isEqualTo("360000000");
        assertThat(config.get("retention.ms").source()).isEqualTo(ConfigSource.DEFAULT_CONFIG);
        assertThat(config.get("segment.bytes").value()).isEqualTo("1073741824");
    }

    @Test
    void describeBrokerGivesItsSettingsAndWhichAreDynamic() throws Exception {
        Config config = describe(new ConfigResource(ConfigResource.Type.BROKER, "1"));

        ConfigEntry hours = config.get("log.retention.hours");
        assertThat(hours.value()).isEqualTo("100");
        assertThat(hours.source()).isEqualTo(ConfigSource.STATIC_BROKER_CONFIG);
        assertThat(hours.isReadOnly()).isTrue();
        ConfigEntry segmentBytes = config.get("log.segment.bytes");
        assertThat(segmentBytes.source()).isEqualTo(ConfigSource.DEFAULT_CONFIG);
        assertThat(segmentBytes.isReadOnly()).isFalse();
        assertThat(config.get("node.id").value()).isEqualTo("1");
        assertThat(config.get("num.partitions").isReadOnly()).isTrue();
    }

    @Test
    void incrementalAlterSetsDeletesAppendsAndSubtracts() throws Exception {
        create("cfg-altered", Map.of("retention.ms", "1000"));
        ConfigResource resource = topic("cfg-altered");

        alter(resource, set("segment.bytes", "1048576"),
                new AlterConfigOp(new ConfigEntry("retention.ms", null), AlterConfigOp.OpType.DELETE),
                new AlterConfigOp(new ConfigEntry("cleanup.policy", "compact"), AlterConfigOp.OpType.APPEND));

        Config altered = describe(resource);
        assertThat(altered.get("segment.bytes").value()).isEqualTo("1048576");
        assertThat(altered.get("segment.bytes").source()).isEqualTo(ConfigSource.DYNAMIC_TOPIC_CONFIG);
        assertThat(altered.get("retention.ms").value()).isEqualTo("360000000");
        assertThat(altered.get("retention.ms").source()).isEqualTo(ConfigSource.DEFAULT_CONFIG);
        assertThat(altered.get("cleanup.policy").value()).isEqualTo("delete,compact");

        alter(resource, new AlterConfigOp(new ConfigEntry("cleanup.policy", "delete"), AlterConfigOp.OpType.SUBTRACT));
        assertThat(describe(resource).get("cleanup.policy").value()).isEqualTo("compact");
    }

    @Test
    void validateOnlyChangesNothing() throws Exception {
        create("cfg-validated", Map.of());
        ConfigResource resource = topic("cfg-validated");

        admin.incrementalAlterConfigs(Map.of(resource, List.of(set("retention.ms", "5000"))),
                new AlterConfigsOptions().validateOnly(true)).all().get(20, TimeUnit.SECONDS);

        assertThat(describe(resource).get("retention.ms").source()).isEqualTo(ConfigSource.DEFAULT_CONFIG);
    }

    @Test
    void invalidChangesAreRejectedWithTheProblemNamed() throws Exception {
        create("cfg-rejected", Map.of());
        ConfigResource resource = topic("cfg-rejected");

        assertThatThrownBy(() -> alter(resource, set("retention.ms", "soon")))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("retention.ms");
        assertThatThrownBy(() -> alter(resource, set("retention.weeks", "2")))
                .cause().isInstanceOf(InvalidConfigurationException.class)
                .hasMessage("Unknown topic config name: retention.weeks");
        assertThatThrownBy(() -> alter(resource, new AlterConfigOp(new ConfigEntry("retention.ms", "1"),
                AlterConfigOp.OpType.APPEND)))
                .cause().isInstanceOf(InvalidConfigurationException.class)
                .hasMessage("Can't APPEND to key retention.ms because its type is not LIST.");
        assertThatThrownBy(() -> alter(topic("cfg-missing"), set("retention.ms", "5")))
                .cause().isInstanceOf(UnknownTopicOrPartitionException.class);
        assertThatThrownBy(() -> describe(topic("cfg-missing")))
                .cause().isInstanceOf(UnknownTopicOrPartitionException.class);
        assertThatThrownBy(() -> alter(new ConfigResource(ConfigResource.Type.BROKER, "1"), set("num.partitions", "3")))
                .cause().isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot update these configs dynamically: [num.partitions]");
        assertThat(describe(resource).get("retention.ms").source()).isEqualTo(ConfigSource.DEFAULT_CONFIG);
    }

    @Test
    void kafkasSettingsForFeaturesSpoolLacksAreKeptAndCheckedAsKafkaChecksThem() throws Exception {
        create("cfg-kafka-4-4", Map.of("compression.zstd.level", "7", "leader.replication.throttled.replicas", "0:1"));
        ConfigResource resource = topic("cfg-kafka-4-4");
        Config config = describe(resource);
        assertThat(config.get("compression.zstd.level").value()).isEqualTo("7");
        assertThat(config.get("compression.zstd.level").source()).isEqualTo(ConfigSource.DYNAMIC_TOPIC_CONFIG);
        assertThat(config.get("compression.zstd.level").type()).isEqualTo(ConfigEntry.ConfigType.INT);
        assertThat(config.get("local.retention.ms").value()).isEqualTo("-2");
        assertThat(config.get("local.retention.ms").synonyms()).extracting(ConfigEntry.ConfigSynonym::name)
                .containsExactly("log.local.retention.ms");
        assertThat(config.get("remote.storage.enable").value()).isEqualTo("false");
        assertThat(config.get("leader.replication.throttled.replicas").type()).isEqualTo(ConfigEntry.ConfigType.LIST);

        alter(resource, new AlterConfigOp(new ConfigEntry("leader.replication.throttled.replicas", "1:1"),
                AlterConfigOp.OpType.APPEND));
        assertThat(describe(resource).get("leader.replication.throttled.replicas").value()).isEqualTo("0:1,1:1");

        assertThatThrownBy(() -> alter(resource, set("remote.storage.enable", "true")))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("tiered storage");
        assertThatThrownBy(() -> create("cfg-gzip-0", Map.of("compression.gzip.level", "0")))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("compression.gzip.level");
        assertThat(describe(resource).get("remote.storage.enable").value()).isEqualTo("false");
    }

    @Test
    void dynamicBrokerDefaultsApplyToTopicsWithoutAnOverride() throws Exception {
        create("cfg-broker-default", Map.of());
        ConfigResource clusterDefault = new ConfigResource(ConfigResource.Type.BROKER, "");
        try {
            alter(clusterDefault, set("log.retention.bytes", "123456789"));

            ConfigEntry retentionBytes = describe(topic("cfg-broker-default")).get("retention.bytes");
            assertThat(retentionBytes.value()).isEqualTo("123456789");
            assertThat(retentionBytes.source()).isEqualTo(ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
            Collection<ConfigEntry> defaults = describe(clusterDefault).entries();
            assertThat(defaults).extracting(ConfigEntry::name).containsExactly("log.retention.bytes");
        } finally {
            alter(clusterDefault, new AlterConfigOp(new ConfigEntry("log.retention.bytes", null),
                    AlterConfigOp.OpType.DELETE));
        }
        assertThat(describe(topic("cfg-broker-default")).get("retention.bytes").value()).isEqualTo("-1");
    }
}

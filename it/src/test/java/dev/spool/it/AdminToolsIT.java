package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kafka 4.4's own admin tools against Spool, run as their main classes the way kafka-topics.sh,
 * kafka-configs.sh, kafka-delete-records.sh, kafka-get-offsets.sh and kafka-log-dirs.sh run them.
 */
class AdminToolsIT {

    private static final String TOPICS = "org.apache.kafka.tools.TopicCommand";
    private static final String CONFIGS = "org.apache.kafka.tools.ConfigCommand";
    private static final String DELETE_RECORDS = "org.apache.kafka.tools.DeleteRecordsCommand";
    private static final String GET_OFFSETS = "org.apache.kafka.tools.GetOffsetShell";
    private static final String LOG_DIRS = "org.apache.kafka.tools.LogDirsCommand";
    private static final String METADATA_QUORUM = "org.apache.kafka.tools.MetadataQuorumCommand";

    @RegisterExtension
    static final SharedSpoolProcess SPOOL = new SharedSpoolProcess();

    private static ExternalCommand.Result tool(String mainClass, String... args) throws Exception {
        String[] withBootstrap = new String[args.length + 2];
        withBootstrap[0] = "--bootstrap-server";
        withBootstrap[1] = SPOOL.process().bootstrap();
        System.arraycopy(args, 0, withBootstrap, 2, args.length);
        ExternalCommand.Result result = KafkaTool.run(mainClass, withBootstrap);
        assertThat(result.exitCode()).as(result.output()).isZero();
        return result;
    }

    @Test
    void kafkaFeaturesDescribesTheMetadataVersionAndTheStaticQuorum() throws Exception {
        String features = tool("org.apache.kafka.tools.FeatureCommand", "describe").output();
        assertThat(features.lines().filter(line -> line.startsWith("Feature: metadata.version")).findFirst())
                .hasValueSatisfying(line -> assertThat(line).contains("FinalizedVersionLevel: 3.3-IV3"));
        assertThat(features.lines().filter(line -> line.startsWith("Feature: kraft.version")).findFirst())
                .hasValueSatisfying(line -> assertThat(line).contains("FinalizedVersionLevel: 0"));
    }

    @Test
    void kafkaMetadataQuorumShowsThisNodeAsLeaderAndOnlyVoter() throws Exception {
        tool(TOPICS, "--create", "--topic", "quorum-topic", "--partitions", "1");

        String status = tool(METADATA_QUORUM, "describe", "--status").output();
        assertThat(status).containsPattern("LeaderId:\\s+1\\b").containsPattern("MaxFollowerLag:\\s+0\\b")
                .containsPattern("CurrentVoters:\\s+\\[\\{\"id\": 1, ").containsPattern("CurrentObservers:\\s+\\[\\]");
        long highWatermark = Long.parseLong(status.replaceAll("(?s).*HighWatermark:\\s+(\\d+).*", "$1"));
        assertThat(highWatermark).as("the topic's records are in the metadata log").isPositive();

        String replication = tool(METADATA_QUORUM, "describe", "--replication").output();
        assertThat(replication).containsPattern("(?m)^1\\s+\\S+\\s+" + highWatermark + "\\s+0\\s+\\d+\\s+\\d+\\s+Leader");
    }

    @Test
    void kafkaTopicsCreatesAndDescribesWithLeaderReplicasIsrAndConfigs() throws Exception {
        assertThat(tool(TOPICS, "--create", "--topic", "tool-topic", "--partitions", "2",
                "--config", "retention.ms=100000").output()).contains("Created topic tool-topic.");

        String described = tool(TOPICS, "--describe", "--topic", "tool-topic").output();

        assertThat(described).contains("Topic: tool-topic\tTopicId: ").contains("PartitionCount: 2")
                .contains("ReplicationFactor: 1").contains("Configs: retention.ms=100000")
                .contains("Topic: tool-topic\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1")
                .contains("Topic: tool-topic\tPartition: 1\tLeader: 1\tReplicas: 1\tIsr: 1");
    }

    @Test
    void kafkaTopicsDescribesPartitionsAsTheSeedShowsThem() throws Exception {
        tool(TOPICS, "--create", "--topic", "orders", "--partitions", "3");

        String described = tool(TOPICS, "--describe", "--topic", "orders").output();

        // DescribeTopicPartitions (KIP-966) answers, so the tool prints the eligible leader replicas, empty.
        assertThat(described)
                .contains("Topic: orders\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1\tElr: \tLastKnownElr: ")
                .contains("Topic: orders\tPartition: 2\tLeader: 1\tReplicas: 1\tIsr: 1\tElr: \tLastKnownElr: ");
    }

    @Test
    void kafkaTopicsAltersPartitionsAndDeletes() throws Exception {
        tool(TOPICS, "--create", "--topic", "grown", "--partitions", "2");

        tool(TOPICS, "--alter", "--topic", "grown", "--partitions", "5");
        assertThat(tool(TOPICS, "--describe", "--topic", "grown").output()).contains("PartitionCount: 5")
                .contains("Topic: grown\tPartition: 4\tLeader: 1\tReplicas: 1\tIsr: 1");

        tool(TOPICS, "--delete", "--topic", "grown");
        assertThat(tool(TOPICS, "--list").output()).doesNotContain("grown");
    }

    @Test
    void kafkaTopicsDescribesEveryTopicPageByPage() throws Exception {
        for (String topic : new String[] {"page-a", "page-b"}) {
            tool(TOPICS, "--create", "--topic", topic, "--partitions", "3");
        }

        String described = tool(TOPICS, "--describe", "--partition-size-limit-per-response", "2").output();

        for (String topic : new String[] {"page-a", "page-b"}) {
            for (int partition = 0; partition < 3; partition++) {
                assertThat(described).contains("Topic: " + topic + "\tPartition: " + partition + "\tLeader: 1");
            }
        }
    }

    @Test
    void kafkaConfigsAltersAndDescribesTopicConfigs() throws Exception {
        tool(TOPICS, "--create", "--topic", "tool-configs", "--config", "retention.ms=100000");

        assertThat(tool(CONFIGS, "--alter", "--entity-type", "topics", "--entity-name", "tool-configs",
                "--add-config", "segment.bytes=2000000,cleanup.policy=[compact,delete]").output())
                .contains("Completed updating config for topic tool-configs.");
        tool(CONFIGS, "--alter", "--entity-type", "topics", "--entity-name", "tool-configs",
                "--delete-config", "retention.ms");

        String dynamic = tool(CONFIGS, "--describe", "--entity-type", "topics", "--entity-name", "tool-configs")
                .output();
        assertThat(dynamic).contains("Dynamic configs for topic tool-configs are:")
                .contains("segment.bytes=2000000 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:segment.bytes=2000000, "
                        + "DEFAULT_CONFIG:log.segment.bytes=1073741824}")
                .contains("cleanup.policy=compact,delete sensitive=false")
                .doesNotContain("retention.ms=");
        String all = tool(CONFIGS, "--describe", "--all", "--entity-type", "topics", "--entity-name", "tool-configs")
                .output();
        assertThat(all).contains("All configs for topic tool-configs are:")
                .contains("retention.ms=604800000 sensitive=false synonyms={}")
                .contains("max.message.bytes=1048588 sensitive=false synonyms={DEFAULT_CONFIG:message.max.bytes=1048588}");
    }

    @Test
    void kafkaConfigsAltersAndDescribesBrokerConfigs() throws Exception {
        tool(CONFIGS, "--alter", "--entity-type", "brokers", "--entity-default", "--add-config",
                "log.retention.bytes=5000000000");
        try {
            assertThat(tool(CONFIGS, "--describe", "--entity-type", "brokers", "--entity-default").output())
                    .contains("Default configs for brokers in the cluster are:")
                    .contains("log.retention.bytes=5000000000 sensitive=false "
                            + "synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:log.retention.bytes=5000000000}");
            assertThat(tool(CONFIGS, "--describe", "--all", "--entity-type", "brokers", "--entity-name", "1").output())
                    .contains("All configs for broker 1 are:")
                    .contains("log.retention.bytes=5000000000 sensitive=false")
                    .contains("num.partitions=1 sensitive=false synonyms={DEFAULT_CONFIG:num.partitions=1}");
        } finally {
            tool(CONFIGS, "--alter", "--entity-type", "brokers", "--entity-default", "--delete-config",
                    "log.retention.bytes");
        }

        ExternalCommand.Result refused = KafkaTool.run(CONFIGS, "--bootstrap-server", SPOOL.process().bootstrap(), "--alter",
                "--entity-type", "brokers", "--entity-name", "1", "--add-config", "num.partitions=3");
        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.output()).contains("Cannot update these configs dynamically: [num.partitions]");
    }

    @Test
    void kafkaDeleteRecordsMovesTheLowWatermark() throws Exception {
        tool(TOPICS, "--create", "--topic", "tool-trimmed");
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SPOOL.process().bootstrap());
        properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties)) {
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>("tool-trimmed", 0, "key-" + i, "value-" + i)).get(20, TimeUnit.SECONDS);
            }
        }
        Path offsets = Files.createTempFile("delete-records-", ".json");
        try {
            Files.writeString(offsets, "{\"partitions\":[{\"topic\":\"tool-trimmed\",\"partition\":0,\"offset\":3}],"
                    + "\"version\":1}", StandardCharsets.UTF_8);

            assertThat(tool(DELETE_RECORDS, "--offset-json-file", offsets.toString()).output())
                    .contains("partition: tool-trimmed-0\tlow_watermark: 3");
        } finally {
            Files.deleteIfExists(offsets);
        }
        assertThat(tool(GET_OFFSETS, "--topic", "tool-trimmed", "--time", "-2").output()).contains("tool-trimmed:0:3");
        assertThat(tool(GET_OFFSETS, "--topic", "tool-trimmed", "--time", "-1").output()).contains("tool-trimmed:0:10");
    }

    @Test
    void kafkaLogDirsDescribesTheDirectoryAndItsPartitions() throws Exception {
        tool(TOPICS, "--create", "--topic", "tool-dirs", "--partitions", "2");

        String described = tool(LOG_DIRS, "--describe", "--broker-list", "1", "--topic-list", "tool-dirs").output();

        assertThat(described).contains("{\"broker\":1,\"logDirs\":[{")
                .contains("{\"partition\":\"tool-dirs-0\",\"size\":0,\"offsetLag\":0,\"isFuture\":false}")
                .contains("{\"partition\":\"tool-dirs-1\",\"size\":0,\"offsetLag\":0,\"isFuture\":false}")
                .contains("\"error\":null,\"logDir\":\"" + SPOOL.process().dataDir().toAbsolutePath().normalize() + "\"");
    }
}

package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/spool server --config server.properties} with a file written as for Kafka (settings Spool
 * does not have included): the settings take effect as DescribeConfigs and the broker's behaviour show,
 * the unknown ones are warned about, and a bad value stops start-up naming the setting and the value.
 */
class ServerPropertiesIT {

    private static final String KAFKA_STYLE_PROPERTIES = """
            # Written as for Kafka 4.4 in KRaft combined mode
            process.roles=broker,controller
            node.id=1
            controller.quorum.voters=1@localhost:9093
            controller.listener.names=CONTROLLER
            num.network.threads=3
            num.io.threads=4
            socket.send.buffer.bytes=102400
            socket.request.max.bytes=104857600
            num.partitions=3
            num.recovery.threads.per.data.dir=1
            offsets.topic.replication.factor=1
            log.retention.hours=72
            log.segment.bytes=536870912
            message.max.bytes=2000000
            auto.create.topics.enable=false
            background.threads=10
            """;

    @TempDir
    Path dir;

    @Test
    void kafkaStyleServerPropertiesTakeEffect() throws Exception {
        Path file = Files.writeString(dir.resolve("server.properties"), KAFKA_STYLE_PROPERTIES, StandardCharsets.UTF_8);
        try (SpoolProcess spool = SpoolProcess.startWithArguments(Files.createDirectory(dir.resolve("data")),
                List.of("--config", file.toString()));
             Admin admin = Admin.create(Map.of("bootstrap.servers", spool.bootstrap()))) {
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "1");
            Config config = admin.describeConfigs(List.of(broker)).all().get(30, TimeUnit.SECONDS).get(broker);
            assertStatic(config, "num.partitions", "3");
            assertStatic(config, "num.io.threads", "4");
            assertStatic(config, "socket.send.buffer.bytes", "102400");
            assertStatic(config, "log.retention.hours", "72");
            assertStatic(config, "log.segment.bytes", "536870912");
            assertStatic(config, "message.max.bytes", "2000000");
            assertStatic(config, "auto.create.topics.enable", "false");

            admin.createTopics(List.of(new NewTopic("orders", Optional.empty(), Optional.empty()))).all()
                    .get(30, TimeUnit.SECONDS);
            assertThat(admin.describeTopics(List.of("orders")).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get("orders").partitions()).hasSize(3);
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "orders");
            Config topicConfig = admin.describeConfigs(List.of(topic)).all().get(30, TimeUnit.SECONDS).get(topic);
            assertThat(topicConfig.get("retention.ms").value()).isEqualTo(String.valueOf(72L * 3_600_000));
            assertThat(topicConfig.get("segment.bytes").value()).isEqualTo("536870912");
            assertThat(topicConfig.get("max.message.bytes").value()).isEqualTo("2000000");
            assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).containsExactly("orders");

            assertThat(spool.output()).anySatisfy(line -> assertThat(line).contains("WARN")
                    .contains("unknown").contains("background.threads"));
            assertThat(spool.awaitOutput(line -> line.contains("INFO") && line.contains("Topic orders created with 3 partitions"),
                    10_000)).as("one line for the new topic").isTrue();
            admin.deleteTopics(List.of("orders")).all().get(30, TimeUnit.SECONDS);
            assertThat(spool.awaitOutput(line -> line.contains("Topic orders deleted"), 10_000)).isTrue();
        }
    }

    @Test
    void invalidValueStopsStartUpNamingSettingAndValue() throws Exception {
        Path file = Files.writeString(dir.resolve("server.properties"),
                KAFKA_STYLE_PROPERTIES + "log.retention.hours=seven\nlog.dirs=" + dir.resolve("data") + "\n",
                StandardCharsets.UTF_8);

        ExternalCommand.Result result = ExternalCommand.run(dir, 120,
                SpoolProcess.repositoryRoot().resolve("bin/spool").toString(), "server", "--config", file.toString());

        assertThat(result.exitCode()).as(result.output()).isEqualTo(2);
        assertThat(result.output()).contains("invalid value 'seven' for log.retention.hours")
                .doesNotContain("started in");
    }

    @Test
    void outOfRangeOverrideStopsStartUpNamingSettingAndValue() throws Exception {
        ExternalCommand.Result result = ExternalCommand.run(dir, 120,
                SpoolProcess.repositoryRoot().resolve("bin/spool").toString(), "server",
                "--override", "log.dirs=" + dir.resolve("data"), "--override", "num.partitions=0");

        assertThat(result.exitCode()).as(result.output()).isEqualTo(2);
        assertThat(result.output()).contains("invalid value '0' for num.partitions: must be at least 1");
    }

    private static void assertStatic(Config config, String name, String value) {
        ConfigEntry entry = config.get(name);
        assertThat(entry).as(name).isNotNull();
        assertThat(entry.value()).as(name).isEqualTo(value);
        assertThat(entry.source()).as(name).isEqualTo(ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG);
    }
}

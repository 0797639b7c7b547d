package dev.spool.broker.config;

import static dev.spool.broker.config.ConfigTestImages.withConfig;
import static dev.spool.broker.config.ConfigTestImages.withTopic;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.metadata.ConfigResource;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.log.LogConfigKey;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.CreateTopicsResponseData.CreatableTopicConfigs;
import dev.spool.protocol.message.DescribeConfigsRequestData.DescribeConfigsResource;
import dev.spool.protocol.message.DescribeConfigsResponseData.DescribeConfigsResourceResult;
import dev.spool.protocol.message.DescribeConfigsResponseData.DescribeConfigsResult;
import dev.spool.protocol.message.DescribeConfigsResponseData.DescribeConfigsSynonym;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigDescriberTest {

    private static final byte DYNAMIC_TOPIC = ConfigSource.DYNAMIC_TOPIC_CONFIG.id();
    private static final byte DYNAMIC_BROKER = ConfigSource.DYNAMIC_BROKER_CONFIG.id();
    private static final byte DYNAMIC_DEFAULT = ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG.id();
    private static final byte STATIC = ConfigSource.STATIC_BROKER_CONFIG.id();
    private static final byte DEFAULT = ConfigSource.DEFAULT_CONFIG.id();

    private final BrokerConfig staticConfig = new BrokerConfig(Map.of("log.retention.hours", "100",
            "message.max.bytes", "2000000", "log.dirs", "/data"));
    private final ConfigDescriber describer = new ConfigDescriber(new BrokerConfigLayers(staticConfig));
    private final MetadataImage image = withConfig(withTopic(MetadataImage.EMPTY, "orders"),
            ConfigResource.topic("orders"), "cleanup.policy", "compact");

    private DescribeConfigsResult describe(MetadataImage in, byte type, String name) {
        return describer.describe(in, new DescribeConfigsResource().setResourceType(type).setResourceName(name)
                .setConfigurationKeys(null), true, true);
    }

    private static DescribeConfigsResourceResult entry(DescribeConfigsResult result, String name) {
        return result.configs().stream().filter(config -> config.name().equals(name)).findFirst().orElseThrow();
    }

    private static List<String> synonyms(DescribeConfigsResourceResult entry) {
        return entry.synonyms().stream().map(ConfigDescriberTest::text).toList();
    }

    private static String text(DescribeConfigsSynonym synonym) {
        return synonym.name() + "=" + synonym.value() + "@" + synonym.source();
    }

    @Test
    void topicDescribesEveryLogConfigWithItsType() {
        DescribeConfigsResult result = describe(image, ConfigResource.TOPIC, "orders");

        assertThat(result.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(result.configs()).hasSize(LogConfigKey.values().length);
        assertThat(result.configs()).allSatisfy(config -> {
            assertThat(config.readOnly()).isFalse();
            assertThat(config.isSensitive()).isFalse();
            assertThat(config.documentation()).isNotBlank();
        });
        assertThat(entry(result, "cleanup.policy").configType()).isEqualTo(ConfigType.LIST.id());
        assertThat(entry(result, "retention.ms").configType()).isEqualTo(ConfigType.LONG.id());
        assertThat(entry(result, "segment.bytes").configType()).isEqualTo(ConfigType.INT.id());
    }

    @Test
    void topicOverrideIsDynamicTopicConfigFollowedByTheBrokerSynonyms() {
        DescribeConfigsResourceResult policy = entry(describe(image, ConfigResource.TOPIC, "orders"), "cleanup.policy");

        assertThat(policy.value()).isEqualTo("compact");
        assertThat(policy.configSource()).isEqualTo(DYNAMIC_TOPIC);
        assertThat(synonyms(policy)).containsExactly("cleanup.policy=compact@" + DYNAMIC_TOPIC,
                "log.cleanup.policy=delete@" + DEFAULT);
    }

    @Test
    void brokerSettingInServerPropertiesIsStaticBrokerConfig() {
        DescribeConfigsResourceResult maxBytes = entry(describe(image, ConfigResource.TOPIC, "orders"),
                "max.message.bytes");

        assertThat(maxBytes.value()).isEqualTo("2000000");
        assertThat(maxBytes.configSource()).isEqualTo(STATIC);
        assertThat(synonyms(maxBytes)).containsExactly("message.max.bytes=2000000@" + STATIC,
                "message.max.bytes=1048588@" + DEFAULT);
    }

    /** Observed on Kafka 4.4: with only log.retention.hours set, retention.ms lists no synonym and says DEFAULT_CONFIG. */
    @Test
    void coarserSynonymAloneIsDroppedAsKafkaDoes() {
        DescribeConfigsResourceResult retention = entry(describe(image, ConfigResource.TOPIC, "orders"), "retention.ms");

        assertThat(retention.value()).isEqualTo("360000000");
        assertThat(retention.configSource()).isEqualTo(DEFAULT);
        assertThat(retention.synonyms()).isEmpty();
    }

    @Test
    void createTopicsReportsTheStaticSourceOfACoarserSynonym() {
        List<CreatableTopicConfigs> configs = describer.createdTopicConfigs(image, Map.of("segment.bytes", "2048"));

        CreatableTopicConfigs retention = configs.stream().filter(c -> c.name().equals("retention.ms")).findFirst()
                .orElseThrow();
        assertThat(retention.value()).isEqualTo("360000000");
        assertThat(retention.configSource()).isEqualTo(STATIC);
        CreatableTopicConfigs segment = configs.stream().filter(c -> c.name().equals("segment.bytes")).findFirst()
                .orElseThrow();
        assertThat(segment.value()).isEqualTo("2048");
        assertThat(segment.configSource()).isEqualTo(DYNAMIC_TOPIC);
    }

    @Test
    void dynamicBrokerSettingsComeBeforeStaticOnes() {
        MetadataImage dynamic = withConfig(withConfig(image, new ConfigResource(ConfigResource.BROKER, "1"),
                "log.retention.ms", "7200000"), new ConfigResource(ConfigResource.BROKER, ""), "log.segment.bytes",
                "2000000");

        DescribeConfigsResult topic = describe(dynamic, ConfigResource.TOPIC, "orders");
        assertThat(entry(topic, "retention.ms").value()).isEqualTo("7200000");
        assertThat(entry(topic, "retention.ms").configSource()).isEqualTo(DYNAMIC_BROKER);
        assertThat(synonyms(entry(topic, "retention.ms"))).containsExactly("log.retention.ms=7200000@" + DYNAMIC_BROKER,
                "log.retention.hours=100@" + STATIC, "log.retention.hours=168@" + DEFAULT);
        assertThat(entry(topic, "segment.bytes").value()).isEqualTo("2000000");
        assertThat(entry(topic, "segment.bytes").configSource()).isEqualTo(DYNAMIC_DEFAULT);

        DescribeConfigsResult clusterDefaults = describe(dynamic, ConfigResource.BROKER, "");
        assertThat(clusterDefaults.configs()).singleElement().satisfies(config -> {
            assertThat(config.name()).isEqualTo("log.segment.bytes");
            assertThat(config.configSource()).isEqualTo(DYNAMIC_DEFAULT);
            assertThat(config.readOnly()).isFalse();
        });
    }

    @Test
    void brokerDescribesItsSettingsWithReadOnlyAsKafka() {
        DescribeConfigsResult broker = describe(image, ConfigResource.BROKER, "1");

        assertThat(broker.errorCode()).isEqualTo(Errors.NONE.code());
        DescribeConfigsResourceResult hours = entry(broker, "log.retention.hours");
        assertThat(hours.value()).isEqualTo("100");
        assertThat(hours.readOnly()).isTrue();
        assertThat(hours.configType()).isEqualTo(ConfigType.INT.id());
        assertThat(synonyms(hours)).containsExactly("log.retention.hours=100@" + STATIC,
                "log.retention.hours=168@" + DEFAULT);
        DescribeConfigsResourceResult ms = entry(broker, "log.retention.ms");
        assertThat(ms.value()).isNull();
        assertThat(ms.readOnly()).isFalse();
        assertThat(ms.configSource()).isEqualTo(DEFAULT);
        assertThat(entry(broker, "log.dirs").configType()).isEqualTo(ConfigType.LIST.id());
        assertThat(entry(broker, "log.dirs").configSource()).isEqualTo(STATIC);
        assertThat(entry(broker, "num.partitions").value()).isEqualTo("1");
        assertThat(entry(broker, "num.partitions").readOnly()).isTrue();
    }

    @Test
    void unknownTopicAndOtherBrokersAreErrors() {
        assertThat(describe(image, ConfigResource.TOPIC, "missing").errorCode())
                .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertThat(describe(image, ConfigResource.TOPIC, "bad name!").errorCode())
                .isEqualTo(Errors.INVALID_TOPIC_EXCEPTION.code());
        DescribeConfigsResult otherBroker = describe(image, ConfigResource.BROKER, "2");
        assertThat(otherBroker.errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(otherBroker.errorMessage()).contains("expected 1 or empty string");
        assertThat(describe(image, ConfigResource.BROKER, "x").errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(describe(image, (byte) 8, "root").errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(describe(image, ConfigResource.TOPIC, "missing").configs()).isEmpty();
    }

    @Test
    void keysFilterAndFlagsLeaveOutWhatWasNotAskedFor() {
        DescribeConfigsResult result = describer.describe(image, new DescribeConfigsResource()
                .setResourceType(ConfigResource.TOPIC).setResourceName("orders")
                .setConfigurationKeys(List.of("cleanup.policy", "retention.ms")), false, false);

        assertThat(result.configs()).extracting(DescribeConfigsResourceResult::name)
                .containsExactly("cleanup.policy", "retention.ms");
        assertThat(result.configs()).allSatisfy(config -> {
            assertThat(config.synonyms()).isEmpty();
            assertThat(config.documentation()).isNull();
        });
        assertThat(entry(result, "cleanup.policy").configSource()).isEqualTo(DYNAMIC_TOPIC);
    }

    @Test
    void emptyKeysAskForEveryConfig() {
        DescribeConfigsResult result = describer.describe(image, new DescribeConfigsResource()
                .setResourceType(ConfigResource.TOPIC).setResourceName("orders").setConfigurationKeys(List.of()),
                false, false);

        assertThat(result.configs()).hasSize(LogConfigKey.values().length);
    }
}

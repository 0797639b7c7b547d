package dev.spool.broker.config;

import dev.spool.broker.metadata.ConfigResource;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.TopicNames;
import dev.spool.log.LogConfig;
import dev.spool.log.LogConfigKey;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.CreateTopicsResponseData.CreatableTopicConfigs;
import dev.spool.protocol.message.DescribeConfigsRequestData.DescribeConfigsResource;
import dev.spool.protocol.message.DescribeConfigsResponseData.DescribeConfigsResourceResult;
import dev.spool.protocol.message.DescribeConfigsResponseData.DescribeConfigsResult;
import dev.spool.protocol.message.DescribeConfigsResponseData.DescribeConfigsSynonym;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Answers DescribeConfigs for topics (resource type 2) and this broker (type 4: its node id, or ""
 * for the cluster-wide dynamic defaults) with values, sources, synonyms, types and documentation as
 * Kafka reports them; and gives CreateTopics (v5+) the configs of a new topic. Topic configs are the
 * log module's {@link LogConfigKey}s: an override from the image, else the broker's default for it.
 * Thread-safe: immutable; reads only the image it is given.
 */
public final class ConfigDescriber {

    private final BrokerConfigLayers layers;

    public ConfigDescriber(BrokerConfigLayers layers) {
        this.layers = layers;
    }

    public DescribeConfigsResult describe(MetadataImage image, DescribeConfigsResource resource, boolean includeSynonyms,
                                          boolean includeDocumentation) {
        DescribeConfigsResult result = new DescribeConfigsResult().setResourceType(resource.resourceType())
                .setResourceName(resource.resourceName()).setConfigs(new ArrayList<>());
        List<DescribeConfigsResourceResult> entries;
        switch (resource.resourceType()) {
            case ConfigResource.TOPIC -> {
                String topic = resource.resourceName();
                String invalid = TopicNames.whyInvalid(topic);
                if (invalid != null) {
                    return fail(result, Errors.INVALID_TOPIC_EXCEPTION, invalid);
                }
                if (image.topic(topic) == null) {
                    return fail(result, Errors.UNKNOWN_TOPIC_OR_PARTITION, "The topic '" + topic + "' does not exist.");
                }
                entries = topicEntries(image, image.configs(ConfigResource.topic(topic)), true);
            }
            case ConfigResource.BROKER -> {
                String problem = brokerNameProblem(resource.resourceName(), layers.nodeId());
                if (problem != null) {
                    return fail(result, Errors.INVALID_REQUEST, problem);
                }
                entries = resource.resourceName().isEmpty() ? clusterDefaultEntries(image) : brokerEntries(image);
            }
            default -> {
                return fail(result, Errors.INVALID_REQUEST, "Unsupported resource type " + resource.resourceType()
                        + ": Spool describes topics (2) and brokers (4)");
            }
        }
        // Null or empty asks for every config, as in Kafka.
        List<String> keys = resource.configurationKeys();
        boolean filtered = keys != null && !keys.isEmpty();
        for (DescribeConfigsResourceResult entry : entries) {
            if (filtered && !keys.contains(entry.name())) {
                continue;
            }
            if (!includeSynonyms) {
                entry.setSynonyms(new ArrayList<>());
            }
            if (!includeDocumentation) {
                entry.setDocumentation(null);
            }
            result.configs().add(entry);
        }
        return result.setErrorCode(Errors.NONE.code()).setErrorMessage(null);
    }

    /**
     * The configs CreateTopics v5+ returns for a new topic with these overrides. Unlike DescribeConfigs,
     * Kafka's CreateTopics reports a topic default set in server.properties through a coarser setting
     * (log.retention.hours) as STATIC_BROKER_CONFIG, so no synonyms are dropped here.
     */
    public List<CreatableTopicConfigs> createdTopicConfigs(MetadataImage image, Map<String, String> overrides) {
        List<CreatableTopicConfigs> configs = new ArrayList<>();
        for (DescribeConfigsResourceResult entry : topicEntries(image, overrides, false)) {
            configs.add(new CreatableTopicConfigs().setName(entry.name()).setValue(entry.value())
                    .setReadOnly(entry.readOnly()).setConfigSource(entry.configSource())
                    .setIsSensitive(entry.isSensitive()));
        }
        return configs;
    }

    /** Why a broker resource name is not this broker or the cluster default (""), or null. */
    public static String brokerNameProblem(String name, int nodeId) {
        if (name == null || name.isEmpty()) {
            return null;
        }
        try {
            if (Integer.parseInt(name) == nodeId) {
                return null;
            }
        } catch (NumberFormatException e) {
            return "Broker id must be an integer, but it is: " + name;
        }
        return "Unexpected broker id, expected " + nodeId + " or empty string, but received " + name;
    }

    private List<DescribeConfigsResourceResult> topicEntries(MetadataImage image, Map<String, String> overrides,
                                                             boolean dropLeadingSynonyms) {
        Map<String, String> values = LogConfig.fromStoredProperties(layers.topicLogDefaults(image))
                .withStored(overrides).asProperties();
        List<DescribeConfigsResourceResult> entries = new ArrayList<>();
        for (LogConfigKey key : sortedTopicKeys()) {
            List<String> brokerNames = new ArrayList<>();
            for (LogDefaultSetting setting : BrokerConfigLayers.synonymSettings(key.configName)) {
                brokerNames.add(setting.brokerName());
            }
            List<DescribeConfigsSynonym> synonyms = new ArrayList<>();
            String override = overrides.get(key.configName);
            if (override != null) {
                synonyms.add(new DescribeConfigsSynonym().setName(key.configName).setValue(values.get(key.configName))
                        .setSource(ConfigSource.DYNAMIC_TOPIC_CONFIG.id()));
            }
            if (!brokerNames.isEmpty()) {
                synonyms.addAll(layers.synonyms(image, brokerNames, dropLeadingSynonyms ? brokerNames.get(0) : null));
            }
            entries.add(entry(key.configName, values.get(key.configName), synonyms, ConfigType.of(key), false, key.doc));
        }
        return entries;
    }

    private static List<LogConfigKey> sortedTopicKeys() {
        List<LogConfigKey> keys = new ArrayList<>(List.of(LogConfigKey.values()));
        keys.sort((a, b) -> a.configName.compareTo(b.configName));
        return keys;
    }

    private List<DescribeConfigsResourceResult> brokerEntries(MetadataImage image) {
        List<DescribeConfigsResourceResult> entries = new ArrayList<>();
        for (String name : BrokerConfigLayers.allNames()) {
            LogDefaultSetting setting = BrokerConfigLayers.logDefaultSetting(name);
            List<String> group = new ArrayList<>();
            if (setting == null) {
                group.add(name);
            } else {
                BrokerConfigLayers.synonymSettings(setting.topicName()).forEach(s -> group.add(s.brokerName()));
            }
            List<DescribeConfigsSynonym> synonyms = layers.synonyms(image, group, name);
            String value = synonyms.isEmpty() ? null : synonyms.get(0).value();
            entries.add(entry(name, value, synonyms, brokerType(name), !BrokerConfigLayers.isDynamic(name),
                    brokerDoc(name)));
        }
        return entries;
    }

    /** Resource BROKER "": only the cluster-wide dynamic defaults that are set, as Kafka lists them. */
    private List<DescribeConfigsResourceResult> clusterDefaultEntries(MetadataImage image) {
        List<DescribeConfigsResourceResult> entries = new ArrayList<>();
        for (Map.Entry<String, String> set : image.configs(BrokerConfigLayers.clusterDefault()).entrySet()) {
            List<DescribeConfigsSynonym> synonyms = new ArrayList<>(List.of(new DescribeConfigsSynonym()
                    .setName(set.getKey()).setValue(set.getValue())
                    .setSource(ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG.id())));
            entries.add(entry(set.getKey(), set.getValue(), synonyms, brokerType(set.getKey()),
                    !BrokerConfigLayers.isDynamic(set.getKey()), brokerDoc(set.getKey())));
        }
        return entries;
    }

    private static ConfigType brokerType(String name) {
        ConfigKey<?> key = BrokerConfigLayers.configKey(name);
        if (key != null) {
            return key.type();
        }
        LogDefaultSetting setting = BrokerConfigLayers.logDefaultSetting(name);
        if (setting == null) {
            return ConfigType.STRING;
        }
        // Hours and minutes are ints in Kafka; the others have their topic config's type.
        return setting.toTopicUnit() != 1 ? ConfigType.INT : ConfigType.of(LogConfigKey.forName(setting.topicName()));
    }

    private static String brokerDoc(String name) {
        ConfigKey<?> key = BrokerConfigLayers.configKey(name);
        if (key != null) {
            return key.doc();
        }
        LogDefaultSetting setting = BrokerConfigLayers.logDefaultSetting(name);
        return setting == null ? null : setting.doc();
    }

    private static DescribeConfigsResourceResult entry(String name, String value, List<DescribeConfigsSynonym> synonyms,
                                                       ConfigType type, boolean readOnly, String doc) {
        byte source = synonyms.isEmpty() ? ConfigSource.DEFAULT_CONFIG.id() : synonyms.get(0).source();
        boolean secret = type == ConfigType.PASSWORD;
        if (secret) {
            // As Kafka: a secret is described as set or not, never shown.
            synonyms.forEach(synonym -> synonym.setValue(null));
        }
        return new DescribeConfigsResourceResult().setName(name).setValue(secret ? null : value).setReadOnly(readOnly)
                .setConfigSource(source).setIsSensitive(secret).setSynonyms(synonyms).setConfigType(type.id())
                .setDocumentation(doc);
    }

    private static DescribeConfigsResult fail(DescribeConfigsResult result, Errors error, String message) {
        return result.setErrorCode(error.code()).setErrorMessage(message);
    }
}

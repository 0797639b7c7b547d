package dev.spool.broker.config;

import dev.spool.broker.metadata.ConfigResource;
import dev.spool.broker.metadata.ElectionRules;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.log.LogConfigKey;
import dev.spool.protocol.message.DescribeConfigsResponseData.DescribeConfigsSynonym;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The four layers a broker setting's value comes from, highest first, as Kafka resolves them: this
 * broker's dynamic settings and the cluster-wide dynamic defaults (ConfigRecords of the metadata
 * image on resource {@code BROKER "<node.id>"} and {@code BROKER ""}), server.properties, and the
 * declared defaults. Also which broker settings are synonyms of one another (log.retention.ms,
 * log.retention.minutes, log.retention.hours for retention.ms) and which may change at run time.
 * The controller's elections follow the topic settings they resolve ({@link ElectionRules}).
 * Thread-safe: immutable; every method reads only the image it is given.
 */
public final class BrokerConfigLayers implements ElectionRules {

    private static final String UNCLEAN_LEADER_ELECTION_ENABLE = "unclean.leader.election.enable";

    private final BrokerConfig staticConfig;
    private final ConfigResource thisBroker;
    private final Map<String, String> declaredDefaults;

    public BrokerConfigLayers(BrokerConfig staticConfig) {
        this.staticConfig = staticConfig;
        this.thisBroker = new ConfigResource(ConfigResource.BROKER, String.valueOf(staticConfig.nodeId()));
        this.declaredDefaults = declaredDefaults();
    }

    public int nodeId() {
        return staticConfig.nodeId();
    }

    /**
     * Kafka's default of every declared setting that has one. Of the settings that give one topic config
     * its default, only the last resort has a default of its own (log.retention.hours = 168, while
     * log.retention.ms and log.retention.minutes default to unset): the topic config's default in
     * that setting's unit.
     */
    static Map<String, String> declaredDefaults() {
        Map<String, String> defaults = new HashMap<>();
        for (ConfigKey<?> key : BrokerConfig.ALL) {
            if (key.defaultValue() != null) {
                defaults.put(key.name(), key.defaultValue());
            }
        }
        for (LogDefaultSetting setting : BrokerConfig.LOG_DEFAULTS) {
            List<LogDefaultSetting> group = synonymSettings(setting.topicName());
            if (group.get(group.size() - 1) == setting) {
                LogConfigKey topicKey = LogConfigKey.forName(setting.topicName());
                String value = topicKey.defaultValue;
                if (setting.toTopicUnit() != 1) {
                    value = String.valueOf(Long.parseLong(value) / setting.toTopicUnit());
                }
                defaults.put(setting.brokerName(), value);
            }
        }
        return defaults;
    }

    /** The broker settings that give a topic config its default, the one that wins first; maybe empty. */
    public static List<LogDefaultSetting> synonymSettings(String topicConfig) {
        List<LogDefaultSetting> group = new ArrayList<>();
        for (LogDefaultSetting setting : BrokerConfig.LOG_DEFAULTS) {
            if (setting.topicName().equals(topicConfig)) {
                group.add(setting);
            }
        }
        group.sort(Comparator.comparingInt(LogDefaultSetting::precedence));
        return group;
    }

    /** The setting of this broker name that gives a topic config its default, or null. */
    public static LogDefaultSetting logDefaultSetting(String brokerName) {
        for (LogDefaultSetting setting : BrokerConfig.LOG_DEFAULTS) {
            if (setting.brokerName().equals(brokerName)) {
                return setting;
            }
        }
        return null;
    }

    /** The declaration of a broker setting that is not a log default, or null. */
    public static ConfigKey<?> configKey(String name) {
        for (ConfigKey<?> key : BrokerConfig.ALL) {
            if (key.name().equals(name)) {
                return key;
            }
        }
        return null;
    }

    /**
     * Whether a setting may be changed at run time (IncrementalAlterConfigs on a broker resource):
     * the log defaults in their topic config's own unit, as in Kafka (log.retention.ms yes,
     * log.retention.hours no), and the replication throttles ({@link BrokerConfig#DYNAMIC}). Spool does not
     * reconfigure its other settings at run time.
     */
    public static boolean isDynamic(String brokerName) {
        LogDefaultSetting setting = logDefaultSetting(brokerName);
        return setting != null && setting.toTopicUnit() == 1
                || BrokerConfig.DYNAMIC.stream().anyMatch(key -> key.name().equals(brokerName));
    }

    /**
     * A dynamic setting's value in force on this broker: its own dynamic value, else the cluster-wide dynamic
     * default, else server.properties, else the default.
     */
    public <T> T dynamic(MetadataImage image, ConfigKey<T> key) {
        String value = image.configs(thisBroker).get(key.name());
        if (value == null) {
            value = image.configs(clusterDefault()).get(key.name());
        }
        if (value == null) {
            value = staticConfig.explicitValues().get(key.name());
        }
        return key.parse(value);
    }

    /** The names of the broker settings, sorted. */
    public static List<String> allNames() {
        TreeMap<String, Boolean> names = new TreeMap<>();
        BrokerConfig.ALL.forEach(key -> names.put(key.name(), true));
        BrokerConfig.LOG_DEFAULTS.forEach(setting -> names.put(setting.brokerName(), true));
        return new ArrayList<>(names.keySet());
    }

    /**
     * The synonyms of a setting as Kafka lists them: layer by layer (dynamic per broker, dynamic
     * cluster default, static, default), within a layer in the order of {@code names}; then, as Kafka
     * does, the leading entries of other names than {@code describedName} are dropped (so retention.ms
     * lists no broker synonym while log.retention.ms is unset, even if log.retention.hours is set).
     *
     * @param describedName null to keep every entry (CreateTopics reports sources that way)
     */
    public List<DescribeConfigsSynonym> synonyms(MetadataImage image, List<String> names, String describedName) {
        List<DescribeConfigsSynonym> synonyms = new ArrayList<>();
        addLayer(synonyms, image.configs(thisBroker), names, ConfigSource.DYNAMIC_BROKER_CONFIG);
        addLayer(synonyms, image.configs(clusterDefault()), names, ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
        addLayer(synonyms, staticConfig.explicitValues(), names, ConfigSource.STATIC_BROKER_CONFIG);
        addLayer(synonyms, declaredDefaults, names, ConfigSource.DEFAULT_CONFIG);
        if (describedName != null) {
            while (!synonyms.isEmpty() && !synonyms.get(0).name().equals(describedName)) {
                synonyms.remove(0);
            }
        }
        return synonyms;
    }

    private static void addLayer(List<DescribeConfigsSynonym> synonyms, Map<String, String> layer, List<String> names,
                                 ConfigSource source) {
        for (String name : names) {
            String value = layer.get(name);
            if (value != null) {
                synonyms.add(new DescribeConfigsSynonym().setName(name).setValue(value).setSource(source.id()));
            }
        }
    }

    public static ConfigResource clusterDefault() {
        return new ConfigResource(ConfigResource.BROKER, "");
    }

    public ConfigResource thisBroker() {
        return thisBroker;
    }

    /** unclean.leader.election.enable of a topic: its own setting, else the defaults in force (false). */
    @Override
    public boolean uncleanAllowed(MetadataImage image, String topic) {
        return Boolean.parseBoolean(topicSetting(image, topic, UNCLEAN_LEADER_ELECTION_ENABLE));
    }

    /** min.insync.replicas of a topic: its own setting, else the defaults in force (1). */
    @Override
    public int minInsyncReplicas(MetadataImage image, String topic) {
        String value = topicSetting(image, topic, LogConfigKey.MIN_INSYNC_REPLICAS.configName);
        return Integer.parseInt(value != null ? value : LogConfigKey.MIN_INSYNC_REPLICAS.defaultValue);
    }

    /** A topic config's value: the topic's own, else the defaults in force; null when neither sets it. */
    private String topicSetting(MetadataImage image, String topic, String name) {
        String value = image.configs(ConfigResource.topic(topic)).get(name);
        return value != null ? value : topicLogDefaults(image).get(name);
    }

    /**
     * The topic log config defaults in force: server.properties overridden by the cluster-wide dynamic
     * defaults, overridden by this broker's dynamic settings, resolved as {@link BrokerConfig#logConfigDefaults}
     * does. By topic config name; names no layer sets keep the log module's defaults.
     */
    public Map<String, String> topicLogDefaults(MetadataImage image) {
        Map<String, String> clusterDefaults = image.configs(clusterDefault());
        Map<String, String> brokerDynamic = image.configs(thisBroker);
        if (clusterDefaults.isEmpty() && brokerDynamic.isEmpty()) {
            return staticConfig.logConfigDefaults();
        }
        Map<String, String> merged = new HashMap<>(staticConfig.explicitValues());
        merged.putAll(clusterDefaults);
        merged.putAll(brokerDynamic);
        return new BrokerConfig(merged).logConfigDefaults();
    }
}

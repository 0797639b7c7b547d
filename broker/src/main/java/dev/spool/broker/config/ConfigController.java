package dev.spool.broker.config;

import dev.spool.broker.metadata.ConfigResource;
import dev.spool.broker.metadata.ElrResets;
import dev.spool.broker.metadata.MetadataChange;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.TopicNames;
import dev.spool.broker.metadata.VersionedRecord;
import dev.spool.log.LogConfig;
import dev.spool.log.LogConfigKey;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.AlterConfigsRequestData;
import dev.spool.protocol.message.IncrementalAlterConfigsRequestData;
import dev.spool.protocol.message.IncrementalAlterConfigsRequestData.AlterableConfig;
import dev.spool.protocol.metadata.ConfigRecordData;
import dev.spool.protocol.metadata.MetadataRecordType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Decides IncrementalAlterConfigs and AlterConfigs against a metadata image, the way Kafka's
 * controller does: topic overrides (checked by the log module's config parser) and this broker's
 * or the cluster's dynamic log defaults become {@code ConfigRecord}s (a null value deletes an
 * override); a change of {@code min.insync.replicas} also clears the eligible leader replicas it
 * no longer vouches for ({@link ElrResets}). Pure: it reads the image and returns records, the
 * MetadataManager appends and applies them. Thread-safe.
 */
public final class ConfigController {

    /** IncrementalAlterConfigs operation codes. */
    static final byte SET = 0;
    static final byte DELETE = 1;
    static final byte APPEND = 2;
    static final byte SUBTRACT = 3;

    private final int nodeId;
    private final Function<Map<String, String>, String> topicConfigValidator;

    /** What was decided for one resource of the request. */
    public record Outcome(byte resourceType, String resourceName, Errors error, String message) {
    }

    /**
     * @param topicConfigValidator why a topic's complete set of overrides is invalid, or null (the
     *                             same check CreateTopics applies)
     */
    public ConfigController(int nodeId, Function<Map<String, String>, String> topicConfigValidator) {
        this.nodeId = nodeId;
        this.topicConfigValidator = topicConfigValidator;
    }

    public MetadataChange<List<Outcome>> incrementalAlter(MetadataImage image, IncrementalAlterConfigsRequestData request) {
        List<VersionedRecord> records = new ArrayList<>();
        List<Outcome> outcomes = new ArrayList<>();
        for (IncrementalAlterConfigsRequestData.AlterConfigsResource resource : request.resources()) {
            Outcome outcome = decide(image, resource.resourceType(), resource.resourceName(), current -> {
                Map<String, String> next = new TreeMap<>(current);
                Set<String> seen = new HashSet<>();
                for (AlterableConfig config : resource.configs()) {
                    if (!seen.add(config.name())) {
                        return Next.rejected(Errors.INVALID_REQUEST, "Error due to duplicate config keys");
                    }
                    Problem problem = applyOperation(resource.resourceType(), next, config);
                    if (problem != null) {
                        return new Next(null, problem);
                    }
                }
                return new Next(next, null);
            }, request.validateOnly(), records);
            outcomes.add(outcome);
        }
        records.addAll(ElrResets.after(image, records));
        return new MetadataChange<>(records, outcomes);
    }

    /** The legacy AlterConfigs: the given configs replace every override of the resource. */
    public MetadataChange<List<Outcome>> alter(MetadataImage image, AlterConfigsRequestData request) {
        List<VersionedRecord> records = new ArrayList<>();
        List<Outcome> outcomes = new ArrayList<>();
        for (AlterConfigsRequestData.AlterConfigsResource resource : request.resources()) {
            outcomes.add(decide(image, resource.resourceType(), resource.resourceName(), current -> {
                Map<String, String> next = new TreeMap<>();
                for (AlterConfigsRequestData.AlterableConfig config : resource.configs()) {
                    if (next.containsKey(config.name())) {
                        return Next.rejected(Errors.INVALID_REQUEST, "Error due to duplicate config keys");
                    }
                    if (config.value() != null) {
                        next.put(config.name(), config.value());
                    }
                }
                return new Next(next, null);
            }, request.validateOnly(), records));
        }
        records.addAll(ElrResets.after(image, records));
        return new MetadataChange<>(records, outcomes);
    }

    /** Why a change is rejected. */
    private record Problem(Errors error, String message) {
        static Problem of(Errors error, String message) {
            return new Problem(error, message);
        }
    }

    /** What a change function computed: the resource's new overrides, or the problem that rejects them. */
    private record Next(Map<String, String> overrides, Problem problem) {
        static Next rejected(Errors error, String message) {
            return new Next(null, Problem.of(error, message));
        }
    }

    /**
     * Checks the resource, computes its new overrides from the current ones, validates them and adds
     * the records of the difference.
     */
    private Outcome decide(MetadataImage image, byte type, String name, Function<Map<String, String>, Next> change,
                           boolean validateOnly, List<VersionedRecord> records) {
        Problem problem = resourceProblem(image, type, name);
        ConfigResource resource = new ConfigResource(type, name);
        Map<String, String> current = image.configs(resource);
        if (problem == null) {
            Next changed = change.apply(current);
            problem = changed.problem();
            if (problem == null) {
                Map<String, String> next = changed.overrides();
                problem = type == ConfigResource.TOPIC ? topicProblem(next) : brokerProblem(next);
                if (problem == null && !validateOnly) {
                    addDifference(resource, current, next, records);
                }
            }
        }
        return problem == null ? new Outcome(type, name, Errors.NONE, null)
                : new Outcome(type, name, problem.error(), problem.message());
    }

    private Problem resourceProblem(MetadataImage image, byte type, String name) {
        if (type == ConfigResource.TOPIC) {
            String invalid = TopicNames.whyInvalid(name);
            if (invalid != null) {
                return Problem.of(Errors.INVALID_TOPIC_EXCEPTION, invalid);
            }
            return image.topic(name) == null
                    ? Problem.of(Errors.UNKNOWN_TOPIC_OR_PARTITION, "The topic '" + name + "' does not exist.") : null;
        }
        if (type == ConfigResource.BROKER) {
            // Kafka's admin client sends a broker's settings to that broker, which forwards them to the active
            // controller: any registered broker's are taken here.
            String problem = ConfigDescriber.brokerNameProblem(name, nodeId);
            if (problem != null && isRegisteredBroker(image, name)) {
                problem = null;
            }
            return problem == null ? null : Problem.of(Errors.INVALID_REQUEST, problem);
        }
        return Problem.of(Errors.INVALID_REQUEST, "Unsupported resource type " + type
                + ": Spool alters the configs of topics (2) and brokers (4)");
    }

    private static boolean isRegisteredBroker(MetadataImage image, String name) {
        try {
            return image.brokers().containsKey(Integer.parseInt(name));
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Applies one incremental operation to {@code next}; the problem, or null. */
    private static Problem applyOperation(byte resourceType, Map<String, String> next, AlterableConfig config) {
        String name = config.name();
        switch (config.configOperation()) {
            case SET -> {
                if (config.value() == null) {
                    return Problem.of(Errors.INVALID_REQUEST, "Null value not supported for SET of " + name);
                }
                next.put(name, config.value());
            }
            case DELETE -> next.remove(name);
            case APPEND, SUBTRACT -> {
                String opName = config.configOperation() == APPEND ? "APPEND" : "SUBTRACT";
                LogConfigKey key = listKey(resourceType, name);
                if (key == null) {
                    return Problem.of(Errors.INVALID_CONFIG, "Can't " + opName + " to key " + name
                            + " because its type is not LIST.");
                }
                String base = next.getOrDefault(name, key.defaultValue);
                Set<String> values = new LinkedHashSet<>(split(base));
                List<String> operands = config.value() == null ? List.of() : split(config.value());
                if (config.configOperation() == APPEND) {
                    values.addAll(operands);
                } else {
                    operands.forEach(values::remove);
                }
                next.put(name, String.join(",", values));
            }
            default -> {
                return Problem.of(Errors.INVALID_REQUEST, "Unknown config operation " + config.configOperation()
                        + " for " + name);
            }
        }
        return null;
    }

    /** The log config key behind a list-typed config of this resource type, or null if it is no list. */
    private static LogConfigKey listKey(byte resourceType, String name) {
        LogConfigKey key;
        if (resourceType == ConfigResource.TOPIC) {
            key = LogConfigKey.forName(name);
        } else {
            LogDefaultSetting setting = BrokerConfigLayers.logDefaultSetting(name);
            key = setting == null || setting.toTopicUnit() != 1 ? null : LogConfigKey.forName(setting.topicName());
        }
        return key != null && ConfigType.of(key) == ConfigType.LIST ? key : null;
    }

    private static List<String> split(String list) {
        List<String> parts = new ArrayList<>();
        for (String part : list.split(",")) {
            if (!part.isBlank()) {
                parts.add(part.trim());
            }
        }
        return parts;
    }

    private Problem topicProblem(Map<String, String> overrides) {
        for (String name : overrides.keySet()) {
            if (LogConfigKey.forName(name) == null) {
                return Problem.of(Errors.INVALID_CONFIG, "Unknown topic config name: " + name);
            }
        }
        String invalid = topicConfigValidator.apply(overrides);
        return invalid == null ? null : Problem.of(Errors.INVALID_CONFIG, invalid);
    }

    /** Only the dynamic log defaults may be set on a broker resource; Kafka answers INVALID_REQUEST. */
    private static Problem brokerProblem(Map<String, String> settings) {
        Set<String> notDynamic = new TreeSet<>();
        for (String name : settings.keySet()) {
            if (!BrokerConfigLayers.isDynamic(name)) {
                notDynamic.add(name);
            }
        }
        if (!notDynamic.isEmpty()) {
            return Problem.of(Errors.INVALID_REQUEST, "Cannot update these configs dynamically: " + notDynamic);
        }
        for (Map.Entry<String, String> setting : settings.entrySet()) {
            ConfigKey<?> key = BrokerConfigLayers.configKey(setting.getKey());
            if (key != null) {
                try {
                    key.parse(setting.getValue());
                } catch (RuntimeException e) {
                    return Problem.of(Errors.INVALID_REQUEST, "Invalid value " + setting.getValue()
                            + " for configuration " + setting.getKey() + ": " + e.getMessage());
                }
                continue;
            }
            String topicName = BrokerConfigLayers.logDefaultSetting(setting.getKey()).topicName();
            try {
                LogConfig.fromProperties(Map.of(topicName, setting.getValue()));
            } catch (IllegalArgumentException e) {
                // Some checks already word their message as Kafka does ("Invalid value X for configuration Y: ...").
                String prefix = "Invalid value " + setting.getValue() + " for configuration ";
                return Problem.of(Errors.INVALID_REQUEST, e.getMessage().startsWith(prefix) ? e.getMessage()
                        : prefix + setting.getKey() + ": " + e.getMessage());
            }
        }
        return null;
    }

    private static void addDifference(ConfigResource resource, Map<String, String> current, Map<String, String> next,
                                      List<VersionedRecord> records) {
        for (String name : current.keySet()) {
            if (!next.containsKey(name)) {
                records.add(configRecord(resource, name, null));
            }
        }
        for (Map.Entry<String, String> entry : next.entrySet()) {
            if (!entry.getValue().equals(current.get(entry.getKey()))) {
                records.add(configRecord(resource, entry.getKey(), entry.getValue()));
            }
        }
    }

    private static VersionedRecord configRecord(ConfigResource resource, String name, String value) {
        return VersionedRecord.of(MetadataRecordType.CONFIG_RECORD, new ConfigRecordData()
                .setResourceType(resource.type())
                .setResourceName(resource.name())
                .setName(name)
                .setValue(value));
    }
}

package dev.spool.broker.metadata;

import dev.spool.protocol.Errors;
import dev.spool.protocol.message.CreatePartitionsRequestData.CreatePartitionsTopic;
import dev.spool.protocol.message.CreatePartitionsResponseData.CreatePartitionsTopicResult;
import dev.spool.protocol.message.CreateTopicsRequestData.CreatableReplicaAssignment;
import dev.spool.protocol.message.CreateTopicsRequestData.CreatableTopic;
import dev.spool.protocol.message.CreateTopicsRequestData.CreatableTopicConfig;
import dev.spool.protocol.message.CreateTopicsResponseData.CreatableTopicResult;
import dev.spool.protocol.message.DeleteTopicsResponseData.DeletableTopicResult;
import dev.spool.protocol.metadata.ConfigRecordData;
import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.metadata.PartitionRecordData;
import dev.spool.protocol.metadata.RemoveTopicRecordData;
import dev.spool.protocol.metadata.TopicRecordData;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Decides topic changes against a metadata image: validates CreateTopics, DeleteTopics and
 * CreatePartitions the way Kafka's controller does and turns what is valid into metadata records.
 * Pure: it reads the image and returns records, the {@link MetadataManager} appends and applies them.
 * Thread-safe.
 */
public final class TopicController {

    private final int nodeId;
    private final TopicDefaults defaults;
    private final Function<Map<String, String>, String> configValidator;

    /**
     * @param configValidator checks a topic's config overrides: the reason they are invalid, or null
     */
    public TopicController(int nodeId, TopicDefaults defaults, Function<Map<String, String>, String> configValidator) {
        this.nodeId = nodeId;
        this.defaults = defaults;
        this.configValidator = configValidator;
    }

    public MetadataChange<List<CreatableTopicResult>> createTopics(MetadataImage image, List<CreatableTopic> topics,
                                                                   boolean validateOnly) {
        Set<String> duplicates = duplicateNames(topics);
        Map<String, String> takenCollisionKeys = new HashMap<>();
        for (TopicImage existing : image.topics()) {
            takenCollisionKeys.put(TopicNames.collisionKey(existing.name()), existing.name());
        }
        List<VersionedRecord> records = new ArrayList<>();
        List<CreatableTopicResult> results = new ArrayList<>();
        for (CreatableTopic topic : topics) {
            CreatableTopicResult result = new CreatableTopicResult().setName(topic.name());
            results.add(result);
            if (duplicates.contains(topic.name())) {
                fail(result, Errors.INVALID_REQUEST, "Create topics request contains multiple entries for the topic "
                        + topic.name());
                continue;
            }
            if (!acceptsName(image, topic.name(), takenCollisionKeys, result)) {
                continue;
            }
            int partitions = topic.assignments().isEmpty()
                    ? (topic.numPartitions() == -1 ? defaults.numPartitions() : topic.numPartitions())
                    : topic.assignments().size();
            short replicationFactor = topic.replicationFactor() == -1 ? defaults.replicationFactor()
                    : topic.replicationFactor();
            String invalid = newTopicProblem(topic, partitions, replicationFactor);
            if (invalid != null) {
                fail(result, invalid.startsWith("partitions:") ? Errors.INVALID_PARTITIONS
                        : invalid.startsWith("config:") ? Errors.INVALID_CONFIG
                        : invalid.startsWith("assignment:") ? Errors.INVALID_REPLICA_ASSIGNMENT
                        : Errors.INVALID_REPLICATION_FACTOR, invalid.substring(invalid.indexOf(':') + 2));
                continue;
            }
            Uuid id = Uuid.randomUuid();
            result.setErrorCode(Errors.NONE.code())
                    .setTopicId(validateOnly ? Uuid.ZERO_UUID : id)
                    .setNumPartitions(partitions)
                    .setReplicationFactor(replicationFactor);
            takenCollisionKeys.put(TopicNames.collisionKey(topic.name()), topic.name());
            if (!validateOnly) {
                records.add(VersionedRecord.of(MetadataRecordType.TOPIC_RECORD,
                        new TopicRecordData().setName(topic.name()).setTopicId(id)));
                for (int partition = 0; partition < partitions; partition++) {
                    records.add(newPartition(id, partition));
                }
                for (Map.Entry<String, String> config : overrides(topic).entrySet()) {
                    records.add(configRecord(topic.name(), config.getKey(), config.getValue()));
                }
            }
        }
        return new MetadataChange<>(records, results);
    }

    /** Checks the name's rules, that it is free and that it collides with no topic; else fails the result. */
    private static boolean acceptsName(MetadataImage image, String name, Map<String, String> takenCollisionKeys,
                                       CreatableTopicResult result) {
        String invalid = TopicNames.whyInvalid(name);
        if (invalid != null) {
            fail(result, Errors.INVALID_TOPIC_EXCEPTION, invalid);
            return false;
        }
        if (TopicNames.collisionKey(name).equals(TopicNames.collisionKey(MetadataLog.TOPIC))) {
            // Its partition directory would be the metadata log's own.
            fail(result, Errors.INVALID_REQUEST, "'" + name + "' is the name of the broker's metadata log, not a "
                    + "topic one may create");
            return false;
        }
        if (image.topic(name) != null || name.equals(takenCollisionKeys.get(TopicNames.collisionKey(name)))) {
            fail(result, Errors.TOPIC_ALREADY_EXISTS, "Topic '" + name + "' already exists.");
            return false;
        }
        String collidesWith = takenCollisionKeys.get(TopicNames.collisionKey(name));
        if (collidesWith != null) {
            fail(result, Errors.INVALID_TOPIC_EXCEPTION, "Topic '" + name + "' collides with existing topic: "
                    + collidesWith);
            return false;
        }
        return true;
    }

    private String newTopicProblem(CreatableTopic topic, int partitions, short replicationFactor) {
        if (!topic.assignments().isEmpty() && (topic.numPartitions() != -1 || topic.replicationFactor() != -1)) {
            return "assignment: Both numPartitions or replicationFactor and replicasAssignments were set. "
                    + "Both cannot be used at the same time.";
        }
        for (CreatableReplicaAssignment assignment : topic.assignments()) {
            if (!assignment.brokerIds().equals(List.of(nodeId))) {
                return "assignment: Replica assignment " + assignment.brokerIds() + " of partition "
                        + assignment.partitionIndex() + " names brokers other than the only live broker " + nodeId;
            }
        }
        if (partitions <= 0) {
            return "partitions: Number of partitions was set to an invalid non-positive value.";
        }
        if (replicationFactor <= 0) {
            return "replication: Replication factor must be larger than 0, or -1 to use the default value.";
        }
        if (replicationFactor > 1) {
            return "replication: Unable to replicate the partition " + replicationFactor
                    + " time(s): The target replication factor of " + replicationFactor
                    + " cannot be reached because only 1 broker(s) are registered.";
        }
        String configProblem = configValidator.apply(overrides(topic));
        return configProblem == null ? null : "config: " + configProblem;
    }

    private static Map<String, String> overrides(CreatableTopic topic) {
        Map<String, String> overrides = new LinkedHashMap<>();
        for (CreatableTopicConfig config : topic.configs()) {
            if (config.value() != null) {
                overrides.put(config.name(), config.value());
            }
        }
        return overrides;
    }

    private static Set<String> duplicateNames(List<CreatableTopic> topics) {
        Set<String> seen = new HashSet<>();
        Set<String> duplicates = new HashSet<>();
        for (CreatableTopic topic : topics) {
            if (!seen.add(topic.name())) {
                duplicates.add(topic.name());
            }
        }
        return duplicates;
    }

    private VersionedRecord newPartition(Uuid topicId, int partition) {
        return VersionedRecord.of(MetadataRecordType.PARTITION_RECORD, new PartitionRecordData()
                .setPartitionId(partition)
                .setTopicId(topicId)
                .setReplicas(List.of(nodeId))
                .setIsr(List.of(nodeId))
                .setLeader(nodeId)
                .setLeaderEpoch(0)
                .setPartitionEpoch(0));
    }

    static VersionedRecord configRecord(String topic, String name, String value) {
        return VersionedRecord.of(MetadataRecordType.CONFIG_RECORD, new ConfigRecordData()
                .setResourceType(ConfigResource.TOPIC)
                .setResourceName(topic)
                .setName(name)
                .setValue(value));
    }

    private static void fail(CreatableTopicResult result, Errors error, String message) {
        result.setErrorCode(error.code()).setErrorMessage(message).setNumPartitions(-1).setReplicationFactor((short) -1);
    }

    /** A topic to delete, named by name or by id (DeleteTopics v6). */
    public record TopicReference(String name, Uuid id) {
    }

    public MetadataChange<List<DeletableTopicResult>> deleteTopics(MetadataImage image, List<TopicReference> topics) {
        List<VersionedRecord> records = new ArrayList<>();
        List<DeletableTopicResult> results = new ArrayList<>();
        Set<Uuid> deleted = new HashSet<>();
        for (TopicReference reference : topics) {
            TopicImage topic = reference.name() != null ? image.topic(reference.name()) : image.topic(reference.id());
            DeletableTopicResult result = new DeletableTopicResult().setName(reference.name())
                    .setTopicId(reference.id() == null ? Uuid.ZERO_UUID : reference.id());
            results.add(result);
            if (topic == null) {
                Errors error = reference.name() != null ? Errors.UNKNOWN_TOPIC_OR_PARTITION : Errors.UNKNOWN_TOPIC_ID;
                result.setErrorCode(error.code()).setErrorMessage(reference.name() != null
                        ? "This server does not host this topic-partition." : "This server does not host this topic ID.");
                continue;
            }
            result.setName(topic.name()).setTopicId(topic.id()).setErrorCode(Errors.NONE.code());
            if (deleted.add(topic.id())) {
                records.add(VersionedRecord.of(MetadataRecordType.REMOVE_TOPIC_RECORD,
                        new RemoveTopicRecordData().setTopicId(topic.id())));
            }
        }
        return new MetadataChange<>(records, results);
    }

    public MetadataChange<List<CreatePartitionsTopicResult>> createPartitions(MetadataImage image,
            List<CreatePartitionsTopic> topics, boolean validateOnly) {
        List<VersionedRecord> records = new ArrayList<>();
        List<CreatePartitionsTopicResult> results = new ArrayList<>();
        for (CreatePartitionsTopic request : topics) {
            CreatePartitionsTopicResult result = new CreatePartitionsTopicResult().setName(request.name());
            results.add(result);
            TopicImage topic = image.topic(request.name());
            int current = topic == null ? 0 : topic.partitions().size();
            // Null (the Java admin) or empty (a default-built request): no explicit assignment.
            boolean assigned = request.assignments() != null && !request.assignments().isEmpty();
            if (topic == null) {
                result.setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code())
                        .setErrorMessage("This server does not host this topic-partition.");
            } else if (request.count() < current) {
                result.setErrorCode(Errors.INVALID_PARTITIONS.code()).setErrorMessage("Topic currently has " + current
                        + " partitions, which is higher than the requested " + request.count() + ".");
            } else if (request.count() == current) {
                result.setErrorCode(Errors.INVALID_PARTITIONS.code())
                        .setErrorMessage("Topic already has " + current + " partitions.");
            } else if (assigned && request.assignments().size() != request.count() - current) {
                result.setErrorCode(Errors.INVALID_REPLICA_ASSIGNMENT.code()).setErrorMessage("Attempted to add "
                        + (request.count() - current) + " additional partition(s), but only "
                        + request.assignments().size() + " assignment(s) were specified.");
            } else if (assigned && request.assignments().stream()
                    .anyMatch(assignment -> !assignment.brokerIds().equals(List.of(nodeId)))) {
                result.setErrorCode(Errors.INVALID_REPLICA_ASSIGNMENT.code())
                        .setErrorMessage("Replica assignments may name only the live broker " + nodeId + ".");
            } else {
                result.setErrorCode(Errors.NONE.code());
                if (!validateOnly) {
                    for (int partition = current; partition < request.count(); partition++) {
                        records.add(newPartition(topic.id(), partition));
                    }
                }
            }
        }
        return new MetadataChange<>(records, results);
    }
}

package dev.spool.broker.metadata;

import dev.spool.protocol.Errors;
import dev.spool.protocol.message.CreatePartitionsRequestData.CreatePartitionsAssignment;
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

    private final TopicDefaults defaults;
    private final Function<Map<String, String>, String> configValidator;

    /**
     * @param configValidator checks a topic's config overrides: the reason they are invalid, or null
     */
    public TopicController(TopicDefaults defaults, Function<Map<String, String>, String> configValidator) {
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
        List<Integer> live = ReplicaPlacement.liveBrokers(image);
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
            String invalid = newTopicProblem(topic, partitions, replicationFactor, live);
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
                List<List<Integer>> replicas = topic.assignments().isEmpty()
                        ? ReplicaPlacement.place(topic.name(), 0, partitions, replicationFactor, live)
                        : assignedReplicas(topic.assignments());
                for (int partition = 0; partition < partitions; partition++) {
                    records.add(newPartition(id, partition, replicas.get(partition)));
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

    private String newTopicProblem(CreatableTopic topic, int partitions, short replicationFactor, List<Integer> live) {
        if (!topic.assignments().isEmpty() && (topic.numPartitions() != -1 || topic.replicationFactor() != -1)) {
            return "assignment: Both numPartitions or replicationFactor and replicasAssignments were set. "
                    + "Both cannot be used at the same time.";
        }
        for (CreatableReplicaAssignment assignment : topic.assignments()) {
            String problem = ReplicaPlacement.whyInvalid(assignment.brokerIds(), live);
            if (problem != null) {
                return "assignment: Replica assignment " + assignment.brokerIds() + " of partition "
                        + assignment.partitionIndex() + " " + problem;
            }
        }
        if (partitions <= 0) {
            return "partitions: Number of partitions was set to an invalid non-positive value.";
        }
        if (replicationFactor <= 0) {
            return "replication: Replication factor must be larger than 0, or -1 to use the default value.";
        }
        if (topic.assignments().isEmpty() && replicationFactor > live.size()) {
            return "replication: Unable to replicate the partition " + replicationFactor
                    + " time(s): The target replication factor of " + replicationFactor
                    + " cannot be reached because only " + live.size() + " broker(s) are registered.";
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

    /** The replicas of each partition as a request assigned them, by partition index order. */
    private static List<List<Integer>> assignedReplicas(List<CreatableReplicaAssignment> assignments) {
        List<List<Integer>> replicas = new ArrayList<>(assignments.size());
        for (CreatableReplicaAssignment assignment : assignments) {
            replicas.add(List.copyOf(assignment.brokerIds()));
        }
        return replicas;
    }

    /** A new partition: every replica in sync, the first one leading. */
    private static VersionedRecord newPartition(Uuid topicId, int partition, List<Integer> replicas) {
        return VersionedRecord.of(MetadataRecordType.PARTITION_RECORD, new PartitionRecordData()
                .setPartitionId(partition)
                .setTopicId(topicId)
                .setReplicas(new ArrayList<>(replicas))
                .setIsr(new ArrayList<>(replicas))
                .setLeader(replicas.get(0))
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
        List<Integer> live = ReplicaPlacement.liveBrokers(image);
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
            } else if (assigned && invalidAssignment(request, live) != null) {
                result.setErrorCode(Errors.INVALID_REPLICA_ASSIGNMENT.code())
                        .setErrorMessage(invalidAssignment(request, live));
            } else if (!assigned && replicationFactorOf(topic) > live.size()) {
                result.setErrorCode(Errors.INVALID_REPLICATION_FACTOR.code()).setErrorMessage("Unable to replicate the "
                        + "partition " + replicationFactorOf(topic) + " time(s): only " + live.size()
                        + " broker(s) are registered.");
            } else {
                result.setErrorCode(Errors.NONE.code());
                if (!validateOnly) {
                    int added = request.count() - current;
                    List<List<Integer>> replicas = assigned ? assignedBrokers(request)
                            : ReplicaPlacement.place(topic.name(), current, added, replicationFactorOf(topic), live);
                    for (int i = 0; i < added; i++) {
                        records.add(newPartition(topic.id(), current + i, replicas.get(i)));
                    }
                }
            }
        }
        return new MetadataChange<>(records, results);
    }

    /** A topic's replication factor: the replica count of its first partition. */
    private static short replicationFactorOf(TopicImage topic) {
        return (short) topic.partitions().values().iterator().next().replicas().size();
    }

    private static String invalidAssignment(CreatePartitionsTopic request, List<Integer> live) {
        for (CreatePartitionsAssignment assignment : request.assignments()) {
            String problem = ReplicaPlacement.whyInvalid(assignment.brokerIds(), live);
            if (problem != null) {
                return "Replica assignment " + assignment.brokerIds() + " " + problem + ".";
            }
        }
        return null;
    }

    private static List<List<Integer>> assignedBrokers(CreatePartitionsTopic request) {
        List<List<Integer>> replicas = new ArrayList<>(request.assignments().size());
        for (CreatePartitionsAssignment assignment : request.assignments()) {
            replicas.add(List.copyOf(assignment.brokerIds()));
        }
        return replicas;
    }
}

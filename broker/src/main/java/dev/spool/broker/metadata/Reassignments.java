package dev.spool.broker.metadata;

import dev.spool.protocol.Errors;
import dev.spool.protocol.message.AlterPartitionReassignmentsRequestData;
import dev.spool.protocol.message.AlterPartitionReassignmentsRequestData.ReassignablePartition;
import dev.spool.protocol.message.AlterPartitionReassignmentsRequestData.ReassignableTopic;
import dev.spool.protocol.message.AlterPartitionReassignmentsResponseData;
import dev.spool.protocol.message.AlterPartitionReassignmentsResponseData.ReassignablePartitionResponse;
import dev.spool.protocol.message.AlterPartitionReassignmentsResponseData.ReassignableTopicResponse;
import dev.spool.protocol.message.ListPartitionReassignmentsRequestData;
import dev.spool.protocol.message.ListPartitionReassignmentsResponseData;
import dev.spool.protocol.message.ListPartitionReassignmentsResponseData.OngoingPartitionReassignment;
import dev.spool.protocol.message.ListPartitionReassignmentsResponseData.OngoingTopicReassignment;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * Partition reassignments (KIP-455; {@code kafka-reassign-partitions}) decided against the image on the active
 * controller: AlterPartitionReassignments starts, replaces or cancels them ({@link PartitionChange} keeps the
 * replicas being added and removed, and completes a reassignment once the added ones are in sync);
 * ListPartitionReassignments lists those under way. Kafka's errors per partition: UNKNOWN_TOPIC_OR_PARTITION,
 * INVALID_REPLICA_ASSIGNMENT (empty, repeated or unregistered brokers), INVALID_REPLICATION_FACTOR (v1's
 * AllowReplicationFactorChange false), NO_REASSIGNMENT_IN_PROGRESS (a cancel with none), ELIGIBLE_LEADERS_NOT_AVAILABLE
 * (a cancel that would leave no replica in sync). Stateless.
 */
public final class Reassignments {

    private Reassignments() {
    }

    public static MetadataChange<AlterPartitionReassignmentsResponseData> alter(
            MetadataImage image, AlterPartitionReassignmentsRequestData request, ElectionRules rules) {
        List<VersionedRecord> records = new ArrayList<>();
        List<ReassignableTopicResponse> topics = new ArrayList<>();
        for (ReassignableTopic wanted : request.topics()) {
            TopicImage topic = image.topic(wanted.name());
            List<ReassignablePartitionResponse> answers = new ArrayList<>();
            for (ReassignablePartition partition : wanted.partitions()) {
                PartitionImage current = topic == null ? null : topic.partition(partition.partitionIndex());
                Refusal refusal = current == null
                        ? new Refusal(Errors.UNKNOWN_TOPIC_OR_PARTITION,
                                "No partition " + wanted.name() + "-" + partition.partitionIndex() + " exists.")
                        : whyRefused(image, current, partition.replicas(), request.allowReplicationFactorChange());
                if (refusal == null) {
                    PartitionChange change = new PartitionChange(image, topic, current, rules);
                    VersionedRecord record = (partition.replicas() == null ? change.cancellingReassignment()
                            : change.reassigning(partition.replicas())).record();
                    if (record != null) {
                        records.add(record);
                    }
                }
                answers.add(new ReassignablePartitionResponse().setPartitionIndex(partition.partitionIndex())
                        .setErrorCode(refusal == null ? Errors.NONE.code() : refusal.error().code())
                        .setErrorMessage(refusal == null ? null : refusal.message()));
            }
            topics.add(new ReassignableTopicResponse().setName(wanted.name()).setPartitions(answers));
        }
        return new MetadataChange<>(records, new AlterPartitionReassignmentsResponseData()
                .setAllowReplicationFactorChange(request.allowReplicationFactorChange()).setResponses(topics));
    }

    /** The reassignments under way among those asked for (every partition when the request names no topics). */
    public static ListPartitionReassignmentsResponseData list(MetadataImage image,
                                                              ListPartitionReassignmentsRequestData request) {
        List<OngoingTopicReassignment> topics = new ArrayList<>();
        if (request.topics() == null) {
            for (TopicImage topic : image.topics()) {
                addOngoing(topics, topic, topic.partitions().keySet());
            }
        } else {
            for (ListPartitionReassignmentsRequestData.ListPartitionReassignmentsTopics wanted : request.topics()) {
                TopicImage topic = image.topic(wanted.name());
                if (topic != null) {
                    addOngoing(topics, topic, wanted.partitionIndexes());
                }
            }
        }
        return new ListPartitionReassignmentsResponseData().setErrorCode(Errors.NONE.code()).setTopics(topics);
    }

    private static void addOngoing(List<OngoingTopicReassignment> topics, TopicImage topic,
                                   Iterable<Integer> partitions) {
        List<OngoingPartitionReassignment> ongoing = new ArrayList<>();
        for (int index : partitions) {
            PartitionImage partition = topic.partition(index);
            if (partition != null && partition.reassigning()) {
                ongoing.add(new OngoingPartitionReassignment().setPartitionIndex(index)
                        .setReplicas(new ArrayList<>(partition.replicas()))
                        .setAddingReplicas(new ArrayList<>(partition.addingReplicas()))
                        .setRemovingReplicas(new ArrayList<>(partition.removingReplicas())));
            }
        }
        if (!ongoing.isEmpty()) {
            topics.add(new OngoingTopicReassignment().setName(topic.name()).setPartitions(ongoing));
        }
    }

    /** A partition's reassignment not taken: Kafka's error and message. */
    private record Refusal(Errors error, String message) {
    }

    /** Why {@code target} (null: a cancel) cannot be taken for {@code current}; null if it can. */
    private static Refusal whyRefused(MetadataImage image, PartitionImage current, List<Integer> target,
                                      boolean allowReplicationFactorChange) {
        if (target == null) {
            if (!current.reassigning()) {
                return new Refusal(Errors.NO_REASSIGNMENT_IN_PROGRESS,
                        "No reassignment is in progress for this partition.");
            }
            if (current.isr().stream().allMatch(current.addingReplicas()::contains)) {
                return new Refusal(Errors.ELIGIBLE_LEADERS_NOT_AVAILABLE,
                        "Cancelling would leave no replica of the original assignment in sync.");
            }
            return null;
        }
        if (target.isEmpty()) {
            return invalid("The manual partition assignment includes an empty replica list.");
        }
        if (new HashSet<>(target).size() != target.size()) {
            return invalid("The manual partition assignment includes duplicate broker IDs: " + target + ".");
        }
        for (int broker : target) {
            if (!image.brokers().containsKey(broker)) {
                return invalid("The manual partition assignment includes broker " + broker
                        + ", but no such broker is registered.");
            }
        }
        // Against the replicas the partition is heading for, under a reassignment already (KIP-860).
        int replicationFactor = current.targetReplicas().size();
        if (!allowReplicationFactorChange && target.size() != replicationFactor) {
            return new Refusal(Errors.INVALID_REPLICATION_FACTOR, "The replication factor would change from "
                    + replicationFactor + " to " + target.size()
                    + ", which the request does not allow (AllowReplicationFactorChange false).");
        }
        return null;
    }

    private static Refusal invalid(String message) {
        return new Refusal(Errors.INVALID_REPLICA_ASSIGNMENT, message);
    }
}

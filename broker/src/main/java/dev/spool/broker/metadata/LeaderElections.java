package dev.spool.broker.metadata;

import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ElectLeadersRequestData;
import dev.spool.protocol.message.ElectLeadersResponseData;
import dev.spool.protocol.message.ElectLeadersResponseData.PartitionResult;
import dev.spool.protocol.message.ElectLeadersResponseData.ReplicaElectionResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Elections an operator asks for (ElectLeaders, {@code kafka-leader-election}) and the controller's own preferred
 * leader balancing ({@code auto.leader.rebalance.enable}), decided against the image on the active controller.
 * A preferred election gives the leadership to the first replica of the assignment when it is in sync and unfenced;
 * an unclean one elects, for a partition without a leader, an unfenced in-sync or eligible replica if there is one,
 * else any unfenced replica, which becomes the whole ISR and may lack acknowledged records ({@link PartitionChange}).
 * Both follow the topics' {@link ElectionRules}. Stateless.
 */
public final class LeaderElections {

    /** ElectLeaders' election types. */
    public static final byte PREFERRED = 0;
    public static final byte UNCLEAN = 1;

    private LeaderElections() {
    }

    /**
     * The changes and the answer of an ElectLeaders request. Named partitions are each answered; with none named
     * (every partition), only those an election was needed for, as Kafka answers.
     */
    public static MetadataChange<ElectLeadersResponseData> elect(MetadataImage image, ElectLeadersRequestData request,
                                                                 ElectionRules rules) {
        byte type = request.electionType();
        List<VersionedRecord> records = new ArrayList<>();
        Map<String, List<PartitionResult>> results = new LinkedHashMap<>();
        if (type != PREFERRED && type != UNCLEAN) {
            return MetadataChange.none(new ElectLeadersResponseData().setErrorCode(Errors.INVALID_REQUEST.code()));
        }
        if (request.topicPartitions() == null) {
            for (TopicImage topic : image.topics()) {
                for (PartitionImage partition : topic.partitions().values()) {
                    PartitionResult result = electOne(image, topic, partition, type, rules, records);
                    if (result.errorCode() != Errors.ELECTION_NOT_NEEDED.code()) {
                        results.computeIfAbsent(topic.name(), name -> new ArrayList<>()).add(result);
                    }
                }
            }
        } else {
            for (ElectLeadersRequestData.TopicPartitions wanted : request.topicPartitions()) {
                TopicImage topic = image.topic(wanted.topic());
                List<PartitionResult> answered = results.computeIfAbsent(wanted.topic(), name -> new ArrayList<>());
                for (int index : wanted.partitions()) {
                    PartitionImage partition = topic == null ? null : topic.partition(index);
                    answered.add(partition == null
                            ? failed(index, Errors.UNKNOWN_TOPIC_OR_PARTITION, "No partition " + wanted.topic() + "-"
                                    + index + " exists.")
                            : electOne(image, topic, partition, type, rules, records));
                }
            }
        }
        List<ReplicaElectionResult> topics = new ArrayList<>();
        results.forEach((topic, partitions) -> topics.add(new ReplicaElectionResult().setTopic(topic)
                .setPartitionResult(partitions)));
        return new MetadataChange<>(records, new ElectLeadersResponseData().setErrorCode(Errors.NONE.code())
                .setReplicaElectionResults(topics));
    }

    /** The preferred leader elections possible now (the controller's balancing); the number of partitions moved. */
    public static MetadataChange<Integer> balance(MetadataImage image, ElectionRules rules) {
        List<VersionedRecord> records = new ArrayList<>();
        for (TopicImage topic : image.topics()) {
            for (PartitionImage partition : topic.partitions().values()) {
                electOne(image, topic, partition, PREFERRED, rules, records);
            }
        }
        return new MetadataChange<>(records, records.size());
    }

    /**
     * For every partition without a leader whose topic allows unclean elections, an unclean election (see
     * {@link #electOne}); the number of partitions given a leader.
     */
    public static MetadataChange<Integer> uncleanWhereAllowed(MetadataImage image, ElectionRules rules) {
        List<VersionedRecord> records = new ArrayList<>();
        for (TopicImage topic : image.topics()) {
            if (rules.uncleanAllowed(image, topic.name())) {
                for (PartitionImage partition : topic.partitions().values()) {
                    electOne(image, topic, partition, UNCLEAN, rules, records);
                }
            }
        }
        return new MetadataChange<>(records, records.size());
    }

    private static PartitionResult electOne(MetadataImage image, TopicImage topic, PartitionImage partition,
                                            byte type, ElectionRules rules, List<VersionedRecord> records) {
        int index = partition.partition();
        if (type == PREFERRED) {
            int preferred = partition.replicas().get(0);
            if (partition.leader() == preferred) {
                return failed(index, Errors.ELECTION_NOT_NEEDED, "The preferred replica " + preferred + " leads.");
            }
            if (!partition.isr().contains(preferred) || !image.isUnfenced(preferred)) {
                return failed(index, Errors.PREFERRED_LEADER_NOT_AVAILABLE, "The preferred replica " + preferred
                        + " is not an unfenced member of the ISR " + partition.isr() + ".");
            }
            records.add(new PartitionChange(image, topic, partition, rules).preferring(preferred).record());
            return succeeded(index);
        }
        if (partition.leader() >= 0) {
            return failed(index, Errors.ELECTION_NOT_NEEDED, "Replica " + partition.leader() + " leads.");
        }
        PartitionChange change = new PartitionChange(image, topic, partition, rules).unclean();
        VersionedRecord record = change.record();
        if (change.leader() >= 0) {
            records.add(record);
            return succeeded(index);
        }
        return failed(index, Errors.ELIGIBLE_LEADERS_NOT_AVAILABLE, "No replica of " + topic.name() + "-" + index
                + " is on an unfenced broker.");
    }

    private static PartitionResult succeeded(int partition) {
        return new PartitionResult().setPartitionId(partition).setErrorCode(Errors.NONE.code());
    }

    private static PartitionResult failed(int partition, Errors error, String message) {
        return new PartitionResult().setPartitionId(partition).setErrorCode(error.code()).setErrorMessage(message);
    }
}

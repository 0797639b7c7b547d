package dev.spool.broker.metadata;

import dev.spool.protocol.Errors;
import dev.spool.protocol.message.AlterPartitionRequestData;
import dev.spool.protocol.message.AlterPartitionResponseData;
import java.util.ArrayList;
import java.util.List;

/**
 * The controller's decision on a leader's AlterPartition (Kafka's API 56, v2-3): each partition's new ISR is
 * taken, as a PartitionChangeRecord that bumps the partition epoch, when the request comes from the partition's
 * leader in its current leader epoch and partition epoch, the ISR keeps the leader, and every replica it adds is
 * a registered, unfenced broker of the partition (in its current broker epoch, v3). Otherwise Kafka's errors:
 * STALE_BROKER_EPOCH (the whole request), UNKNOWN_TOPIC_ID, UNKNOWN_TOPIC_OR_PARTITION, NOT_LEADER_OR_FOLLOWER,
 * FENCED_LEADER_EPOCH, INVALID_UPDATE_VERSION, INVALID_REQUEST, INELIGIBLE_REPLICA; NEW_LEADER_ELECTED when the change
 * (completing a reassignment) moved the leadership away. Stateless.
 */
public final class IsrChanges {

    private IsrChanges() {
    }

    public static MetadataChange<AlterPartitionResponseData> alter(MetadataImage image,
                                                                   AlterPartitionRequestData request) {
        return alter(image, request, ElectionRules.DEFAULTS);
    }

    /**
     * As {@link #alter(MetadataImage, AlterPartitionRequestData)}, under the topics' {@code rules}: replicas leaving
     * an ISR below min ISR become eligible leaders ({@link PartitionChange}).
     */
    public static MetadataChange<AlterPartitionResponseData> alter(MetadataImage image,
                                                                   AlterPartitionRequestData request,
                                                                   ElectionRules rules) {
        BrokerRegistration requester = image.brokers().get(request.brokerId());
        if (requester == null || requester.brokerEpoch() != request.brokerEpoch()) {
            return MetadataChange.none(new AlterPartitionResponseData()
                    .setErrorCode(Errors.STALE_BROKER_EPOCH.code()));
        }
        List<VersionedRecord> records = new ArrayList<>();
        List<AlterPartitionResponseData.TopicData> topics = new ArrayList<>();
        for (AlterPartitionRequestData.TopicData topic : request.topics()) {
            TopicImage known = image.topic(topic.topicId());
            List<AlterPartitionResponseData.PartitionData> answers = new ArrayList<>();
            for (AlterPartitionRequestData.PartitionData wanted : topic.partitions()) {
                AlterPartitionResponseData.PartitionData answer = new AlterPartitionResponseData.PartitionData()
                        .setPartitionIndex(wanted.partitionIndex());
                PartitionImage partition = known == null ? null : known.partitions().get(wanted.partitionIndex());
                Errors error = known == null ? Errors.UNKNOWN_TOPIC_ID : partition == null
                        ? Errors.UNKNOWN_TOPIC_OR_PARTITION : whyRefused(image, request.brokerId(), partition, wanted);
                if (error != Errors.NONE) {
                    answers.add(answer.setErrorCode(error.code()));
                    continue;
                }
                // The partition as it is after the change: a reassignment it completes may take replicas out of the
                // ISR, and the leader too.
                PartitionChange decided = new PartitionChange(image, known, partition, rules).isr(newIsr(wanted));
                VersionedRecord change = decided.record();
                if (change != null) {
                    records.add(change);
                }
                boolean newLeader = decided.leader() != partition.leader();
                if (newLeader) {
                    // The change completed a reassignment that removed this leader: Kafka's answer says so.
                    answer.setErrorCode(Errors.NEW_LEADER_ELECTED.code());
                }
                answers.add(answer.setLeaderId(decided.leader())
                        .setLeaderEpoch(decided.newLeaderEpoch() ? partition.leaderEpoch() + 1 : partition.leaderEpoch())
                        .setIsr(new ArrayList<>(decided.isr()))
                        .setPartitionEpoch(change != null ? partition.partitionEpoch() + 1 : partition.partitionEpoch()));
            }
            topics.add(new AlterPartitionResponseData.TopicData().setTopicId(topic.topicId()).setPartitions(answers));
        }
        return new MetadataChange<>(records, new AlterPartitionResponseData().setTopics(topics));
    }

    private static List<Integer> newIsr(AlterPartitionRequestData.PartitionData wanted) {
        if (!wanted.newIsrWithEpochs().isEmpty()) {
            List<Integer> isr = new ArrayList<>();
            for (AlterPartitionRequestData.BrokerState broker : wanted.newIsrWithEpochs()) {
                isr.add(broker.brokerId());
            }
            return isr;
        }
        return List.copyOf(wanted.newIsr());
    }

    private static Errors whyRefused(MetadataImage image, int brokerId, PartitionImage partition,
                                     AlterPartitionRequestData.PartitionData wanted) {
        if (partition.leader() != brokerId) {
            return Errors.NOT_LEADER_OR_FOLLOWER;
        }
        if (wanted.leaderEpoch() != partition.leaderEpoch()) {
            return wanted.leaderEpoch() < partition.leaderEpoch() ? Errors.FENCED_LEADER_EPOCH
                    : Errors.NOT_LEADER_OR_FOLLOWER;
        }
        if (wanted.partitionEpoch() != partition.partitionEpoch()) {
            return Errors.INVALID_UPDATE_VERSION;
        }
        List<Integer> isr = newIsr(wanted);
        if (!isr.contains(brokerId) || isr.stream().distinct().count() != isr.size()) {
            return Errors.INVALID_REQUEST;
        }
        for (AlterPartitionRequestData.BrokerState member : wanted.newIsrWithEpochs()) {
            if (!eligible(image, partition, member.brokerId(), member.brokerEpoch())) {
                return Errors.INELIGIBLE_REPLICA;
            }
        }
        for (int member : wanted.newIsr()) {
            if (!eligible(image, partition, member, -1)) {
                return Errors.INELIGIBLE_REPLICA;
            }
        }
        return Errors.NONE;
    }

    /** A replica may join the ISR when it is one of the partition's, registered and unfenced (in that epoch). */
    private static boolean eligible(MetadataImage image, PartitionImage partition, int brokerId, long brokerEpoch) {
        if (!partition.replicas().contains(brokerId)) {
            return false;
        }
        if (partition.isr().contains(brokerId)) {
            return true; // already in: only a shrink or a reorder concerns it
        }
        BrokerRegistration broker = image.brokers().get(brokerId);
        return broker != null && !broker.fenced() && (brokerEpoch < 0 || broker.brokerEpoch() == brokerEpoch);
    }
}

package dev.spool.broker.group;

import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.TopicImage;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.OffsetCommitRequestData;
import dev.spool.protocol.message.OffsetCommitRequestData.OffsetCommitRequestPartition;
import dev.spool.protocol.message.OffsetCommitRequestData.OffsetCommitRequestTopic;
import dev.spool.protocol.message.OffsetCommitResponseData;
import dev.spool.protocol.message.OffsetCommitResponseData.OffsetCommitResponsePartition;
import dev.spool.protocol.message.OffsetCommitResponseData.OffsetCommitResponseTopic;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Predicate;

/**
 * Immutable (over one metadata image): the partitions of an OffsetCommit that exist and that the committer may
 * READ. Kafka answers TOPIC_AUTHORIZATION_FAILED for the others, then
 * UNKNOWN_TOPIC_OR_PARTITION for each partition the metadata does not have, before the group coordinator sees
 * the request, so whatever the group's state, the member's generation or the version, and stores no offset a
 * consumer could never fetch from. {@link #existing} is the part of a request the coordinator is given;
 * {@link #answer} puts the coordinator's answer and the refused partitions back together in request order.
 */
final class CommitPartitionCheck {

    private final MetadataImage image;
    private final Predicate<String> readable;

    /** {@code readable}: the topics the committer may READ; a partition of another is TOPIC_AUTHORIZATION_FAILED. */
    CommitPartitionCheck(MetadataImage image, Predicate<String> readable) {
        this.image = image;
        this.readable = readable;
    }

    /** Why the coordinator is not given this partition, or null. */
    private Errors refusal(String topicName, int partition) {
        if (!readable.test(topicName)) {
            return Errors.TOPIC_AUTHORIZATION_FAILED;
        }
        TopicImage topic = image.topic(topicName);
        return topic != null && topic.partition(partition) != null ? null : Errors.UNKNOWN_TOPIC_OR_PARTITION;
    }

    /** The request with only the partitions not refused; a topic left without any is dropped. */
    OffsetCommitRequestData existing(OffsetCommitRequestData request) {
        List<OffsetCommitRequestTopic> topics = new ArrayList<>(request.topics().size());
        for (OffsetCommitRequestTopic topic : request.topics()) {
            List<OffsetCommitRequestPartition> partitions = new ArrayList<>(topic.partitions().size());
            for (OffsetCommitRequestPartition partition : topic.partitions()) {
                if (refusal(topic.name(), partition.partitionIndex()) == null) {
                    partitions.add(partition);
                }
            }
            if (!partitions.isEmpty()) {
                topics.add(new OffsetCommitRequestTopic().setName(topic.name()).setTopicId(topic.topicId())
                        .setPartitions(partitions));
            }
        }
        return new OffsetCommitRequestData().setGroupId(request.groupId())
                .setGenerationIdOrMemberEpoch(request.generationIdOrMemberEpoch()).setMemberId(request.memberId())
                .setGroupInstanceId(request.groupInstanceId()).setRetentionTimeMs(request.retentionTimeMs())
                .setTopics(topics);
    }

    /**
     * The answer to {@code request}: the refusal of each partition refused, and for
     * the others, in turn, the coordinator's answer to {@link #existing}{@code (request)}.
     */
    OffsetCommitResponseData answer(OffsetCommitRequestData request, OffsetCommitResponseData existingAnswer) {
        Iterator<OffsetCommitResponseTopic> answeredTopics = existingAnswer.topics().iterator();
        List<OffsetCommitResponseTopic> topics = new ArrayList<>(request.topics().size());
        for (OffsetCommitRequestTopic topic : request.topics()) {
            Iterator<OffsetCommitResponsePartition> answered = null;
            List<OffsetCommitResponsePartition> partitions = new ArrayList<>(topic.partitions().size());
            for (OffsetCommitRequestPartition partition : topic.partitions()) {
                Errors refusal = refusal(topic.name(), partition.partitionIndex());
                if (refusal != null) {
                    partitions.add(new OffsetCommitResponsePartition().setPartitionIndex(partition.partitionIndex())
                            .setErrorCode(refusal.code()));
                    continue;
                }
                if (answered == null) {
                    answered = answeredTopics.next().partitions().iterator();
                }
                partitions.add(answered.next());
            }
            topics.add(new OffsetCommitResponseTopic().setName(topic.name()).setTopicId(topic.topicId())
                    .setPartitions(partitions));
        }
        return new OffsetCommitResponseData().setThrottleTimeMs(existingAnswer.throttleTimeMs()).setTopics(topics);
    }
}

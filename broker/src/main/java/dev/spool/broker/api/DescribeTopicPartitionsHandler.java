package dev.spool.broker.api;

import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.PartitionImage;
import dev.spool.broker.metadata.TopicImage;
import dev.spool.broker.partition.OfflinePartitions;
import dev.spool.broker.security.acl.AclOperation;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.DescribeTopicPartitionsRequestData;
import dev.spool.protocol.message.DescribeTopicPartitionsResponseData;
import dev.spool.protocol.message.DescribeTopicPartitionsResponseData.Cursor;
import dev.spool.protocol.message.DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponsePartition;
import dev.spool.protocol.message.DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponseTopic;
import dev.spool.protocol.types.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * DescribeTopicPartitions (KIP-966): what {@code kafka-topics --describe} shows, with the eligible
 * leader replicas (empty: no ELR without a quorum) and pages of at most ResponsePartitionLimit
 * partitions, topics in name order, resumed from the cursor. An empty topic list asks for every
 * topic. A partition whose log dir failed is reported as Metadata does (KAFKA_STORAGE_ERROR, this broker
 * offline). Thread-safe.
 */
public final class DescribeTopicPartitionsHandler implements ApiHandler {

    private final Supplier<MetadataImage> metadata;
    private final OfflinePartitions offline;

    public DescribeTopicPartitionsHandler(Supplier<MetadataImage> metadata) {
        this(metadata, OfflinePartitions.NONE);
    }

    public DescribeTopicPartitionsHandler(Supplier<MetadataImage> metadata, OfflinePartitions offline) {
        this.metadata = metadata;
        this.offline = offline;
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message message) {
        DescribeTopicPartitionsRequestData request = (DescribeTopicPartitionsRequestData) message;
        MetadataImage image = metadata.get();
        TreeSet<String> names = new TreeSet<>();
        if (request.topics().isEmpty()) {
            // Every topic the sender may describe; the others are not there for it.
            image.topics().forEach(topic -> {
                if (context.access().allowsTopic(AclOperation.DESCRIBE, topic.name())) {
                    names.add(topic.name());
                }
            });
        } else {
            request.topics().forEach(topic -> names.add(topic.name()));
        }
        DescribeTopicPartitionsRequestData.Cursor cursor = request.cursor();
        int budget = Math.max(1, request.responsePartitionLimit());
        List<DescribeTopicPartitionsResponseTopic> topics = new ArrayList<>();
        Cursor next = null;
        for (String name : cursor == null ? names : names.tailSet(cursor.topicName(), true)) {
            TopicImage topic = image.topic(name);
            if (!context.access().allowsTopic(AclOperation.DESCRIBE, name)) {
                topics.add(new DescribeTopicPartitionsResponseTopic()
                        .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                        .setName(name));
                continue;
            }
            if (topic == null) {
                topics.add(new DescribeTopicPartitionsResponseTopic()
                        .setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code())
                        .setName(name));
                continue;
            }
            int first = cursor != null && name.equals(cursor.topicName()) ? cursor.partitionIndex() : 0;
            List<DescribeTopicPartitionsResponsePartition> partitions = new ArrayList<>();
            for (PartitionImage partition : topic.partitions().tailMap(first).values()) {
                if (budget == 0) {
                    next = new Cursor().setTopicName(name).setPartitionIndex(partition.partition());
                    break;
                }
                partitions.add(describe(partition, offline.isOffline(name, partition.partition())));
                budget--;
            }
            if (!partitions.isEmpty()) {
                topics.add(new DescribeTopicPartitionsResponseTopic()
                        .setErrorCode(Errors.NONE.code())
                        .setName(name)
                        .setTopicId(topic.id())
                        .setIsInternal(topic.isInternal())
                        .setPartitions(partitions));
            }
            if (next != null) {
                break;
            }
        }
        return CompletableFuture.completedFuture(new DescribeTopicPartitionsResponseData()
                .setTopics(topics)
                .setNextCursor(next));
    }

    private static DescribeTopicPartitionsResponsePartition describe(PartitionImage partition, boolean isOffline) {
        return new DescribeTopicPartitionsResponsePartition()
                .setErrorCode(isOffline ? Errors.KAFKA_STORAGE_ERROR.code() : Errors.NONE.code())
                .setPartitionIndex(partition.partition())
                .setLeaderId(partition.leader())
                .setLeaderEpoch(partition.leaderEpoch())
                .setReplicaNodes(new ArrayList<>(partition.replicas()))
                .setIsrNodes(new ArrayList<>(partition.isr()))
                .setEligibleLeaderReplicas(new ArrayList<>(partition.elr()))
                .setLastKnownElr(new ArrayList<>(partition.lastKnownElr()))
                .setOfflineReplicas(isOffline ? new ArrayList<>(partition.replicas()) : new ArrayList<>());
    }
}

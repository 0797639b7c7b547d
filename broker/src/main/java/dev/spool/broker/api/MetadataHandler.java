package dev.spool.broker.api;

import dev.spool.broker.cluster.ClusterView;
import dev.spool.broker.metadata.InternalTopics;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.PartitionImage;
import dev.spool.broker.metadata.TopicImage;
import dev.spool.broker.metadata.TopicNames;
import dev.spool.broker.partition.OfflinePartitions;
import dev.spool.broker.security.acl.AclOperation;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.CreateTopicsRequestData.CreatableTopic;
import dev.spool.protocol.message.MetadataRequestData;
import dev.spool.protocol.message.MetadataRequestData.MetadataRequestTopic;
import dev.spool.protocol.message.MetadataResponseData;
import dev.spool.protocol.message.MetadataResponseData.MetadataResponseBroker;
import dev.spool.protocol.message.MetadataResponseData.MetadataResponsePartition;
import dev.spool.protocol.message.MetadataResponseData.MetadataResponseTopic;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Metadata: the brokers, the cluster id, the controller and the requested topics (all of them for a
 * null list, or an empty one before v1) with their partitions, leaders and replicas. A topic asked for
 * by name that does not exist is created first when {@code auto.create.topics.enable} and the request
 * allow it (always before v4), with {@code num.partitions}. A partition whose log dir failed is reported
 * with KAFKA_STORAGE_ERROR and this broker among its offline replicas, its leader still this broker (see
 * {@link #describe(TopicImage)}). Thread-safe.
 */
public final class MetadataHandler implements ApiHandler {

    /** Creates topics that a Metadata request names and that do not exist yet. */
    @FunctionalInterface
    public interface TopicAutoCreator {
        CompletableFuture<?> create(List<CreatableTopic> topics);
    }

    private final Supplier<ClusterView> cluster;
    private final Supplier<MetadataImage> metadata;
    private final TopicAutoCreator autoCreator;
    private final OfflinePartitions offline;

    /** {@code autoCreator} null: auto.create.topics.enable=false. */
    public MetadataHandler(Supplier<ClusterView> cluster, Supplier<MetadataImage> metadata, TopicAutoCreator autoCreator) {
        this(cluster, metadata, autoCreator, OfflinePartitions.NONE);
    }

    public MetadataHandler(Supplier<ClusterView> cluster, Supplier<MetadataImage> metadata, TopicAutoCreator autoCreator,
                           OfflinePartitions offline) {
        this.cluster = cluster;
        this.metadata = metadata;
        this.autoCreator = autoCreator;
        this.offline = offline;
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message message) {
        MetadataRequestData request = (MetadataRequestData) message;
        boolean allTopics = request.topics() == null || (context.apiVersion() == 0 && request.topics().isEmpty());
        if (!allTopics && context.apiVersion() < 12 && request.topics().stream().anyMatch(t -> t.name() == null)) {
            // Topics are asked for by id from v12 on; before, a null name cannot even be answered.
            List<MetadataResponseTopic> invalid = new ArrayList<>();
            for (MetadataRequestTopic wanted : request.topics()) {
                invalid.add(new MetadataResponseTopic().setErrorCode(Errors.INVALID_REQUEST.code())
                        .setName(wanted.name() == null ? "" : wanted.name()));
            }
            return CompletableFuture.completedFuture(new MetadataResponseData().setTopics(invalid));
        }
        List<CreatableTopic> toCreate = new ArrayList<>();
        boolean mayCreate = autoCreator != null && (context.apiVersion() < 4 || request.allowAutoTopicCreation());
        if (!allTopics && mayCreate) {
            MetadataImage image = metadata.get();
            for (MetadataRequestTopic wanted : request.topics()) {
                if (wanted.name() != null && !wanted.name().isEmpty() && image.topic(wanted.name()) == null
                        && TopicNames.whyInvalid(wanted.name()) == null && !InternalTopics.isInternal(wanted.name())
                        && mayCreate(context.access(), wanted.name())) {
                    toCreate.add(new CreatableTopic().setName(wanted.name()).setNumPartitions(-1)
                            .setReplicationFactor((short) -1));
                }
            }
        }
        if (toCreate.isEmpty()) {
            return CompletableFuture.completedFuture(respond(context, request, allTopics, mayCreate,
                    metadata.get()));
        }
        return autoCreator.create(toCreate).thenApply(created -> respond(context, request, false, mayCreate,
                metadata.get()));
    }

    private MetadataResponseData respond(RequestContext context, MetadataRequestData request, boolean allTopics,
                                         boolean autoCreate, MetadataImage image) {
        ClusterView view = cluster.get().onListener(context.connection().listenerName());
        List<MetadataResponseBroker> brokers = new ArrayList<>();
        for (ClusterView.BrokerNode node : view.brokers()) {
            brokers.add(new MetadataResponseBroker()
                    .setNodeId(node.nodeId())
                    .setHost(node.endpoint().host())
                    .setPort(node.endpoint().port())
                    .setRack(node.rack()));
        }
        List<MetadataResponseTopic> result = new ArrayList<>();
        if (allTopics) {
            for (TopicImage topic : image.topics()) {
                if (context.access().allowsTopic(AclOperation.DESCRIBE, topic.name())) {
                    result.add(describe(topic));
                }
            }
        } else {
            for (MetadataRequestTopic wanted : request.topics()) {
                result.add(describe(image, wanted, context.access(), autoCreate));
            }
        }
        return new MetadataResponseData()
                .setBrokers(brokers)
                .setClusterId(view.clusterId())
                .setControllerId(view.controllerId())
                .setTopics(result);
    }

    /** One may create a topic with CREATE on the cluster or on the topic, and must see it (DESCRIBE) to learn of it. */
    private static boolean mayCreate(Access access, String topic) {
        return access.allowsTopic(AclOperation.DESCRIBE, topic) && (access.allowsOnCluster(AclOperation.CREATE)
                || access.allowsTopic(AclOperation.CREATE, topic));
    }

    /**
     * A topic asked for; one the sender may not DESCRIBE (or, by name and missing, may not create when it would be
     * created) is TOPIC_AUTHORIZATION_FAILED, as Kafka answers, telling nothing of it.
     */
    private MetadataResponseTopic describe(MetadataImage image, MetadataRequestTopic wanted, Access access,
                                          boolean autoCreate) {
        // By id when no name is given: Kafka's Java client leaves the name empty (its default) rather than null.
        boolean byId = wanted.name() == null || wanted.name().isEmpty() && !Uuid.ZERO_UUID.equals(wanted.topicId());
        TopicImage topic = byId ? image.topic(wanted.topicId()) : image.topic(wanted.name());
        String name = topic != null ? topic.name() : byId ? null : wanted.name();
        if (name != null && (!access.allowsTopic(AclOperation.DESCRIBE, name)
                || topic == null && autoCreate && !mayCreate(access, name))) {
            return new MetadataResponseTopic().setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                    .setName(wanted.name()).setTopicId(byId ? wanted.topicId() : Uuid.ZERO_UUID);
        }
        if (topic != null) {
            return describe(topic);
        }
        Errors error = byId ? Errors.UNKNOWN_TOPIC_ID
                : TopicNames.whyInvalid(wanted.name()) != null ? Errors.INVALID_TOPIC_EXCEPTION
                : Errors.UNKNOWN_TOPIC_OR_PARTITION;
        return new MetadataResponseTopic()
                .setErrorCode(error.code())
                .setName(wanted.name())
                .setTopicId(byId ? wanted.topicId() : Uuid.ZERO_UUID);
    }

    /**
     * Design note: for a partition on a failed log dir Kafka's controller would elect no leader (-1,
     * LEADER_NOT_AVAILABLE) when this broker holds the only replica; its clients then never send the
     * partition a request: a producer waits out delivery.timeout.ms and a consumer waits silently. Keeping
     * this broker as leader with KAFKA_STORAGE_ERROR (an InvalidMetadataException to the Java client: it
     * keeps the leader and refreshes its metadata) lets producers and consumers reach the broker and get
     * KAFKA_STORAGE_ERROR for that partition at once, while this broker is listed in offline_replicas as
     * Kafka lists a replica on an offline dir.
     */
    private MetadataResponseTopic describe(TopicImage topic) {
        List<MetadataResponsePartition> partitions = new ArrayList<>();
        for (PartitionImage partition : topic.partitions().values()) {
            boolean isOffline = offline.isOffline(topic.name(), partition.partition());
            partitions.add(new MetadataResponsePartition()
                    .setErrorCode(isOffline ? Errors.KAFKA_STORAGE_ERROR.code() : Errors.NONE.code())
                    .setPartitionIndex(partition.partition())
                    .setLeaderId(partition.leader())
                    .setLeaderEpoch(partition.leaderEpoch())
                    .setReplicaNodes(new ArrayList<>(partition.replicas()))
                    .setIsrNodes(new ArrayList<>(partition.isr()))
                    .setOfflineReplicas(isOffline ? new ArrayList<>(partition.replicas()) : new ArrayList<>()));
        }
        return new MetadataResponseTopic()
                .setErrorCode(Errors.NONE.code())
                .setName(topic.name())
                .setTopicId(topic.id())
                .setIsInternal(topic.isInternal())
                .setPartitions(partitions);
    }
}

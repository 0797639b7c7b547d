package dev.spool.broker.api;

import dev.spool.broker.cluster.ClusterView;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.MetadataRequestData;
import dev.spool.protocol.message.MetadataResponseData;
import dev.spool.protocol.message.MetadataResponseData.MetadataResponseBroker;
import dev.spool.protocol.message.MetadataResponseData.MetadataResponseTopic;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Metadata: the brokers, the cluster id, the controller and the requested topics. Thread-safe.
 *
 * <p>The broker holds no topics yet (topic creation comes with the metadata log), so every topic
 * asked for by name is UNKNOWN_TOPIC_OR_PARTITION and by id UNKNOWN_TOPIC_ID, and "all topics"
 * is the empty list.
 */
public final class MetadataHandler implements ApiHandler {

    private final Supplier<ClusterView> cluster;

    public MetadataHandler(Supplier<ClusterView> cluster) {
        this.cluster = cluster;
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message message) {
        MetadataRequestData request = (MetadataRequestData) message;
        ClusterView view = cluster.get();
        List<MetadataResponseBroker> brokers = new ArrayList<>();
        for (ClusterView.BrokerNode node : view.brokers()) {
            brokers.add(new MetadataResponseBroker()
                    .setNodeId(node.nodeId())
                    .setHost(node.endpoint().host())
                    .setPort(node.endpoint().port())
                    .setRack(node.rack()));
        }
        List<MetadataResponseTopic> topics = new ArrayList<>();
        if (request.topics() != null) {
            for (MetadataRequestData.MetadataRequestTopic wanted : request.topics()) {
                topics.add(unknownTopic(wanted));
            }
        }
        return CompletableFuture.completedFuture(new MetadataResponseData()
                .setBrokers(brokers)
                .setClusterId(view.clusterId())
                .setControllerId(view.controllerId())
                .setTopics(topics));
    }

    private static MetadataResponseTopic unknownTopic(MetadataRequestData.MetadataRequestTopic wanted) {
        boolean byId = wanted.name() == null && !Uuid.ZERO_UUID.equals(wanted.topicId());
        return new MetadataResponseTopic()
                .setErrorCode(byId ? Errors.UNKNOWN_TOPIC_ID.code() : Errors.UNKNOWN_TOPIC_OR_PARTITION.code())
                .setName(wanted.name())
                .setTopicId(wanted.topicId());
    }
}

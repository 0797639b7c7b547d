package dev.spool.broker.api;

import dev.spool.broker.cluster.ClusterView;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.MetadataLog;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.DescribeQuorumRequestData;
import dev.spool.protocol.message.DescribeQuorumResponseData;
import dev.spool.protocol.message.DescribeQuorumResponseData.Listener;
import dev.spool.protocol.message.DescribeQuorumResponseData.Node;
import dev.spool.protocol.message.DescribeQuorumResponseData.PartitionData;
import dev.spool.protocol.message.DescribeQuorumResponseData.ReplicaState;
import dev.spool.protocol.message.DescribeQuorumResponseData.TopicData;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * DescribeQuorum (what {@code kafka-metadata-quorum describe} sends): the metadata quorum of
 * {@code __cluster_metadata}, partition 0. Today the quorum is this node alone, its leader and only voter,
 * caught up with itself: the high watermark is the end of the metadata log the image was built from; the
 * leader epoch is 0 (a quorum of one holds no elections). The Raft quorum will answer with its voters'
 * states. Any other partition is UNKNOWN_TOPIC_OR_PARTITION, as Kafka answers. Thread-safe.
 */
public final class DescribeQuorumHandler implements ApiHandler {

    private static final short FIRST_VERSION_WITH_NODES = 2;

    private final int nodeId;
    private final Uuid directoryId;
    private final Supplier<MetadataImage> image;
    private final Supplier<ClusterView> cluster;
    private final LongSupplier clockMs;

    public DescribeQuorumHandler(int nodeId, Uuid directoryId, Supplier<MetadataImage> image,
                                 Supplier<ClusterView> cluster, LongSupplier clockMs) {
        this.nodeId = nodeId;
        this.directoryId = directoryId;
        this.image = image;
        this.cluster = cluster;
        this.clockMs = clockMs;
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message message) {
        DescribeQuorumRequestData request = (DescribeQuorumRequestData) message;
        long highWatermark = image.get().offset() + 1;
        long nowMs = clockMs.getAsLong();
        List<TopicData> topics = new ArrayList<>();
        for (DescribeQuorumRequestData.TopicData topic : request.topics()) {
            List<PartitionData> partitions = new ArrayList<>();
            for (DescribeQuorumRequestData.PartitionData partition : topic.partitions()) {
                PartitionData answer = new PartitionData().setPartitionIndex(partition.partitionIndex());
                if (!MetadataLog.TOPIC.equals(topic.topicName()) || partition.partitionIndex() != 0) {
                    answer.setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code()).setLeaderId(-1);
                } else {
                    answer.setErrorCode(Errors.NONE.code())
                            .setLeaderId(nodeId)
                            .setLeaderEpoch(0)
                            .setHighWatermark(highWatermark)
                            .setCurrentVoters(List.of(new ReplicaState()
                                    .setReplicaId(nodeId)
                                    .setReplicaDirectoryId(directoryId)
                                    .setLogEndOffset(highWatermark)
                                    .setLastFetchTimestamp(nowMs)
                                    .setLastCaughtUpTimestamp(nowMs)))
                            .setObservers(List.of());
                }
                partitions.add(answer);
            }
            topics.add(new TopicData().setTopicName(topic.topicName()).setPartitions(partitions));
        }
        DescribeQuorumResponseData response = new DescribeQuorumResponseData().setErrorCode(Errors.NONE.code())
                .setTopics(topics);
        if (context.apiVersion() >= FIRST_VERSION_WITH_NODES) {
            ClusterView.BrokerNode self = cluster.get().broker(nodeId);
            List<Listener> listeners = self == null ? List.of() : List.of(new Listener()
                    .setName(self.endpoint().listenerName()).setHost(self.endpoint().host())
                    .setPort(self.endpoint().port()));
            response.setNodes(List.of(new Node().setNodeId(nodeId).setListeners(listeners)));
        }
        return CompletableFuture.completedFuture(response);
    }
}

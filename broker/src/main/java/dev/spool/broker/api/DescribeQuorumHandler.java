package dev.spool.broker.api;

import dev.spool.broker.cluster.ClusterView;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.MetadataLog;
import dev.spool.broker.metadata.VoterProgress;
import dev.spool.broker.quorum.QuorumVoter;
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
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * DescribeQuorum (what {@code kafka-metadata-quorum describe} sends): the metadata quorum of
 * {@code __cluster_metadata}, partition 0. Today the quorum is this node alone, its leader and only voter,
 * caught up with itself: the high watermark is the end of the metadata log the image was built from; the
 * leader epoch is 0 (a quorum of one holds no elections). A voter of a Raft quorum answers with the leader and
 * term its Raft server knows and every voter. Any other partition is UNKNOWN_TOPIC_OR_PARTITION, as Kafka answers. Thread-safe.
 */
public final class DescribeQuorumHandler implements ApiHandler {

    private static final short FIRST_VERSION_WITH_NODES = 2;

    private final int nodeId;
    private final Uuid directoryId;
    private final Supplier<MetadataImage> image;
    private final Supplier<ClusterView> cluster;
    private final LongSupplier clockMs;
    private final IntSupplier leaderId;
    private final IntSupplier epoch;
    private final LongFunction<List<VoterProgress>> progress;
    private final Supplier<List<QuorumVoter>> voters;
    private final String controllerListener;

    public DescribeQuorumHandler(int nodeId, Uuid directoryId, Supplier<MetadataImage> image,
                                 Supplier<ClusterView> cluster, LongSupplier clockMs) {
        this(nodeId, directoryId, image, cluster, clockMs, () -> nodeId, () -> 0, now -> List.of(), List::of, null);
    }

    /**
     * A voter of a quorum of several: {@code leaderId} and {@code epoch} as its Raft server knows them, the other
     * voters' {@code progress} as the leader sees it, the {@code voters} now (a dynamic quorum's change) at their
     * controller listeners, named {@code controllerListener}.
     */
    public DescribeQuorumHandler(int nodeId, Uuid directoryId, Supplier<MetadataImage> image,
                                 Supplier<ClusterView> cluster, LongSupplier clockMs, IntSupplier leaderId,
                                 IntSupplier epoch, LongFunction<List<VoterProgress>> progress,
                                 Supplier<List<QuorumVoter>> voters, String controllerListener) {
        this.progress = progress;
        this.leaderId = leaderId;
        this.epoch = epoch;
        this.voters = voters;
        this.controllerListener = controllerListener;
        this.nodeId = nodeId;
        this.directoryId = directoryId;
        this.image = image;
        this.cluster = cluster;
        this.clockMs = clockMs;
    }

    /**
     * This node's state, and each other voter's as the leader sees it (a Raft follower's commit index, in Kafka
     * offsets); a voter the leader cannot tell of (or every other voter, asked of a follower) has -1, Kafka's
     * "unknown".
     */
    private List<ReplicaState> voterStates(List<QuorumVoter> voters, long highWatermark, long nowMs) {
        List<ReplicaState> states = new ArrayList<>();
        states.add(new ReplicaState().setReplicaId(nodeId).setReplicaDirectoryId(directoryId)
                .setLogEndOffset(highWatermark).setLastFetchTimestamp(nowMs).setLastCaughtUpTimestamp(nowMs));
        Map<Integer, VoterProgress> seen = new HashMap<>();
        for (VoterProgress voter : progress.apply(nowMs)) {
            seen.put(voter.nodeId(), voter);
        }
        for (QuorumVoter voter : voters) {
            if (voter.nodeId() == nodeId) {
                continue;
            }
            VoterProgress known = seen.get(voter.nodeId());
            long logEnd = known == null ? -1 : known.logEndOffset();
            long contact = known == null ? -1 : known.lastContactMs();
            states.add(new ReplicaState().setReplicaId(voter.nodeId()).setReplicaDirectoryId(voter.directoryId())
                    .setLogEndOffset(logEnd).setLastFetchTimestamp(contact)
                    .setLastCaughtUpTimestamp(logEnd >= highWatermark ? contact : -1));
        }
        return states;
    }

    /** The brokers of a cluster that are not voters: they follow the metadata without a vote. */
    private List<ReplicaState> observers(List<QuorumVoter> voters) {
        if (voters.isEmpty()) {
            return List.of();
        }
        List<ReplicaState> observers = new ArrayList<>();
        for (int brokerId : image.get().brokers().keySet()) {
            if (voters.stream().noneMatch(voter -> voter.nodeId() == brokerId)) {
                observers.add(new ReplicaState().setReplicaId(brokerId).setReplicaDirectoryId(Uuid.ZERO_UUID)
                        .setLogEndOffset(-1).setLastFetchTimestamp(-1).setLastCaughtUpTimestamp(-1));
            }
        }
        return observers;
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message message) {
        DescribeQuorumRequestData request = (DescribeQuorumRequestData) message;
        long highWatermark = image.get().offset() + 1;
        long nowMs = clockMs.getAsLong();
        List<QuorumVoter> voters = this.voters.get();
        List<TopicData> topics = new ArrayList<>();
        for (DescribeQuorumRequestData.TopicData topic : request.topics()) {
            List<PartitionData> partitions = new ArrayList<>();
            for (DescribeQuorumRequestData.PartitionData partition : topic.partitions()) {
                PartitionData answer = new PartitionData().setPartitionIndex(partition.partitionIndex());
                if (!MetadataLog.TOPIC.equals(topic.topicName()) || partition.partitionIndex() != 0) {
                    answer.setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code()).setLeaderId(-1);
                } else {
                    answer.setErrorCode(Errors.NONE.code())
                            .setLeaderId(leaderId.getAsInt())
                            .setLeaderEpoch(epoch.getAsInt())
                            .setHighWatermark(highWatermark)
                            .setCurrentVoters(voterStates(voters, highWatermark, nowMs))
                            .setObservers(observers(voters));
                }
                partitions.add(answer);
            }
            topics.add(new TopicData().setTopicName(topic.topicName()).setPartitions(partitions));
        }
        DescribeQuorumResponseData response = new DescribeQuorumResponseData().setErrorCode(Errors.NONE.code())
                .setTopics(topics);
        if (context.apiVersion() >= FIRST_VERSION_WITH_NODES && !voters.isEmpty()) {
            List<Node> nodes = new ArrayList<>();
            for (QuorumVoter voter : voters) {
                nodes.add(new Node().setNodeId(voter.nodeId()).setListeners(List.of(new Listener()
                        .setName(controllerListener).setHost(voter.host()).setPort(voter.port()))));
            }
            response.setNodes(nodes);
        } else if (context.apiVersion() >= FIRST_VERSION_WITH_NODES) {
            ClusterView.BrokerNode self = cluster.get().broker(nodeId);
            List<Listener> listeners = self == null ? List.of() : List.of(new Listener()
                    .setName(self.endpoint().listenerName()).setHost(self.endpoint().host())
                    .setPort(self.endpoint().port()));
            response.setNodes(List.of(new Node().setNodeId(nodeId).setListeners(listeners)));
        }
        return CompletableFuture.completedFuture(response);
    }
}

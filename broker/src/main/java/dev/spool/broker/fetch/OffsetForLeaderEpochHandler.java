package dev.spool.broker.fetch;

import dev.spool.broker.api.ApiHandler;
import dev.spool.broker.api.RequestContext;
import dev.spool.broker.partition.Partition;
import dev.spool.broker.security.acl.AclOperation;
import dev.spool.log.PartitionLog;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.OffsetForLeaderEpochRequestData;
import dev.spool.protocol.message.OffsetForLeaderEpochRequestData.OffsetForLeaderPartition;
import dev.spool.protocol.message.OffsetForLeaderEpochRequestData.OffsetForLeaderTopic;
import dev.spool.protocol.message.OffsetForLeaderEpochResponseData;
import dev.spool.protocol.message.OffsetForLeaderEpochResponseData.EpochEndOffset;
import dev.spool.protocol.message.OffsetForLeaderEpochResponseData.OffsetForLeaderTopicResult;
import dev.spool.protocol.types.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Thread-safe. OffsetForLeaderEpoch (v2 to v4): for each partition this broker leads (else NOT_LEADER_OR_FOLLOWER,
 * as Kafka answers), the end offset of the requested leader epoch from the partition's leader epoch cache, which a
 * consumer compares with its position after a leader
 * change (KIP-320) and a follower with its log. The end of an epoch is the start of the next larger one; of
 * the current epoch, the log end offset.
 */
public final class OffsetForLeaderEpochHandler implements ApiHandler {

    private static final int UNDEFINED_EPOCH = -1;
    private static final long UNDEFINED_OFFSET = -1L;

    private final PartitionLookup lookup;

    public OffsetForLeaderEpochHandler(PartitionLookup lookup) {
        this.lookup = lookup;
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message message) {
        OffsetForLeaderEpochRequestData request = (OffsetForLeaderEpochRequestData) message;
        List<OffsetForLeaderTopicResult> topics = new ArrayList<>(request.topics().size());
        // As Kafka: CLUSTER_ACTION (a follower) answers every topic, else DESCRIBE on each.
        boolean clusterAction = context.access().allowsOnCluster(AclOperation.CLUSTER_ACTION);
        for (OffsetForLeaderTopic topic : request.topics()) {
            List<EpochEndOffset> partitions = new ArrayList<>(topic.partitions().size());
            boolean described = clusterAction || context.access().allowsTopic(AclOperation.DESCRIBE, topic.topic());
            for (OffsetForLeaderPartition wanted : topic.partitions()) {
                partitions.add(described ? answer(topic.topic(), wanted) : new EpochEndOffset()
                        .setPartition(wanted.partition()).setLeaderEpoch(UNDEFINED_EPOCH)
                        .setEndOffset(UNDEFINED_OFFSET).setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()));
            }
            topics.add(new OffsetForLeaderTopicResult().setTopic(topic.topic()).setPartitions(partitions));
        }
        return CompletableFuture.completedFuture(new OffsetForLeaderEpochResponseData().setTopics(topics));
    }

    private EpochEndOffset answer(String topic, OffsetForLeaderPartition wanted) {
        EpochEndOffset result = new EpochEndOffset().setPartition(wanted.partition())
                .setLeaderEpoch(UNDEFINED_EPOCH).setEndOffset(UNDEFINED_OFFSET);
        Partition partition = lookup.byName(topic, wanted.partition());
        if (partition == null) {
            return result.setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        }
        if (partition.isOffline()) {
            return result.setErrorCode(Errors.KAFKA_STORAGE_ERROR.code());
        }
        Errors epochError = LeaderEpochCheck.check(wanted.currentLeaderEpoch(), partition.leaderEpoch());
        if (epochError != Errors.NONE) {
            return result.setErrorCode(epochError.code());
        }
        if (!lookup.leads(partition)) {
            // Only the leader knows where an epoch ends: a follower's log may be behind or cut short (a node back
            // from a power loss, not yet caught up, still named leader by its old metadata), and a consumer told an
            // end below its position takes it for truncation and reads again from there (KIP-320).
            return result.setErrorCode(Errors.NOT_LEADER_OR_FOLLOWER.code());
        }
        PartitionLog log = partition.log();
        long[] epochAndEnd = endOffsetFor(wanted.leaderEpoch(), log.leaderEpochs().entries(), partition.leaderEpoch(),
                log.logEndOffset());
        return result.setErrorCode(Errors.NONE.code()).setLeaderEpoch((int) epochAndEnd[0])
                .setEndOffset(epochAndEnd[1]);
    }

    /**
     * The largest known epoch at or below {@code requested} and its end offset, as {epoch, endOffset};
     * {-1, -1} when the requested epoch is unknown or newer than every known one. An epoch below every
     * known one ends where the first known one starts. The current leader epoch counts as started at the
     * log end offset even before a record was written in it, as a new leader's cache would have it.
     */
    public static long[] endOffsetFor(int requested, Map<Integer, Long> startOffsets, int currentEpoch, long logEndOffset) {
        TreeMap<Integer, Long> epochs = new TreeMap<>(startOffsets);
        if (currentEpoch >= 0 && (epochs.isEmpty() || currentEpoch > epochs.lastKey())) {
            epochs.put(currentEpoch, logEndOffset);
        }
        if (requested == UNDEFINED_EPOCH || epochs.isEmpty()) {
            return new long[] {UNDEFINED_EPOCH, UNDEFINED_OFFSET};
        }
        if (requested == epochs.lastKey()) {
            return new long[] {requested, logEndOffset};
        }
        Map.Entry<Integer, Long> higher = epochs.higherEntry(requested);
        if (higher == null) {
            return new long[] {UNDEFINED_EPOCH, UNDEFINED_OFFSET};
        }
        Map.Entry<Integer, Long> floor = epochs.floorEntry(requested);
        return new long[] {floor == null ? requested : floor.getKey(), higher.getValue()};
    }
}

package dev.spool.broker.fetch;

import dev.spool.broker.api.ApiHandler;
import dev.spool.broker.api.RequestContext;
import dev.spool.broker.partition.Partition;
import dev.spool.broker.security.acl.AclOperation;
import dev.spool.log.PartitionLog;
import dev.spool.log.TimestampOffset;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ListOffsetsRequestData;
import dev.spool.protocol.message.ListOffsetsRequestData.ListOffsetsPartition;
import dev.spool.protocol.message.ListOffsetsRequestData.ListOffsetsTopic;
import dev.spool.protocol.message.ListOffsetsResponseData;
import dev.spool.protocol.message.ListOffsetsResponseData.ListOffsetsPartitionResponse;
import dev.spool.protocol.message.ListOffsetsResponseData.ListOffsetsTopicResponse;
import dev.spool.protocol.types.Message;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thread-safe. ListOffsets (v1 to v11): per partition, the offset for a timestamp as a consumer sees the log
 * (up to the high watermark; the last stable offset for {@code read_committed}, the partition's producer state loaded
 * first if it is not yet: kafkajs, which asks read_committed, does not retry OFFSET_NOT_AVAILABLE). Special
 * timestamps: -1 latest (the high watermark, or the last stable offset, with the current leader epoch), -2 earliest
 * (the log start offset), -3 the record with the largest timestamp, -4 earliest local (the log start,
 * without tiered storage), -5 latest tiered and -6 earliest pending upload (none without tiered storage:
 * offset -1). Any other time finds the first record whose timestamp is at or after it, or offset -1.
 */
public final class ListOffsetsHandler implements ApiHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ListOffsetsHandler.class);

    static final long LATEST_TIERED_TIMESTAMP = -5L;
    static final long EARLIEST_PENDING_UPLOAD_TIMESTAMP = -6L;
    private static final long NO_TIMESTAMP = -1L;
    private static final long NO_OFFSET = -1L;
    /**
     * The replica id of a client's ListOffsets; a follower (its broker id) or a debugging tool (-2) is answered
     * the log end for the latest offset, not the high watermark.
     */
    private static final int CONSUMER_REPLICA_ID = -1;
    private static final int NO_EPOCH = -1;
    private static final byte READ_COMMITTED = 1;

    private final PartitionLookup lookup;

    public ListOffsetsHandler(PartitionLookup lookup) {
        this.lookup = lookup;
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message message) {
        ListOffsetsRequestData request = (ListOffsetsRequestData) message;
        List<ListOffsetsTopicResponse> topics = new ArrayList<>(request.topics().size());
        Set<String> seen = new HashSet<>();
        for (ListOffsetsTopic topic : request.topics()) {
            List<ListOffsetsPartitionResponse> partitions = new ArrayList<>(topic.partitions().size());
            boolean described = context.access().allowsTopic(AclOperation.DESCRIBE, topic.name());
            for (ListOffsetsPartition wanted : topic.partitions()) {
                boolean duplicate = !seen.add(topic.name() + "-" + wanted.partitionIndex());
                partitions.add(!described ? failed(wanted, Errors.TOPIC_AUTHORIZATION_FAILED)
                        : duplicate ? failed(wanted, Errors.INVALID_REQUEST)
                        : answer(topic.name(), wanted, request.replicaId() != CONSUMER_REPLICA_ID,
                                request.isolationLevel() == READ_COMMITTED));
            }
            topics.add(new ListOffsetsTopicResponse().setName(topic.name()).setPartitions(partitions));
        }
        return CompletableFuture.completedFuture(new ListOffsetsResponseData().setTopics(topics));
    }

    private ListOffsetsPartitionResponse answer(String topic, ListOffsetsPartition wanted, boolean replica,
                                                boolean readCommitted) {
        Partition partition = lookup.byName(topic, wanted.partitionIndex());
        if (partition == null) {
            return failed(wanted, Errors.UNKNOWN_TOPIC_OR_PARTITION);
        }
        if (partition.isOffline()) {
            return failed(wanted, Errors.KAFKA_STORAGE_ERROR);
        }
        if (!lookup.leads(partition)) {
            return failed(wanted, Errors.NOT_LEADER_OR_FOLLOWER);
        }
        Errors epochError = LeaderEpochCheck.check(wanted.currentLeaderEpoch(), partition.leaderEpoch());
        if (epochError != Errors.NONE) {
            return failed(wanted, epochError);
        }
        try {
            TimestampOffset found = replica && wanted.timestamp() == TimestampOffset.LATEST_TIMESTAMP
                    ? new TimestampOffset(NO_TIMESTAMP, partition.log().logEndOffset(), partition.leaderEpoch())
                    : lookUp(partition, wanted.timestamp(), readCommitted);
            if (found == null) {
                return failed(wanted, Errors.OFFSET_NOT_AVAILABLE);
            }
            return new ListOffsetsPartitionResponse()
                    .setPartitionIndex(wanted.partitionIndex())
                    .setErrorCode(Errors.NONE.code())
                    .setTimestamp(found.timestampMs())
                    .setOffset(found.offset())
                    .setLeaderEpoch(found.leaderEpoch());
        } catch (IOException e) {
            LOG.error("ListOffsets of {} at timestamp {} failed", partition, wanted.timestamp(), e);
            return failed(wanted, Errors.KAFKA_STORAGE_ERROR);
        }
    }

    /**
     * The answer for one partition: offsets a consumer may read are below the high watermark (read_committed: the
     * last stable offset; a ListOffsets is rare enough to load the producer state in the request, as the time lookups
     * read segments). Null when the last stable offset is still not known (the log closed under it).
     */
    static TimestampOffset lookUp(Partition partition, long timestamp, boolean readCommitted) throws IOException {
        PartitionLog log = partition.log();
        long lastFetchableOffset = log.highWatermark();
        if (readCommitted) {
            log.loadProducerState();
            long lastStable = log.lastStableOffset();
            if (lastStable < 0) {
                return null;
            }
            lastFetchableOffset = lastStable;
        }
        if (timestamp == TimestampOffset.LATEST_TIMESTAMP) {
            return new TimestampOffset(NO_TIMESTAMP, lastFetchableOffset, partition.leaderEpoch());
        }
        if (timestamp == TimestampOffset.EARLIEST_TIMESTAMP || timestamp == TimestampOffset.EARLIEST_LOCAL_TIMESTAMP) {
            return log.offsetForTimestamp(TimestampOffset.EARLIEST_TIMESTAMP);
        }
        if (timestamp == LATEST_TIERED_TIMESTAMP || timestamp == EARLIEST_PENDING_UPLOAD_TIMESTAMP) {
            return new TimestampOffset(NO_TIMESTAMP, NO_OFFSET, NO_EPOCH);
        }
        // Other negative times: every record's timestamp is at or after them, as for time 0.
        long target = timestamp == TimestampOffset.MAX_TIMESTAMP ? timestamp : Math.max(0, timestamp);
        TimestampOffset found = log.offsetForTimestamp(target);
        return found.found() && found.offset() < lastFetchableOffset ? found : TimestampOffset.NOT_FOUND;
    }

    private static ListOffsetsPartitionResponse failed(ListOffsetsPartition wanted, Errors error) {
        return new ListOffsetsPartitionResponse()
                .setPartitionIndex(wanted.partitionIndex())
                .setErrorCode(error.code())
                .setTimestamp(NO_TIMESTAMP)
                .setOffset(NO_OFFSET)
                .setLeaderEpoch(NO_EPOCH);
    }
}

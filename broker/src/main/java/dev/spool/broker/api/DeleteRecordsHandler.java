package dev.spool.broker.api;

import dev.spool.broker.metadata.InternalTopics;
import dev.spool.broker.partition.Partition;
import dev.spool.broker.partition.PartitionManager;
import dev.spool.broker.purgatory.WaitTimer;
import dev.spool.broker.security.acl.AclOperation;
import dev.spool.log.OffsetOutOfRangeException;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.DeleteRecordsRequestData;
import dev.spool.protocol.message.DeleteRecordsRequestData.DeleteRecordsPartition;
import dev.spool.protocol.message.DeleteRecordsRequestData.DeleteRecordsTopic;
import dev.spool.protocol.message.DeleteRecordsResponseData;
import dev.spool.protocol.message.DeleteRecordsResponseData.DeleteRecordsPartitionResult;
import dev.spool.protocol.message.DeleteRecordsResponseData.DeleteRecordsTopicResult;
import dev.spool.protocol.types.Message;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.IntPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DeleteRecords: moves each partition's log start offset up to the requested offset (-1 = the high
 * watermark) and answers the new low watermark; an offset above the high watermark, or negative
 * other than -1, is OFFSET_OUT_OF_RANGE, as in Kafka. A topic whose {@code cleanup.policy} lacks
 * {@code delete} (compacted only) is POLICY_VIOLATION: as in Kafka, only a deleting policy lets records go
 * by offset. Segment deletion is disk work, so it runs on {@code executor}, never on the network thread. A
 * replicated partition is answered once its live followers have deleted the records too
 * ({@link DelayedDeleteRecords}), as Kafka answers. Thread-safe.
 */
public final class DeleteRecordsHandler implements ApiHandler {

    private static final Logger LOG = LoggerFactory.getLogger(DeleteRecordsHandler.class);
    /** The offset that means "up to the high watermark". */
    static final long HIGH_WATERMARK = -1L;

    private final PartitionManager partitions;
    private final Executor executor;
    private final WaitTimer waits;
    private final IntPredicate live;

    /** On one broker: every partition is answered at once. */
    public DeleteRecordsHandler(PartitionManager partitions, Executor executor) {
        this(partitions, executor, null, broker -> false);
    }

    /** Replicated partitions wait on {@code waits} for the followers on brokers {@code live} says are up. */
    public DeleteRecordsHandler(PartitionManager partitions, Executor executor, WaitTimer waits, IntPredicate live) {
        this.partitions = partitions;
        this.executor = executor;
        this.waits = waits;
        this.live = live;
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message request) {
        DeleteRecordsRequestData delete = (DeleteRecordsRequestData) request;
        Access access = context.access();
        return CompletableFuture.supplyAsync(() -> delete(delete, access), executor).thenCompose(deleted -> {
            if (deleted.waiting().isEmpty() || waits == null) {
                return CompletableFuture.<Message>completedFuture(deleted.response());
            }
            DelayedDeleteRecords delayed = new DelayedDeleteRecords(deleted.waiting(), live, deleted.response());
            delayed.park(waits, Math.max(0, delete.timeoutMs()));
            return delayed.answer().<Message>thenApply(answer -> answer);
        });
    }

    /** The answer as the leader has it, and the replicated partitions still to wait for. */
    private record Deleted(DeleteRecordsResponseData response, List<DelayedDeleteRecords.Waiting> waiting) {
    }

    private Deleted delete(DeleteRecordsRequestData request, Access access) {
        DeleteRecordsResponseData response = new DeleteRecordsResponseData().setTopics(new ArrayList<>());
        List<DelayedDeleteRecords.Waiting> waiting = new ArrayList<>();
        for (DeleteRecordsTopic topic : request.topics()) {
            DeleteRecordsTopicResult topicResult = new DeleteRecordsTopicResult().setName(topic.name())
                    .setPartitions(new ArrayList<>());
            boolean mayDelete = access.allowsTopic(AclOperation.DELETE, topic.name());
            for (DeleteRecordsPartition requested : topic.partitions()) {
                DeleteRecordsPartitionResult result = mayDelete ? deleteBefore(topic.name(), requested)
                        : new DeleteRecordsPartitionResult().setPartitionIndex(requested.partitionIndex())
                        .setLowWatermark(-1L).setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code());
                topicResult.partitions().add(result);
                Partition partition = partitions.get(topic.name(), requested.partitionIndex());
                if (result.errorCode() == Errors.NONE.code() && partition.assignment().replicas().size() > 1) {
                    waiting.add(new DelayedDeleteRecords.Waiting(partition, result.lowWatermark(),
                            partition.leaderEpoch(), result));
                }
            }
            response.topics().add(topicResult);
        }
        return new Deleted(response, waiting);
    }

    private DeleteRecordsPartitionResult deleteBefore(String topic, DeleteRecordsPartition requested) {
        DeleteRecordsPartitionResult result = new DeleteRecordsPartitionResult()
                .setPartitionIndex(requested.partitionIndex()).setLowWatermark(-1L);
        if (InternalTopics.isInternal(topic)) {
            return result.setErrorCode(Errors.INVALID_TOPIC_EXCEPTION.code()); // as Kafka: the broker's own records
        }
        Partition partition = partitions.get(topic, requested.partitionIndex());
        if (partition == null) {
            return result.setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        }
        if (partition.isOffline()) {
            return result.setErrorCode(Errors.KAFKA_STORAGE_ERROR.code());
        }
        if (!partitions.leads(partition)) {
            return result.setErrorCode(Errors.NOT_LEADER_OR_FOLLOWER.code()); // followers take it from the leader
        }
        if (!partition.log().config().delete) {
            return result.setErrorCode(Errors.POLICY_VIOLATION.code());
        }
        long offset = requested.offset() == HIGH_WATERMARK ? partition.log().highWatermark() : requested.offset();
        if (offset < 0) {
            return result.setErrorCode(Errors.OFFSET_OUT_OF_RANGE.code());
        }
        try {
            return result.setLowWatermark(partition.log().deleteRecordsBefore(offset)).setErrorCode(Errors.NONE.code());
        } catch (OffsetOutOfRangeException e) {
            return result.setErrorCode(Errors.OFFSET_OUT_OF_RANGE.code());
        } catch (IOException e) {
            LOG.error("DeleteRecords before offset {} of {} failed", offset, partition, e);
            return result.setErrorCode(Errors.KAFKA_STORAGE_ERROR.code());
        }
    }
}

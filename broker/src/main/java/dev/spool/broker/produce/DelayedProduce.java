package dev.spool.broker.produce;

import dev.spool.broker.partition.Partition;
import dev.spool.broker.purgatory.DelayedOperation;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ProduceResponseData.PartitionProduceResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * An acks=all batch that is written but not yet committed: parked until the partition's high watermark
 * reaches the offset after it, then answered as Kafka answers: its offsets, or
 * NOT_ENOUGH_REPLICAS_AFTER_APPEND when the in-sync replicas fell below the effective
 * {@code min.insync.replicas} meanwhile, NOT_LEADER_OR_FOLLOWER when the leadership moved, or
 * REQUEST_TIMED_OUT when the request's timeout ran out first. On one broker the append itself moves the
 * high watermark, so nothing parks; followers will make the high watermark lag. Thread-safe, as its base.
 */
final class DelayedProduce extends DelayedOperation {

    private final Partition partition;
    private final long commitOffset;
    private final int leaderEpoch;
    private final int minInsyncReplicas;
    private final PartitionProduceResponse written;
    private final CompletableFuture<PartitionProduceResponse> answer = new CompletableFuture<>();

    /**
     * @param commitOffset      the offset after the batch: it is committed once the high watermark reaches it
     * @param leaderEpoch       the epoch it was written in
     * @param minInsyncReplicas the effective minimum the in-sync replicas must still meet
     * @param written           the answer of the append, given once the batch is committed
     */
    DelayedProduce(Partition partition, long commitOffset, int leaderEpoch, int minInsyncReplicas,
                   PartitionProduceResponse written) {
        super(List.of(partition));
        this.partition = partition;
        this.commitOffset = commitOffset;
        this.leaderEpoch = leaderEpoch;
        this.minInsyncReplicas = minInsyncReplicas;
        this.written = written;
    }

    CompletableFuture<PartitionProduceResponse> answer() {
        return answer;
    }

    @Override
    protected boolean canComplete() {
        return partition.leaderEpoch() != leaderEpoch || partition.isOffline()
                || partition.highWatermarkIn(leaderEpoch) >= commitOffset;
    }

    /**
     * The leadership wins: once this broker follows, its high watermark says nothing of this batch (see
     * {@link Partition#highWatermarkIn}).
     */
    @Override
    protected void complete(boolean expired) {
        long highWatermark = partition.highWatermarkIn(leaderEpoch);
        if (highWatermark < 0) {
            answer.complete(PartitionAppender.error(Errors.NOT_LEADER_OR_FOLLOWER, "The leadership of "
                    + partition.topicPartition() + " moved before the batch was committed"));
        } else if (partition.isOffline()) {
            answer.complete(PartitionAppender.error(Errors.KAFKA_STORAGE_ERROR,
                    "The log dir of " + partition.topicPartition() + " is offline"));
        } else if (highWatermark >= commitOffset) {
            answer.complete(partition.assignment().isr().size() >= minInsyncReplicas ? written
                    // No message, as Kafka's: the client prints the error's own text.
                    : PartitionAppender.error(Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND, null));
        } else {
            // No message, as Kafka's (its clients print "Error: REQUEST_TIMED_OUT" alone).
            answer.complete(PartitionAppender.error(Errors.REQUEST_TIMED_OUT, null));
        }
    }

    @Override
    protected void fail(Throwable failure) {
        answer.complete(PartitionAppender.error(Errors.NOT_LEADER_OR_FOLLOWER, "The broker is shutting down"));
    }
}

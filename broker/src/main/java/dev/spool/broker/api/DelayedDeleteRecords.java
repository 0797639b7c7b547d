package dev.spool.broker.api;

import dev.spool.broker.partition.Partition;
import dev.spool.broker.purgatory.DelayedOperation;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.DeleteRecordsResponseData;
import dev.spool.protocol.message.DeleteRecordsResponseData.DeleteRecordsPartitionResult;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntPredicate;

/**
 * A DeleteRecords whose replicated partitions' leaders have moved their log start: parked, as Kafka's, until every
 * live follower reports its own log start there too (the partition's low watermark reaches the offset), then
 * answered with the low watermark; NOT_LEADER_OR_FOLLOWER when the leadership moved, REQUEST_TIMED_OUT when the
 * request's timeout ran out first. Thread-safe, as its base.
 */
final class DelayedDeleteRecords extends DelayedOperation {

    /** One partition waited for: its answer, filled in on completion. */
    record Waiting(Partition partition, long offset, int leaderEpoch, DeleteRecordsPartitionResult result) {
    }

    private final List<Waiting> waiting;
    private final IntPredicate live;
    private final DeleteRecordsResponseData response;
    private final CompletableFuture<DeleteRecordsResponseData> answer = new CompletableFuture<>();

    DelayedDeleteRecords(List<Waiting> waiting, IntPredicate live, DeleteRecordsResponseData response) {
        super(waiting.stream().map(Waiting::partition).toList());
        this.waiting = waiting;
        this.live = live;
        this.response = response;
    }

    CompletableFuture<DeleteRecordsResponseData> answer() {
        return answer;
    }

    @Override
    protected boolean canComplete() {
        return waiting.stream().allMatch(one -> reached(one) || moved(one));
    }

    @Override
    protected void complete(boolean expired) {
        for (Waiting one : waiting) {
            if (moved(one)) {
                one.result().setErrorCode(Errors.NOT_LEADER_OR_FOLLOWER.code()).setLowWatermark(-1);
            } else if (reached(one)) {
                one.result().setLowWatermark(one.partition().lowWatermark(live));
            } else {
                one.result().setErrorCode(Errors.REQUEST_TIMED_OUT.code()).setLowWatermark(-1);
            }
        }
        answer.complete(response);
    }

    @Override
    protected void fail(Throwable failure) {
        answer.completeExceptionally(failure);
    }

    private boolean reached(Waiting one) {
        return one.partition().lowWatermark(live) >= one.offset();
    }

    private static boolean moved(Waiting one) {
        return one.partition().isOffline() || one.partition().leaderEpoch() != one.leaderEpoch();
    }
}

package dev.spool.broker.produce;

import dev.spool.broker.api.ApiHandler;
import dev.spool.broker.api.RequestContext;
import dev.spool.broker.partition.Partition;
import dev.spool.broker.partition.PartitionManager;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.WriteTxnMarkersRequestData;
import dev.spool.protocol.message.WriteTxnMarkersRequestData.WritableTxnMarker;
import dev.spool.protocol.message.WriteTxnMarkersRequestData.WritableTxnMarkerTopic;
import dev.spool.protocol.message.WriteTxnMarkersResponseData;
import dev.spool.protocol.message.WriteTxnMarkersResponseData.WritableTxnMarkerPartitionResult;
import dev.spool.protocol.message.WriteTxnMarkersResponseData.WritableTxnMarkerResult;
import dev.spool.protocol.message.WriteTxnMarkersResponseData.WritableTxnMarkerTopicResult;
import dev.spool.protocol.types.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Thread-safe. WriteTxnMarkers (API 27, v1-2: v2 names the transaction version, and a v2 transaction's marker must
 * carry an epoch above its batches', KIP-1228), from a transaction coordinator to the leaders of a transaction's
 * partitions: each partition this broker leads gets the COMMIT or ABORT marker of the producer's transaction
 * ({@link PartitionAppender#appendTxnMarker}), answered once it is committed, as an acks=all batch (within
 * {@link #TIMEOUT_MS}, Kafka's {@code request.timeout.ms} default). Errors per partition: UNKNOWN_TOPIC_OR_PARTITION,
 * NOT_LEADER_OR_FOLLOWER, INVALID_PRODUCER_EPOCH (an older producer epoch than the partition's),
 * TRANSACTION_COORDINATOR_FENCED (an older coordinator than the last marker's), NOT_ENOUGH_REPLICAS, REQUEST_TIMED_OUT;
 * the coordinator retries the retriable ones.
 */
public final class WriteTxnMarkersHandler implements ApiHandler {

    public static final long TIMEOUT_MS = 30_000;

    private final PartitionManager partitions;
    private final PartitionAppenders appenders;

    public WriteTxnMarkersHandler(PartitionManager partitions, PartitionAppenders appenders) {
        this.partitions = partitions;
        this.appenders = appenders;
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message message) {
        WriteTxnMarkersRequestData request = (WriteTxnMarkersRequestData) message;
        List<CompletableFuture<?>> pending = new ArrayList<>();
        List<WritableTxnMarkerResult> results = new ArrayList<>(request.markers().size());
        for (WritableTxnMarker marker : request.markers()) {
            List<WritableTxnMarkerTopicResult> topics = new ArrayList<>(marker.topics().size());
            for (WritableTxnMarkerTopic topic : marker.topics()) {
                List<WritableTxnMarkerPartitionResult> answers = new ArrayList<>(topic.partitionIndexes().size());
                for (int index : topic.partitionIndexes()) {
                    WritableTxnMarkerPartitionResult answer = new WritableTxnMarkerPartitionResult()
                            .setPartitionIndex(index);
                    answers.add(answer);
                    Partition partition = partitions.get(topic.name(), index);
                    if (partition == null) {
                        answer.setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
                    } else if (!partitions.leads(partition)) {
                        answer.setErrorCode(Errors.NOT_LEADER_OR_FOLLOWER.code());
                    } else {
                        pending.add(appenders.of(partition).appendTxnMarker(marker.producerId(),
                                marker.producerEpoch(), marker.coordinatorEpoch(), marker.transactionResult(),
                                marker.transactionVersion(), TIMEOUT_MS)
                                .thenAccept(error -> answer.setErrorCode(error.code())));
                    }
                }
                topics.add(new WritableTxnMarkerTopicResult().setName(topic.name()).setPartitions(answers));
            }
            results.add(new WritableTxnMarkerResult().setProducerId(marker.producerId()).setTopics(topics));
        }
        return CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
                .thenApply(done -> new WriteTxnMarkersResponseData().setMarkers(results));
    }
}

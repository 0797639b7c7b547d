package dev.spool.broker.produce;

import dev.spool.broker.api.ApiHandler;
import dev.spool.broker.api.RequestContext;
import dev.spool.broker.partition.Partition;
import dev.spool.broker.partition.PartitionManager;
import dev.spool.broker.security.acl.AclOperation;
import dev.spool.log.producer.ActiveProducer;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.DescribeProducersRequestData;
import dev.spool.protocol.message.DescribeProducersResponseData;
import dev.spool.protocol.message.DescribeProducersResponseData.PartitionResponse;
import dev.spool.protocol.message.DescribeProducersResponseData.ProducerState;
import dev.spool.protocol.message.DescribeProducersResponseData.TopicResponse;
import dev.spool.protocol.types.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * DescribeProducers (KIP-664): the active idempotent producers of each asked partition, read from its log
 * on the partition's append queue (off the network threads: the log may load its producer state first) so
 * the answer is consistent with the appends before it. Thread-safe.
 */
public final class DescribeProducersHandler implements ApiHandler {

    private final PartitionManager partitions;
    private final PartitionAppenders appenders;

    public DescribeProducersHandler(PartitionManager partitions, PartitionAppenders appenders) {
        this.partitions = partitions;
        this.appenders = appenders;
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message message) {
        DescribeProducersRequestData request = (DescribeProducersRequestData) message;
        List<CompletableFuture<?>> pending = new ArrayList<>();
        List<TopicResponse> topics = new ArrayList<>();
        for (DescribeProducersRequestData.TopicRequest topic : request.topics()) {
            List<PartitionResponse> answers = new ArrayList<>();
            for (int index : topic.partitionIndexes()) {
                PartitionResponse answer = new PartitionResponse().setPartitionIndex(index);
                answers.add(answer);
                if (!context.access().allowsTopic(AclOperation.READ, topic.name())) {
                    answer.setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code());
                    continue;
                }
                Partition partition = partitions.get(topic.name(), index);
                if (partition == null) {
                    answer.setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
                    continue;
                }
                pending.add(appenders.of(partition).producers().handle((producers, failure) -> {
                    if (failure != null) {
                        answer.setErrorCode(Errors.KAFKA_STORAGE_ERROR.code()).setErrorMessage(failure.getMessage());
                    } else {
                        answer.setErrorCode(Errors.NONE.code()).setActiveProducers(describe(producers));
                    }
                    return null;
                }));
            }
            topics.add(new TopicResponse().setName(topic.name()).setPartitions(answers));
        }
        return CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
                .thenApply(done -> new DescribeProducersResponseData().setTopics(topics));
    }

    private static List<ProducerState> describe(List<ActiveProducer> producers) {
        List<ProducerState> states = new ArrayList<>(producers.size());
        for (ActiveProducer producer : producers) {
            states.add(new ProducerState()
                    .setProducerId(producer.producerId())
                    .setProducerEpoch(producer.producerEpoch())
                    .setLastSequence(producer.lastSequence())
                    .setLastTimestamp(producer.lastTimestampMs())
                    .setCoordinatorEpoch(producer.coordinatorEpoch())
                    .setCurrentTxnStartOffset(producer.currentTxnStartOffset()));
        }
        return states;
    }
}

package dev.spool.broker.txn;

import dev.spool.broker.api.Access;
import dev.spool.broker.api.ApiFamily;
import dev.spool.broker.api.ApiRegistry;
import dev.spool.broker.api.RequestContext;
import dev.spool.broker.metadata.InternalTopics;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.TopicImage;
import dev.spool.broker.security.acl.AclOperation;
import dev.spool.broker.security.acl.ResourceType;
import dev.spool.log.TopicPartition;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.AddOffsetsToTxnRequestData;
import dev.spool.protocol.message.AddOffsetsToTxnResponseData;
import dev.spool.protocol.message.AddPartitionsToTxnRequestData;
import dev.spool.protocol.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTopic;
import dev.spool.protocol.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTransaction;
import dev.spool.protocol.message.AddPartitionsToTxnResponseData;
import dev.spool.protocol.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnPartitionResult;
import dev.spool.protocol.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnResult;
import dev.spool.protocol.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnTopicResult;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.DescribeTransactionsRequestData;
import dev.spool.protocol.message.DescribeTransactionsResponseData;
import dev.spool.protocol.message.EndTxnRequestData;
import dev.spool.protocol.message.EndTxnResponseData;
import dev.spool.protocol.message.ListTransactionsRequestData;
import dev.spool.protocol.message.ListTransactionsResponseData;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The transactional producer's APIs, each handed to the {@link TransactionCoordinator} shard of its transactional id:
 * AddPartitionsToTxn (v0-3 a client's; v4-5 a partition leader's, batched by transactional id, that adds the
 * partitions of a transactions v2 producer's batches or checks those of a v1 producer's), AddOffsetsToTxn (the
 * group's {@code __consumer_offsets} partition joins the transaction) and EndTxn (v0-4; v5 is transactions v2, the
 * epoch bumped at each end). Before the versions that know PRODUCER_FENCED, it is answered INVALID_PRODUCER_EPOCH,
 * as Kafka does. And the administration's: DescribeTransactions (on the id's coordinator) and ListTransactions
 * (each broker lists those it coordinates, filtered by state, producer id, duration and id pattern), which
 * {@code kafka-transactions} uses. Thread-safe.
 */
public final class TransactionHandler implements ApiFamily {

    /** AddPartitionsToTxn v4 is the first of a broker's batched requests. */
    private static final short FIRST_BROKER_ADD_PARTITIONS_VERSION = 4;
    /** EndTxn v5 is transactions v2: the epoch bumped at each end. */
    private static final short FIRST_EPOCH_BUMPING_END_TXN_VERSION = 5;
    private static final short FIRST_PRODUCER_FENCED_VERSION = 2;

    private final TransactionCoordinator coordinator;
    private final Supplier<MetadataImage> metadata;
    private final Function<String, Integer> groupPartition;

    /** {@code groupPartition}: the {@code __consumer_offsets} partition of a group. */
    public TransactionHandler(TransactionCoordinator coordinator, Supplier<MetadataImage> metadata,
                              Function<String, Integer> groupPartition) {
        this.coordinator = coordinator;
        this.metadata = metadata;
        this.groupPartition = groupPartition;
    }

    @Override
    public void registerIn(ApiRegistry registry) {
        registry.register(ApiKey.ADD_PARTITIONS_TO_TXN, 0, ApiKey.ADD_PARTITIONS_TO_TXN.highestVersion,
                        AddPartitionsToTxnRequestData.class, this::addPartitions)
                .register(ApiKey.ADD_OFFSETS_TO_TXN, 0, ApiKey.ADD_OFFSETS_TO_TXN.highestVersion,
                        AddOffsetsToTxnRequestData.class, this::addOffsets)
                .register(ApiKey.END_TXN, 0, ApiKey.END_TXN.highestVersion, EndTxnRequestData.class, this::endTxn)
                .register(ApiKey.DESCRIBE_TRANSACTIONS, 0, ApiKey.DESCRIBE_TRANSACTIONS.highestVersion,
                        DescribeTransactionsRequestData.class, (context, request) -> describe(request, context.access()))
                .register(ApiKey.LIST_TRANSACTIONS, 0, ApiKey.LIST_TRANSACTIONS.highestVersion,
                        ListTransactionsRequestData.class, (context, request) -> list(request, context.access()));
    }

    private CompletableFuture<AddPartitionsToTxnResponseData> addPartitions(RequestContext context,
                                                                           AddPartitionsToTxnRequestData request) {
        if (context.apiVersion() >= FIRST_BROKER_ADD_PARTITIONS_VERSION) {
            return addPartitionsForBroker(request);
        }
        Access access = context.access();
        if (!access.allows(AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, request.v3AndBelowTransactionalId())) {
            return CompletableFuture.completedFuture(results(request,
                    partition -> Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED));
        }
        // As Kafka: a client may not add an internal topic's partitions, whatever its ACLs.
        Predicate<String> writable = topic -> !InternalTopics.isInternal(topic)
                && access.allowsTopic(AclOperation.WRITE, topic);
        if (request.v3AndBelowTopics().stream().anyMatch(topic -> !writable.test(topic.name()))) {
            // As Kafka: the topics one may not write are named, the others were not attempted.
            return CompletableFuture.completedFuture(results(request, partition ->
                    writable.test(partition.topic()) ? Errors.OPERATION_NOT_ATTEMPTED
                            : Errors.TOPIC_AUTHORIZATION_FAILED));
        }
        MetadataImage image = metadata.get();
        Set<TopicPartition> added = new HashSet<>();
        boolean unknown = false;
        for (AddPartitionsToTxnTopic topic : request.v3AndBelowTopics()) {
            TopicImage known = image.topic(topic.name());
            for (int index : topic.partitions()) {
                added.add(new TopicPartition(topic.name(), index));
                unknown |= known == null || known.partition(index) == null;
            }
        }
        if (unknown) {
            // Kafka's answer: the unknown partitions are named, the others were not attempted.
            return CompletableFuture.completedFuture(results(request, partition -> {
                TopicImage known = image.topic(partition.topic());
                return known == null || known.partition(partition.partition()) == null
                        ? Errors.UNKNOWN_TOPIC_OR_PARTITION : Errors.OPERATION_NOT_ATTEMPTED;
            }));
        }
        short version = context.apiVersion();
        return coordinator.addPartitions(request.v3AndBelowTransactionalId(), request.v3AndBelowProducerId(),
                        request.v3AndBelowProducerEpoch(), added, false)
                .thenApply(error -> results(request, partition -> forVersion(error, version)));
    }

    /** A partition leader's request: each transaction's partitions added (or checked), each answered on its own. */
    private CompletableFuture<AddPartitionsToTxnResponseData> addPartitionsForBroker(
            AddPartitionsToTxnRequestData request) {
        List<CompletableFuture<AddPartitionsToTxnResult>> answers = new ArrayList<>();
        for (AddPartitionsToTxnTransaction transaction : request.transactions()) {
            Set<TopicPartition> added = new HashSet<>();
            for (AddPartitionsToTxnTopic topic : transaction.topics()) {
                topic.partitions().forEach(index -> added.add(new TopicPartition(topic.name(), index)));
            }
            answers.add(coordinator.addPartitions(transaction.transactionalId(), transaction.producerId(),
                    transaction.producerEpoch(), added, transaction.verifyOnly()).thenApply(error ->
                    new AddPartitionsToTxnResult().setTransactionalId(transaction.transactionalId())
                            .setTopicResults(topicResults(transaction.topics(), partition -> error))));
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(done ->
                new AddPartitionsToTxnResponseData().setErrorCode(Errors.NONE.code()).setResultsByTransaction(
                        answers.stream().map(CompletableFuture::join).toList()));
    }

    private static AddPartitionsToTxnResponseData results(AddPartitionsToTxnRequestData request,
                                                          Function<TopicPartition, Errors> errorOf) {
        return new AddPartitionsToTxnResponseData().setResultsByTopicV3AndBelow(
                topicResults(request.v3AndBelowTopics(), errorOf));
    }

    private static List<AddPartitionsToTxnTopicResult> topicResults(List<AddPartitionsToTxnTopic> requested,
                                                                    Function<TopicPartition, Errors> errorOf) {
        List<AddPartitionsToTxnTopicResult> topics = new ArrayList<>();
        for (AddPartitionsToTxnTopic topic : requested) {
            List<AddPartitionsToTxnPartitionResult> partitions = new ArrayList<>();
            for (int index : topic.partitions()) {
                partitions.add(new AddPartitionsToTxnPartitionResult().setPartitionIndex(index)
                        .setPartitionErrorCode(errorOf.apply(new TopicPartition(topic.name(), index)).code()));
            }
            topics.add(new AddPartitionsToTxnTopicResult().setName(topic.name()).setResultsByPartition(partitions));
        }
        return topics;
    }

    private CompletableFuture<AddOffsetsToTxnResponseData> addOffsets(RequestContext context,
                                                                     AddOffsetsToTxnRequestData request) {
        short version = context.apiVersion();
        TopicPartition offsets = new TopicPartition("__consumer_offsets", groupPartition.apply(request.groupId()));
        return coordinator.addPartitions(request.transactionalId(), request.producerId(), request.producerEpoch(),
                        Set.of(offsets), false)
                .thenApply(error -> new AddOffsetsToTxnResponseData().setErrorCode(forVersion(error, version).code()));
    }

    private CompletableFuture<EndTxnResponseData> endTxn(RequestContext context, EndTxnRequestData request) {
        short version = context.apiVersion();
        return coordinator.endTxn(request.transactionalId(), request.producerId(), request.producerEpoch(),
                        request.committed(), version >= FIRST_EPOCH_BUMPING_END_TXN_VERSION)
                .thenApply(ended -> new EndTxnResponseData().setErrorCode(forVersion(ended.error(), version).code())
                        .setProducerId(ended.producerId()).setProducerEpoch(ended.producerEpoch()));
    }

    private CompletableFuture<DescribeTransactionsResponseData> describe(DescribeTransactionsRequestData request,
                                                                         Access access) {
        List<CompletableFuture<DescribeTransactionsResponseData.TransactionState>> answers = new ArrayList<>();
        for (String transactionalId : request.transactionalIds()) {
            if (!access.allows(AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, transactionalId)) {
                answers.add(CompletableFuture.completedFuture(new DescribeTransactionsResponseData.TransactionState()
                        .setTransactionalId(transactionalId)
                        .setErrorCode(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code()).setTransactionState("")
                        .setProducerId(-1).setProducerEpoch((short) -1).setTransactionStartTimeMs(-1)));
                continue;
            }
            answers.add(coordinator.describe(transactionalId).thenApply(described -> {
                DescribeTransactionsResponseData.TransactionState answer =
                        new DescribeTransactionsResponseData.TransactionState().setTransactionalId(transactionalId)
                                .setErrorCode(described.error().code()).setTransactionState("")
                                .setProducerId(-1).setProducerEpoch((short) -1).setTransactionStartTimeMs(-1);
                TransactionMetadata metadata = described.metadata();
                if (metadata == null) {
                    return answer;
                }
                List<DescribeTransactionsResponseData.TopicData> topics = new ArrayList<>();
                for (TopicPartition partition : metadata.sortedPartitions()) {
                    if (!access.allowsTopic(AclOperation.DESCRIBE, partition.topic())) {
                        continue; // as Kafka: the topics one may not describe are left out
                    }
                    if (topics.isEmpty() || !topics.get(topics.size() - 1).topic().equals(partition.topic())) {
                        topics.add(new DescribeTransactionsResponseData.TopicData().setTopic(partition.topic())
                                .setPartitions(new ArrayList<>()));
                    }
                    topics.get(topics.size() - 1).partitions().add(partition.partition());
                }
                return answer.setTransactionState(metadata.state().kafkaName)
                        .setTransactionTimeoutMs(metadata.timeoutMs())
                        .setTransactionStartTimeMs(metadata.startTimestampMs())
                        .setProducerId(metadata.producerId()).setProducerEpoch(metadata.producerEpoch())
                        .setTopics(topics);
            }));
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(done ->
                new DescribeTransactionsResponseData().setTransactionStates(
                        answers.stream().map(CompletableFuture::join).toList()));
    }

    /** The transactions that match the filters, of the transactional ids the sender may DESCRIBE. */
    private CompletableFuture<ListTransactionsResponseData> list(ListTransactionsRequestData request, Access access) {
        Set<String> states = new HashSet<>();
        List<String> unknownStates = new ArrayList<>();
        for (String state : request.stateFilters()) {
            boolean known = false;
            for (TransactionState candidate : TransactionState.values()) {
                known |= candidate.kafkaName.equals(state);
            }
            if (known) {
                states.add(state);
            } else {
                unknownStates.add(state);
            }
        }
        Set<Long> producerIds = new HashSet<>(request.producerIdFilters());
        Pattern idPattern;
        try {
            idPattern = request.transactionalIdPattern() == null || request.transactionalIdPattern().isEmpty() ? null
                    : Pattern.compile(request.transactionalIdPattern());
        } catch (PatternSyntaxException e) {
            return CompletableFuture.completedFuture(new ListTransactionsResponseData()
                    .setErrorCode(Errors.INVALID_REGULAR_EXPRESSION.code()));
        }
        long nowMs = System.currentTimeMillis();
        return coordinator.list().thenApply(all -> {
            List<ListTransactionsResponseData.TransactionState> listed = new ArrayList<>();
            for (TransactionMetadata metadata : all) {
                boolean matches = (states.isEmpty() && unknownStates.isEmpty()
                        || states.contains(metadata.state().kafkaName))
                        && (producerIds.isEmpty() || producerIds.contains(metadata.producerId()))
                        && (request.durationFilter() < 0 || metadata.startTimestampMs() >= 0
                        && nowMs - metadata.startTimestampMs() >= request.durationFilter())
                        && (idPattern == null || idPattern.matcher(metadata.transactionalId()).matches())
                        && access.allows(AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID,
                        metadata.transactionalId());
                if (matches) {
                    listed.add(new ListTransactionsResponseData.TransactionState()
                            .setTransactionalId(metadata.transactionalId()).setProducerId(metadata.producerId())
                            .setTransactionState(metadata.state().kafkaName));
                }
            }
            return new ListTransactionsResponseData().setErrorCode(Errors.NONE.code())
                    .setUnknownStateFilters(unknownStates).setTransactionStates(listed);
        });
    }

    /** PRODUCER_FENCED as the client of {@code version} knows it. */
    static Errors forVersion(Errors error, short version) {
        return error == Errors.PRODUCER_FENCED && version < FIRST_PRODUCER_FENCED_VERSION
                ? Errors.INVALID_PRODUCER_EPOCH : error;
    }
}

package dev.spool.broker.produce;

import dev.spool.broker.api.Access;
import dev.spool.broker.api.ApiHandler;
import dev.spool.broker.api.ConnectionCloseRequest;
import dev.spool.broker.api.RequestContext;
import dev.spool.broker.metadata.BrokerRegistration;
import dev.spool.broker.metadata.InternalTopics;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.TopicImage;
import dev.spool.broker.partition.Partition;
import dev.spool.broker.partition.PartitionManager;
import dev.spool.broker.security.acl.AclOperation;
import dev.spool.broker.security.acl.ResourceType;
import dev.spool.log.producer.VerificationGuard;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ProduceRequestData;
import dev.spool.protocol.message.ProduceRequestData.PartitionProduceData;
import dev.spool.protocol.message.ProduceRequestData.TopicProduceData;
import dev.spool.protocol.message.ProduceResponseData;
import dev.spool.protocol.message.ProduceResponseData.LeaderIdAndEpoch;
import dev.spool.protocol.message.ProduceResponseData.NodeEndpoint;
import dev.spool.protocol.message.ProduceResponseData.PartitionProduceResponse;
import dev.spool.protocol.message.ProduceResponseData.TopicProduceResponse;
import dev.spool.protocol.types.ByteBufferRecords;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.Records;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Produce (versions 3 and later; 0-2 are advertised for librdkafka's sake, KAFKA-18659, and refused by
 * the dispatcher): resolves each partition, hands its records to the partition's
 * {@link PartitionAppender} and gathers the answers in request order. Every partition is judged on
 * its own: a bad one never fails the others. Thread-safe; a partition's append runs on the calling
 * network thread only when it can wait on nothing but its write to the page cache (see
 * {@link PartitionAppender#append}).
 *
 * <p>acks: 0, 1 and -1 (all) are accepted; acks=all answers once the batch is committed (the high
 * watermark passed it) or the request's {@code timeout_ms} ran out; with one broker the in-sync replica set
 * is this broker, so the append commits at once, also on a topic whose {@code min.insync.replicas} exceeds 1
 * (Kafka caps it at the replication factor). Others get INVALID_REQUIRED_ACKS on every partition.
 * acks=0 gets no response; if a partition failed the connection is closed instead, as Kafka does, so the
 * producer refreshes its metadata.
 *
 * <p>A transactional producer's batch opens its transaction in the partition (the log's producer state). Before the
 * first batch of a transaction in a partition, the coordinator is asked ({@link TransactionMembership}, KIP-890): from
 * Produce v12 on (transactions v2) it adds the partition to the transaction, which the client no longer does; before,
 * it checks that the client added it ({@code transaction.partition.verification.enable}). A partition it refuses is
 * not written; its answer is retriable (NOT_ENOUGH_REPLICAS) while the coordinator is busy or away, as in Kafka.
 */
public final class ProduceHandler implements ApiHandler {

    /** Produce v13 names topics by id (KIP-516). */
    static final short FIRST_TOPIC_ID_VERSION = 13;
    /** Clients may not produce to internal topics, as in Kafka; only its own admin client may. */
    private static final String ADMIN_CLIENT_ID = "__admin_client";
    private static final int BATCH_ATTRIBUTES = 21;
    private static final int TRANSACTIONAL_BIT = 0x10;

    /** Produce v12 is transactions v2: the partitions of a transactional batch are added by the leader. */
    static final short FIRST_IMPLICIT_ADD_VERSION = 12;
    /** Produce v11 added TRANSACTION_ABORTABLE. */
    static final short FIRST_TRANSACTION_ABORTABLE_VERSION = 11;

    private final Supplier<MetadataImage> metadata;
    private final PartitionManager partitions;
    private final PartitionAppenders appenders;
    private final TransactionMembership transactions;
    private final boolean verifyTransactions;

    /** A broker that asks no coordinator (tests). */
    public ProduceHandler(Supplier<MetadataImage> metadata, PartitionManager partitions, PartitionAppenders appenders) {
        this(metadata, partitions, appenders, TransactionMembership.ANY, false);
    }

    /** {@code verifyTransactions}: {@code transaction.partition.verification.enable}, for transactions v1. */
    public ProduceHandler(Supplier<MetadataImage> metadata, PartitionManager partitions, PartitionAppenders appenders,
                          TransactionMembership transactions, boolean verifyTransactions) {
        this.metadata = metadata;
        this.partitions = partitions;
        this.appenders = appenders;
        this.transactions = transactions;
        this.verifyTransactions = verifyTransactions;
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message message) {
        ProduceRequestData request = (ProduceRequestData) message;
        short version = context.apiVersion();
        short acks = request.acks();
        Errors requestError = null;
        if (acks != 0 && acks != 1 && acks != -1) {
            requestError = Errors.INVALID_REQUIRED_ACKS;
        } else if (context.access() != Access.ALL && hasTransactionalRecords(request)
                && (request.transactionalId() == null || !context.access().allows(AclOperation.WRITE,
                ResourceType.TRANSACTIONAL_ID, request.transactionalId()))) {
            // As Kafka: transactional records need WRITE on a transactional id the request names.
            requestError = Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED;
        }
        MetadataImage image = metadata.get();
        boolean joinTransactions = request.transactionalId() != null
                && (version >= FIRST_IMPLICIT_ADD_VERSION || verifyTransactions);
        TransactionJoins joins = joinTransactions ? new TransactionJoins() : null;
        List<CompletableFuture<PartitionProduceResponse>> pending = new ArrayList<>();
        ProduceResponseData response = new ProduceResponseData();
        List<TopicProduceResponse> topics = new ArrayList<>(request.topicData().size());
        for (TopicProduceData topic : request.topicData()) {
            TopicImage topicImage = version >= FIRST_TOPIC_ID_VERSION ? image.topic(topic.topicId())
                    : image.topic(topic.name());
            Errors topicError = requestError != null ? requestError : topicError(topicImage, topic.name(), version,
                    context);
            List<PartitionProduceResponse> answers = new ArrayList<>(topic.partitionData().size());
            for (PartitionProduceData data : topic.partitionData()) {
                Partition partition = topicError == null ? partitions.get(topicImage.name(), data.index()) : null;
                if (partition == null) {
                    Errors error = topicError != null ? topicError : Errors.UNKNOWN_TOPIC_OR_PARTITION;
                    answers.add(failed(error).setIndex(data.index()));
                    continue;
                }
                if (!partitions.leads(partition)) {
                    // A follower replica, or a partition without a leader: only the leader takes writes. The
                    // client is told where the leader is (KIP-951), so it need not refresh its metadata first.
                    int leader = partition.assignment().leader();
                    answers.add(failed(Errors.NOT_LEADER_OR_FOLLOWER).setIndex(data.index())
                            .setCurrentLeader(new LeaderIdAndEpoch().setLeaderId(leader)
                                    .setLeaderEpoch(partition.leaderEpoch())));
                    addEndpoint(response, image, leader, context.connection().listenerName());
                    continue;
                }
                ByteBuffer records = writableRecords(data.records());
                PartitionAppender appender = appenders.of(partition);
                pending.add(joins != null && joins.needs(partition, records)
                        ? joins.then(error -> error == Errors.NONE
                                ? appender.appendOnIoThreads(records, version, acks, request.timeoutMs(),
                                        joins.guardOf(partition))
                                : CompletableFuture.completedFuture(failed(produceError(error, version))
                                        .setIndex(data.index())))
                        : appender.append(records, version, acks, request.timeoutMs(),
                                joins == null ? VerificationGuard.NOT_CHECKED : VerificationGuard.NONE));
                answers.add(null);
            }
            topics.add(new TopicProduceResponse().setName(topic.name()).setTopicId(topic.topicId())
                    .setPartitionResponses(answers));
        }
        response.setResponses(topics);
        if (joins != null) {
            joins.ask(transactions, request.transactionalId(), version < FIRST_IMPLICIT_ADD_VERSION);
        }
        return CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
                .thenApply(done -> complete(response, pending, acks, context));
    }

    /**
     * What a partition the coordinator did not take into the transaction answers: retriable while the coordinator is
     * busy (the previous transaction's markers), moving or away; INVALID_PRODUCER_EPOCH for a fenced producer;
     * else the transaction must abort (INVALID_TXN_STATE before Produce v11).
     */
    static Errors produceError(Errors coordinatorError, short version) {
        return switch (coordinatorError) {
            case CONCURRENT_TRANSACTIONS, COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS ->
                    Errors.NOT_ENOUGH_REPLICAS;
            case PRODUCER_FENCED, INVALID_PRODUCER_EPOCH -> Errors.INVALID_PRODUCER_EPOCH;
            default -> version >= FIRST_TRANSACTION_ABORTABLE_VERSION ? Errors.TRANSACTION_ABORTABLE
                    : Errors.INVALID_TXN_STATE;
        };
    }

    /** Whether a partition's records are a transactional batch (attributes bit 4 of its first batch). */
    private static boolean hasTransactionalRecords(ProduceRequestData request) {
        for (TopicProduceData topic : request.topicData()) {
            for (PartitionProduceData data : topic.partitionData()) {
                if (data.records() instanceof ByteBufferRecords records) {
                    ByteBuffer buffer = records.buffer();
                    int attributes = buffer.position() + BATCH_ATTRIBUTES;
                    if (buffer.limit() >= attributes + 2 && (buffer.getShort(attributes) & TRANSACTIONAL_BIT) != 0) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** Why no partition of this topic can be written, or null. */
    private static Errors topicError(TopicImage topic, String name, short version, RequestContext context) {
        if (topic == null) {
            // By name, an unknown topic one may not write is TOPIC_AUTHORIZATION_FAILED, as in Kafka: the answer
            // does not tell who may not write whether the topic exists.
            return version >= FIRST_TOPIC_ID_VERSION ? Errors.UNKNOWN_TOPIC_ID
                    : !context.access().allowsTopic(AclOperation.WRITE, name) ? Errors.TOPIC_AUTHORIZATION_FAILED
                    : Errors.UNKNOWN_TOPIC_OR_PARTITION;
        }
        if (!context.access().allowsTopic(AclOperation.WRITE, topic.name())) {
            return Errors.TOPIC_AUTHORIZATION_FAILED;
        }
        if (InternalTopics.isInternal(topic.name()) && !ADMIN_CLIENT_ID.equals(context.clientId())) {
            return Errors.INVALID_TOPIC_EXCEPTION;
        }
        return null;
    }

    /** Adds {@code brokerId}'s endpoint on {@code listener} to the response's node endpoints, once. */
    private static void addEndpoint(ProduceResponseData response, MetadataImage image, int brokerId, String listener) {
        BrokerRegistration broker = image.brokers().get(brokerId);
        if (broker == null || broker.listeners().isEmpty()
                || response.nodeEndpoints().stream().anyMatch(node -> node.nodeId() == brokerId)) {
            return;
        }
        BrokerRegistration.Listener endpoint = broker.listeners().stream()
                .filter(candidate -> candidate.name().equals(listener)).findFirst()
                .orElse(broker.listeners().get(0));
        List<NodeEndpoint> nodes = new ArrayList<>(response.nodeEndpoints());
        nodes.add(new NodeEndpoint().setNodeId(brokerId).setHost(endpoint.host()).setPort(endpoint.port())
                .setRack(broker.rack()));
        response.setNodeEndpoints(nodes);
    }

    /** Fills the placeholders (nulls) with the appenders' answers, in request order. */
    private static Message complete(ProduceResponseData response, List<CompletableFuture<PartitionProduceResponse>> pending,
                                    short acks, RequestContext context) {
        int next = 0;
        StringJoiner failed = null; // acks=0: names the failed partitions, made on the first one
        for (TopicProduceResponse topic : response.responses()) {
            List<PartitionProduceResponse> answers = topic.partitionResponses();
            for (int i = 0; i < answers.size(); i++) {
                if (answers.get(i) == null) {
                    answers.set(i, pending.get(next++).join());
                }
                PartitionProduceResponse answer = answers.get(i);
                if (acks == 0 && answer.errorCode() != Errors.NONE.code()) {
                    failed = failed != null ? failed : new StringJoiner(", ");
                    failed.add((topic.name() != null ? topic.name() : topic.topicId().toString()) + "-"
                            + answer.index() + ": " + Errors.nameOf(answer.errorCode()));
                }
            }
        }
        if (acks == 0) {
            // Kafka, too, can only close the connection: an acks=0 producer reads no answer.
            if (failed != null) {
                throw new ConnectionCloseRequest(context + " with acks=0 failed on " + failed);
            }
            return null;
        }
        return response;
    }

    private static PartitionProduceResponse failed(Errors error) {
        return new PartitionProduceResponse()
                .setErrorCode(error.code())
                .setBaseOffset(-1)
                .setLogAppendTimeMs(-1)
                .setLogStartOffset(-1);
    }

    /**
     * The records as a buffer the append may rewrite in place (offsets, leader epoch). The request
     * frame's buffer is writable and stays alive until the response is sent; a read-only view is
     * copied (it never is with Netty's buffers, but the type allows it).
     */
    private static ByteBuffer writableRecords(Records records) {
        if (records == null) {
            return ByteBuffer.allocate(0);
        }
        ByteBuffer buffer = ((ByteBufferRecords) records).buffer();
        if (!buffer.isReadOnly()) {
            return buffer;
        }
        ByteBuffer copy = ByteBuffer.allocate(buffer.remaining());
        copy.put(buffer).flip();
        return copy;
    }
}

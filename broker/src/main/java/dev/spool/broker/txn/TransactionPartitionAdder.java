package dev.spool.broker.txn;

import dev.spool.broker.client.NodeClients;
import dev.spool.broker.cluster.ClusterView;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.PartitionImage;
import dev.spool.broker.metadata.TopicImage;
import dev.spool.broker.produce.TransactionMembership;
import dev.spool.log.TopicPartition;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.AddPartitionsToTxnRequestData;
import dev.spool.protocol.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTopic;
import dev.spool.protocol.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTransaction;
import dev.spool.protocol.message.AddPartitionsToTxnResponseData;
import dev.spool.protocol.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnPartitionResult;
import dev.spool.protocol.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnResult;
import dev.spool.protocol.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnTopicResult;
import dev.spool.protocol.message.ApiKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * Thread-safe. The partition leader's side of KIP-890: before the first transactional batch of a producer's
 * transaction is written to a partition, the producer's transaction coordinator adds the partition to the
 * transaction (transactions v2: Produce v12+ and TxnOffsetCommit v5 carry no AddPartitionsToTxn before them) or
 * confirms that the client added it (v1), so a late or stray batch cannot open a transaction nobody will end. The
 * coordinator is asked directly when this broker is it, else with AddPartitionsToTxn v5. CONCURRENT_TRANSACTIONS (the
 * producer's previous transaction still writing its markers) is asked again every {@link #RETRY_BACKOFF_MS} for up
 * to {@link #RETRY_FOR_MS}, as Kafka's brokers do, before it is answered.
 */
public final class TransactionPartitionAdder implements TransactionMembership {

    static final long RETRY_BACKOFF_MS = 20;
    static final long RETRY_FOR_MS = 500;
    private static final short ADD_PARTITIONS_VERSION = 5;

    private final int nodeId;
    /** The partition of {@code __transaction_state} a transactional id hashes to. */
    private final ToIntFunction<String> partitionFor;
    /** This broker's coordinator, asked when it leads that partition. */
    private final TransactionMembership local;
    private final Supplier<MetadataImage> metadata;
    private final Predicate<PartitionImage> leads;
    /** Null on a single broker, which coordinates every transaction. */
    private final NodeClients clients;
    private final ScheduledExecutorService scheduler;

    public TransactionPartitionAdder(int nodeId, TransactionCoordinator coordinator, Supplier<MetadataImage> metadata,
                                     Predicate<PartitionImage> leads, NodeClients clients,
                                     ScheduledExecutorService scheduler) {
        this(nodeId, coordinator::partitionFor, coordinator::addPartitions, metadata, leads, clients, scheduler);
    }

    TransactionPartitionAdder(int nodeId, ToIntFunction<String> partitionFor, TransactionMembership local,
                              Supplier<MetadataImage> metadata, Predicate<PartitionImage> leads, NodeClients clients,
                              ScheduledExecutorService scheduler) {
        this.nodeId = nodeId;
        this.partitionFor = partitionFor;
        this.local = local;
        this.metadata = metadata;
        this.leads = leads;
        this.clients = clients;
        this.scheduler = scheduler;
    }

    /**
     * Adds {@code partitions} to the transaction of {@code transactionalId}'s producer (or, {@code verifyOnly}, checks
     * that they are in it): NONE, or the coordinator's error for all of them (COORDINATOR_NOT_AVAILABLE when it
     * could not be reached).
     */
    @Override
    public CompletableFuture<Errors> add(String transactionalId, long producerId, short producerEpoch,
                                         Set<TopicPartition> partitions, boolean verifyOnly) {
        return add(transactionalId, producerId, producerEpoch, partitions, verifyOnly, () -> { });
    }

    /**
     * {@inheritDoc} The question is repeated while the coordinator answers CONCURRENT_TRANSACTIONS: the previous
     * transaction's marker, which it waits for, may be written here meanwhile.
     */
    @Override
    public CompletableFuture<Errors> add(String transactionalId, long producerId, short producerEpoch,
                                         Set<TopicPartition> partitions, boolean verifyOnly,
                                         Runnable beforeEachQuestion) {
        CompletableFuture<Errors> answer = new CompletableFuture<>();
        attempt(transactionalId, producerId, producerEpoch, partitions, verifyOnly, beforeEachQuestion,
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RETRY_FOR_MS), answer);
        return answer;
    }

    private void attempt(String transactionalId, long producerId, short producerEpoch, Set<TopicPartition> partitions,
                         boolean verifyOnly, Runnable beforeEachQuestion, long deadlineNanos,
                         CompletableFuture<Errors> answer) {
        beforeEachQuestion.run();
        ask(transactionalId, producerId, producerEpoch, partitions, verifyOnly).whenComplete((error, failure) -> {
            Errors result = failure != null ? Errors.COORDINATOR_NOT_AVAILABLE : error;
            if (result == Errors.CONCURRENT_TRANSACTIONS && System.nanoTime() < deadlineNanos) {
                scheduler.schedule(() -> attempt(transactionalId, producerId, producerEpoch, partitions, verifyOnly,
                        beforeEachQuestion, deadlineNanos, answer), RETRY_BACKOFF_MS, TimeUnit.MILLISECONDS);
            } else {
                answer.complete(result);
            }
        });
    }

    private CompletableFuture<Errors> ask(String transactionalId, long producerId, short producerEpoch,
                                          Set<TopicPartition> partitions, boolean verifyOnly) {
        MetadataImage image = metadata.get();
        TopicImage topic = image.topic(TransactionCoordinator.TOPIC);
        PartitionImage coordinatorPartition = topic == null ? null
                : topic.partition(partitionFor.applyAsInt(transactionalId));
        if (coordinatorPartition == null) {
            return CompletableFuture.completedFuture(Errors.COORDINATOR_NOT_AVAILABLE);
        }
        int leader = coordinatorPartition.leader();
        if (leader == nodeId || clients == null) {
            return leads.test(coordinatorPartition)
                    ? local.add(transactionalId, producerId, producerEpoch, partitions, verifyOnly)
                    : CompletableFuture.completedFuture(Errors.NOT_COORDINATOR);
        }
        ClusterView.BrokerNode broker = ClusterView.of("", -1, image).broker(leader);
        if (broker == null) {
            return CompletableFuture.completedFuture(Errors.COORDINATOR_NOT_AVAILABLE);
        }
        AddPartitionsToTxnRequestData request = new AddPartitionsToTxnRequestData().setTransactions(List.of(
                new AddPartitionsToTxnTransaction().setTransactionalId(transactionalId).setProducerId(producerId)
                        .setProducerEpoch(producerEpoch).setVerifyOnly(verifyOnly).setTopics(topics(partitions))));
        return clients.connection(broker.addressOn(clients.listenerName()), "txn-add")
                .<AddPartitionsToTxnResponseData>send(ApiKey.ADD_PARTITIONS_TO_TXN, ADD_PARTITIONS_VERSION, request)
                .thenApply(TransactionPartitionAdder::firstError);
    }

    private static List<AddPartitionsToTxnTopic> topics(Set<TopicPartition> partitions) {
        Map<String, List<Integer>> byTopic = new TreeMap<>();
        partitions.forEach(partition -> byTopic.computeIfAbsent(partition.topic(), name -> new ArrayList<>())
                .add(partition.partition()));
        List<AddPartitionsToTxnTopic> topics = new ArrayList<>();
        byTopic.forEach((name, indexes) -> topics.add(new AddPartitionsToTxnTopic().setName(name)
                .setPartitions(indexes)));
        return topics;
    }

    /** The answer for one transaction: its top-level error, else the first partition's that is not NONE. */
    private static Errors firstError(AddPartitionsToTxnResponseData response) {
        if (response.errorCode() != Errors.NONE.code()) {
            return Errors.forCode(response.errorCode());
        }
        for (AddPartitionsToTxnResult transaction : response.resultsByTransaction()) {
            for (AddPartitionsToTxnTopicResult topic : transaction.topicResults()) {
                for (AddPartitionsToTxnPartitionResult partition : topic.resultsByPartition()) {
                    if (partition.partitionErrorCode() != Errors.NONE.code()) {
                        return Errors.forCode(partition.partitionErrorCode());
                    }
                }
            }
        }
        return Errors.NONE;
    }
}

package dev.spool.broker.txn;

import dev.spool.broker.coordinator.CoordinatorRuntime;
import dev.spool.broker.coordinator.PartitionRecordLog;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.MetadataListener;
import dev.spool.broker.metadata.MetadataManager;
import dev.spool.broker.metadata.PartitionImage;
import dev.spool.broker.metadata.TopicCreator;
import dev.spool.broker.metadata.TopicImage;
import dev.spool.broker.partition.PartitionManager;
import dev.spool.broker.produce.ProducerIdManager;
import dev.spool.log.LogClock;
import dev.spool.log.TopicPartition;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.CreateTopicsRequestData.CreatableTopic;
import dev.spool.protocol.message.CreateTopicsRequestData.CreatableTopicConfig;
import dev.spool.protocol.message.CreateTopicsResponseData.CreatableTopicResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transaction coordinator of this broker: one {@link TransactionShard} per partition of {@code __transaction_state}
 * this broker leads, run by a {@link CoordinatorRuntime} (loaded when the partition's leadership comes here, unloaded
 * when it leaves), as the group coordinator runs on {@code __consumer_offsets}. It creates the topic on first use (50
 * partitions, compacted, min ISR 2) through the metadata controller. A transactional id belongs to partition
 * {@code (id.hashCode() & 0x7fffffff) % partitions}, Kafka's rule. The coordinator's epoch is its partition's leader
 * epoch; the markers it writes carry it, so a partition refuses those of a coordinator that was replaced.
 *
 * <p>Thread-safe: a shard's operations and timers run on its runtime thread; callers get futures.
 */
public final class TransactionCoordinator implements MetadataListener, AutoCloseable {

    public static final String TOPIC = "__transaction_state";
    private static final Logger LOG = LoggerFactory.getLogger(TransactionCoordinator.class);
    private static final int THREADS = 2;

    private final TransactionSettings settings;
    private final CoordinatorRuntime<TransactionShard> runtime = new CoordinatorRuntime<>("transaction", THREADS);
    private final MetadataManager metadata;
    private final TopicCreator topics;
    private final PartitionManager partitions;
    private final LogClock clock;
    private final MarkerWriter markers;
    private final ProducerIdManager producerIds;

    public TransactionCoordinator(TransactionSettings settings, MetadataManager metadata, TopicCreator topics,
                                  PartitionManager partitions, LogClock clock, MarkerWriter markers,
                                  ProducerIdManager producerIds) {
        this.settings = settings;
        this.metadata = metadata;
        this.topics = topics;
        this.partitions = partitions;
        this.clock = clock;
        this.markers = markers;
        this.producerIds = producerIds;
        runtime.forEachLoadedEvery(settings.abortCheckIntervalMs(), TransactionShard::abortExpired);
        runtime.forEachLoadedEvery(settings.expirationCheckIntervalMs(), TransactionShard::expireTransactionalIds);
    }

    public TransactionSettings settings() {
        return settings;
    }

    /** The partition of {@code __transaction_state} that holds a transactional id. */
    public int partitionFor(String transactionalId) {
        TopicImage topic = metadata.image().topic(TOPIC);
        int count = topic == null ? settings.numPartitions() : topic.partitions().size();
        return (transactionalId.hashCode() & 0x7fffffff) % count;
    }

    /** Creates {@code __transaction_state} unless it exists. */
    public CompletableFuture<Void> ensureTopic() {
        if (metadata.image().topic(TOPIC) != null) {
            return CompletableFuture.completedFuture(null);
        }
        long live = metadata.image().brokers().values().stream().filter(broker -> !broker.fenced()).count();
        short replicationFactor = (short) Math.max(1, Math.min(settings.replicationFactor(), live));
        CreatableTopic topic = new CreatableTopic().setName(TOPIC).setNumPartitions(settings.numPartitions())
                .setReplicationFactor(replicationFactor).setConfigs(List.of(
                        new CreatableTopicConfig().setName("cleanup.policy").setValue("compact"),
                        new CreatableTopicConfig().setName("compression.type").setValue("uncompressed"),
                        new CreatableTopicConfig().setName("min.insync.replicas")
                                .setValue(String.valueOf(settings.minInsyncReplicas())),
                        new CreatableTopicConfig().setName("unclean.leader.election.enable").setValue("false"),
                        new CreatableTopicConfig().setName("segment.bytes")
                                .setValue(String.valueOf(settings.segmentBytes()))));
        return topics.create(List.of(topic)).thenAccept(results -> {
            for (CreatableTopicResult result : results) {
                if (result.errorCode() != Errors.NONE.code() && result.errorCode() != Errors.TOPIC_ALREADY_EXISTS.code()) {
                    throw new IllegalStateException("cannot create " + TOPIC + ": error " + result.errorCode() + " "
                            + result.errorMessage());
                }
            }
        });
    }

    /** Loads a shard where this broker became the leader of a partition of the topic, unloads where it no longer is. */
    @Override
    public void onImage(MetadataImage previous, MetadataImage current) {
        runtime.followLeadership(TOPIC, previous, current, partitions, (index, partition, epoch, timer) ->
                new TransactionShard(index, new PartitionRecordLog(partition, epoch, clock), clock::nowMs, settings,
                        this::writeMarkers));
    }

    /** InitProducerId with a transactional id (its timeout already checked against transaction.max.timeout.ms). */
    public CompletableFuture<TransactionShard.Session> initProducerId(String transactionalId, int timeoutMs,
                                                                      long expectedProducerId, short expectedEpoch) {
        // A fresh id for each call: used only for a new transactional id or an epoch that ran out, but asking the
        // shard first would mean a second trip to its thread; ids are plentiful (blocks of 1,000 per broker).
        return producerIds.nextProducerId().handle((producerId, failure) -> producerId)
                .thenCompose(producerId -> producerId == null
                        ? CompletableFuture.completedFuture(TransactionShard.Session.failed(
                                Errors.COORDINATOR_LOAD_IN_PROGRESS))
                        : call(transactionalId, shard -> shard.initProducerId(transactionalId, timeoutMs,
                                expectedProducerId, expectedEpoch, producerId), TransactionShard.Session::failed));
    }

    /**
     * AddPartitionsToTxn, AddOffsetsToTxn, and a partition leader's add or check ({@code verifyOnly}) for a
     * transactional batch: NONE or the error for all of them.
     */
    public CompletableFuture<Errors> addPartitions(String transactionalId, long producerId, short producerEpoch,
                                                   Set<TopicPartition> added, boolean verifyOnly) {
        return call(transactionalId, shard -> shard.addPartitions(transactionalId, producerId, producerEpoch, added,
                verifyOnly), error -> error);
    }

    /** EndTxn; {@code bumpEpoch} for v5 (transactions v2), whose answer names the producer id and epoch to go on with. */
    public CompletableFuture<TransactionShard.Ended> endTxn(String transactionalId, long producerId, short producerEpoch,
                                                            boolean commit, boolean bumpEpoch) {
        return endTxn(transactionalId, producerId, producerEpoch, commit, bumpEpoch, -1).thenCompose(ended ->
                ended != TransactionShard.Ended.NEEDS_PRODUCER_ID ? CompletableFuture.completedFuture(ended)
                        : producerIds.nextProducerId().handle((fresh, failure) -> fresh).thenCompose(fresh ->
                                fresh == null ? CompletableFuture.completedFuture(
                                        TransactionShard.Ended.of(Errors.COORDINATOR_LOAD_IN_PROGRESS))
                                        : endTxn(transactionalId, producerId, producerEpoch, commit, true, fresh)));
    }

    private CompletableFuture<TransactionShard.Ended> endTxn(String transactionalId, long producerId,
                                                             short producerEpoch, boolean commit, boolean bumpEpoch,
                                                             long freshProducerId) {
        return call(transactionalId, shard -> shard.endTxn(transactionalId, producerId, producerEpoch, commit,
                bumpEpoch, freshProducerId), TransactionShard.Ended::of);
    }

    /** The id's transaction (DescribeTransactions), or null with TRANSACTIONAL_ID_NOT_FOUND as the error. */
    CompletableFuture<Described> describe(String transactionalId) {
        return call(transactionalId, shard -> {
            TransactionMetadata metadata = shard.transaction(transactionalId);
            return metadata == null ? new Described(null, Errors.TRANSACTIONAL_ID_NOT_FOUND)
                    : new Described(metadata, Errors.NONE);
        }, error -> new Described(null, error));
    }

    /** What DescribeTransactions answers for one id. */
    record Described(TransactionMetadata metadata, Errors error) {
    }

    /** The transactions this broker coordinates (ListTransactions: each broker answers for its own). */
    CompletableFuture<List<TransactionMetadata>> list() {
        return runtime.callAll(TransactionShard::transactions).thenApply(perShard -> {
            List<TransactionMetadata> all = new ArrayList<>();
            perShard.forEach(all::addAll);
            return all;
        });
    }

    /** Runs {@code operation} on the id's shard, answering once what it wrote is committed, or the coordinator error. */
    private <T> CompletableFuture<T> call(String transactionalId, Function<TransactionShard, T> operation,
                                          Function<Errors, T> onError) {
        int partition = partitionFor(transactionalId);
        return runtime.call(partition, shard -> CompletableFuture.completedFuture(operation.apply(shard)),
                error -> onError.apply(error == Errors.NOT_COORDINATOR && metadata.image().topic(TOPIC) == null
                        ? Errors.COORDINATOR_NOT_AVAILABLE : error));
    }

    /**
     * Writes the markers of a transaction {@code shard} ended, then completes it there; on the shard's thread. Not before
     * the Prepare record is committed: a marker written for an end a new coordinator would not know of (the record lost
     * with its leader) could commit one partition of a transaction that coordinator then aborts.
     */
    private void writeMarkers(TransactionShard shard, TransactionMetadata ending) {
        runtime.afterCommit(shard.partition(), () -> startMarkers(shard, ending));
    }

    private void startMarkers(TransactionShard shard, TransactionMetadata ending) {
        int partition = shard.partition();
        int coordinatorEpoch = shard.coordinatorEpoch();
        markers.write(ending, coordinatorEpoch, () -> stillCoordinator(partition, coordinatorEpoch))
                .whenComplete((written, failure) -> {
                    if (failure != null) {
                        LOG.error("Writing the markers of '{}' failed", ending.transactionalId(), failure);
                    } else if (written) {
                        runtime.call(partition, loaded -> {
                            loaded.complete(ending);
                            return CompletableFuture.completedFuture(null);
                        }, error -> null);
                    }
                });
    }

    private boolean stillCoordinator(int partition, int coordinatorEpoch) {
        TopicImage topic = metadata.image().topic(TOPIC);
        PartitionImage image = topic == null ? null : topic.partition(partition);
        return image != null && partitions.leads(image) && image.leaderEpoch() == coordinatorEpoch;
    }

    @Override
    public void close() {
        runtime.close();
    }
}

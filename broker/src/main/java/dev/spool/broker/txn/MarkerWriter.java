package dev.spool.broker.txn;

import dev.spool.broker.client.NodeClients;
import dev.spool.broker.cluster.ClusterView;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.PartitionImage;
import dev.spool.broker.metadata.TopicImage;
import dev.spool.broker.partition.Partition;
import dev.spool.broker.partition.PartitionManager;
import dev.spool.broker.produce.PartitionAppenders;
import dev.spool.broker.produce.WriteTxnMarkersHandler;
import dev.spool.log.TopicPartition;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.WriteTxnMarkersRequestData;
import dev.spool.protocol.message.WriteTxnMarkersRequestData.WritableTxnMarker;
import dev.spool.protocol.message.WriteTxnMarkersRequestData.WritableTxnMarkerTopic;
import dev.spool.protocol.message.WriteTxnMarkersResponseData;
import dev.spool.protocol.message.WriteTxnMarkersResponseData.WritableTxnMarkerPartitionResult;
import dev.spool.protocol.message.WriteTxnMarkersResponseData.WritableTxnMarkerTopicResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thread-safe. Writes a transaction's COMMIT or ABORT markers into its partitions: on the partitions this broker leads
 * directly ({@link dev.spool.broker.produce.PartitionAppender#appendTxnMarker}), on the others with one WriteTxnMarkers
 * request per leader, as Kafka's coordinator sends them. A partition that failed (its leader moved, too few replicas
 * in sync, a timeout) is tried again, with the leader the metadata names then, until every partition has its marker
 * or is gone (its topic deleted), or until the coordinator that asked no longer is one (its successor writes them
 * again when it loads the transaction). A marker refused as stale (INVALID_PRODUCER_EPOCH,
 * TRANSACTION_COORDINATOR_FENCED: a newer coordinator or session already moved the partition on) is not retried.
 */
public final class MarkerWriter {

    private static final Logger LOG = LoggerFactory.getLogger(MarkerWriter.class);
    /** v2 names the transaction's version, so that leaders check a v2 marker's bumped epoch (KIP-1228). */
    private static final short WRITE_TXN_MARKERS_VERSION = 2;
    /** Between rounds of retries: the leader of a partition that failed is usually known again by then. */
    static final long RETRY_BACKOFF_MS = 100;

    private final int nodeId;
    private final Supplier<MetadataImage> metadata;
    private final PartitionManager partitions;
    private final PartitionAppenders appenders;
    /** Null on a single broker, where every partition is led here. */
    private final NodeClients clients;
    private final ScheduledExecutorService scheduler;

    public MarkerWriter(int nodeId, Supplier<MetadataImage> metadata, PartitionManager partitions,
                        PartitionAppenders appenders, NodeClients clients, ScheduledExecutorService scheduler) {
        this.nodeId = nodeId;
        this.metadata = metadata;
        this.partitions = partitions;
        this.appenders = appenders;
        this.clients = clients;
        this.scheduler = scheduler;
    }

    /**
     * Writes {@code ending}'s markers (COMMIT for PrepareCommit, else ABORT) with {@code coordinatorEpoch}; completes
     * true once every partition has its marker, false when it gave up ({@code stillCoordinator} turned false, or a
     * partition refused the marker as stale).
     */
    CompletableFuture<Boolean> write(TransactionMetadata ending, int coordinatorEpoch, BooleanSupplier stillCoordinator) {
        CompletableFuture<Boolean> done = new CompletableFuture<>();
        round(ending, coordinatorEpoch, new HashSet<>(ending.partitions()), stillCoordinator, done);
        return done;
    }

    private void round(TransactionMetadata ending, int coordinatorEpoch, Set<TopicPartition> remaining,
                       BooleanSupplier stillCoordinator, CompletableFuture<Boolean> done) {
        if (remaining.isEmpty()) {
            done.complete(true);
            return;
        }
        if (!stillCoordinator.getAsBoolean()) {
            done.complete(false);
            return;
        }
        MetadataImage image = metadata.get();
        Map<Integer, List<TopicPartition>> byLeader = new HashMap<>();
        for (TopicPartition partition : List.copyOf(remaining)) {
            TopicImage topic = image.topic(partition.topic());
            PartitionImage assignment = topic == null ? null : topic.partition(partition.partition());
            if (assignment == null) {
                remaining.remove(partition); // deleted: no reader is left to see the marker
            } else {
                byLeader.computeIfAbsent(assignment.leader(), leader -> new ArrayList<>()).add(partition);
            }
        }
        List<CompletableFuture<Map<TopicPartition, Errors>>> sent = new ArrayList<>();
        for (Map.Entry<Integer, List<TopicPartition>> leader : byLeader.entrySet()) {
            sent.add(leader.getKey() == nodeId ? writeHere(ending, coordinatorEpoch, leader.getValue())
                    : send(leader.getKey(), image, ending, coordinatorEpoch, leader.getValue()));
        }
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).whenComplete((ignored, failure) -> {
            boolean stale = false;
            for (CompletableFuture<Map<TopicPartition, Errors>> answer : sent) {
                for (Map.Entry<TopicPartition, Errors> result : answer.join().entrySet()) {
                    Errors error = result.getValue();
                    if (error == Errors.NONE) {
                        remaining.remove(result.getKey());
                    } else if (error == Errors.INVALID_PRODUCER_EPOCH
                            || error == Errors.TRANSACTION_COORDINATOR_FENCED) {
                        LOG.warn("The {} marker of '{}' (producer {} epoch {}) was refused by {}: {}", kind(ending),
                                ending.transactionalId(), ending.producerId(), ending.producerEpoch(), result.getKey(),
                                error);
                        stale = true;
                    }
                }
            }
            if (stale) {
                done.complete(false);
            } else if (remaining.isEmpty()) {
                done.complete(true);
            } else {
                scheduler.schedule(() -> round(ending, coordinatorEpoch, remaining, stillCoordinator, done),
                        RETRY_BACKOFF_MS, TimeUnit.MILLISECONDS);
            }
        });
    }

    private CompletableFuture<Map<TopicPartition, Errors>> writeHere(TransactionMetadata ending, int coordinatorEpoch,
                                                                     List<TopicPartition> led) {
        Map<TopicPartition, Errors> results = new ConcurrentHashMap<>();
        List<CompletableFuture<?>> writes = new ArrayList<>();
        for (TopicPartition topicPartition : led) {
            Partition partition = partitions.get(topicPartition.topic(), topicPartition.partition());
            if (partition == null || !partitions.leads(partition)) {
                results.put(topicPartition, Errors.NOT_LEADER_OR_FOLLOWER);
                continue;
            }
            writes.add(appenders.of(partition).appendTxnMarker(ending.producerId(), ending.producerEpoch(),
                    coordinatorEpoch, ending.state() == TransactionState.PREPARE_COMMIT,
                    ending.clientTransactionVersion(), WriteTxnMarkersHandler.TIMEOUT_MS)
                    .handle((error, failure) -> results.put(topicPartition,
                            failure != null || error == null ? Errors.UNKNOWN_SERVER_ERROR : error)));
        }
        return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).thenApply(done -> results);
    }

    private CompletableFuture<Map<TopicPartition, Errors>> send(int leader, MetadataImage image,
                                                                TransactionMetadata ending, int coordinatorEpoch,
                                                                List<TopicPartition> led) {
        Map<TopicPartition, Errors> failed = new HashMap<>();
        led.forEach(partition -> failed.put(partition, Errors.NOT_LEADER_OR_FOLLOWER));
        ClusterView.BrokerNode broker = clients == null ? null : ClusterView.of("", -1, image).broker(leader);
        if (broker == null) {
            return CompletableFuture.completedFuture(failed); // no leader now, or fenced: the next round asks again
        }
        Map<String, List<Integer>> byTopic = new HashMap<>();
        led.forEach(partition -> byTopic.computeIfAbsent(partition.topic(), topic -> new ArrayList<>())
                .add(partition.partition()));
        List<WritableTxnMarkerTopic> topics = new ArrayList<>();
        byTopic.forEach((topic, indexes) -> topics.add(new WritableTxnMarkerTopic().setName(topic)
                .setPartitionIndexes(indexes)));
        WriteTxnMarkersRequestData request = new WriteTxnMarkersRequestData().setMarkers(List.of(new WritableTxnMarker()
                .setProducerId(ending.producerId()).setProducerEpoch(ending.producerEpoch())
                .setTransactionResult(ending.state() == TransactionState.PREPARE_COMMIT)
                .setCoordinatorEpoch(coordinatorEpoch).setTransactionVersion((byte) ending.clientTransactionVersion())
                .setTopics(topics)));
        return clients.connection(broker.addressOn(clients.listenerName()), "txn-markers")
                .<WriteTxnMarkersResponseData>send(ApiKey.WRITE_TXN_MARKERS, WRITE_TXN_MARKERS_VERSION, request)
                .handle((response, failure) -> {
                    if (failure != null) {
                        LOG.debug("WriteTxnMarkers to broker {} failed: {}", leader, failure.toString());
                        return failed;
                    }
                    Map<TopicPartition, Errors> results = new HashMap<>(failed);
                    for (WritableTxnMarkerTopicResult topic : response.markers().get(0).topics()) {
                        for (WritableTxnMarkerPartitionResult partition : topic.partitions()) {
                            results.put(new TopicPartition(topic.name(), partition.partitionIndex()),
                                    Errors.forCode(partition.errorCode()));
                        }
                    }
                    return results;
                });
    }

    private static String kind(TransactionMetadata ending) {
        return ending.state() == TransactionState.PREPARE_COMMIT ? "COMMIT" : "ABORT";
    }
}

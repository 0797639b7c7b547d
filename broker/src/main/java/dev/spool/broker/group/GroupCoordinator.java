package dev.spool.broker.group;

import dev.spool.broker.coordinator.CoordinatorRuntime;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.MetadataListener;
import dev.spool.broker.metadata.MetadataManager;
import dev.spool.broker.metadata.TopicCreator;
import dev.spool.broker.metadata.TopicImage;
import dev.spool.broker.partition.PartitionManager;
import dev.spool.log.LogClock;
import dev.spool.log.TopicPartition;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.CreateTopicsRequestData.CreatableTopic;
import dev.spool.protocol.message.CreateTopicsRequestData.CreatableTopicConfig;
import dev.spool.protocol.message.CreateTopicsResponseData.CreatableTopicResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The group coordinator of this broker: one {@link GroupCoordinatorShard} per partition of
 * {@code __consumer_offsets} this broker leads, run by a {@link CoordinatorRuntime} (loaded when the
 * partition's leadership comes here, unloaded when it leaves). It creates the topic on first use (50
 * partitions, compacted) through the metadata controller like any topic. A group belongs to partition
 * {@code (groupId.hashCode() & 0x7fffffff) % partitions}, the rule Kafka's clients and tools assume.
 *
 * <p>Thread-safe: a shard's operations and timers run on its runtime thread, so the state machines need
 * no locks; callers get futures and never block.
 */
public final class GroupCoordinator implements MetadataListener, AutoCloseable {

    public static final String TOPIC = "__consumer_offsets";

    private final GroupSettings settings;
    private final CoordinatorRuntime<GroupCoordinatorShard> runtime;
    private final MetadataManager metadata;
    private final TopicCreator topics;
    private final PartitionManager partitions;
    private final LogClock clock;

    /**
     * The coordinator of the broker {@code partitions} belongs to (it loads the shards that broker leads), its shards on
     * {@code threads} threads (group.coordinator.threads).
     */
    public GroupCoordinator(GroupSettings settings, int threads, MetadataManager metadata,
                            TopicCreator topics, PartitionManager partitions, LogClock clock) {
        this.settings = settings;
        this.runtime = new CoordinatorRuntime<>("group", threads);
        this.metadata = metadata;
        this.topics = topics;
        this.partitions = partitions;
        this.clock = clock;
        runtime.forEachLoadedEvery(settings.offsetsRetentionCheckIntervalMs(),
                shard -> shard.offsetCommits().expireOffsets());
    }

    /** Whether the consumer group protocol (KIP-848) is served: ConsumerGroupHeartbeat is then advertised. */
    public boolean servesConsumerProtocol() {
        return settings.consumer().enabled();
    }

    /** The partition of {@code __consumer_offsets} that holds a group. */
    public int partitionFor(String groupId) {
        TopicImage topic = metadata.image().topic(TOPIC);
        int count = topic == null ? settings.numPartitions() : topic.partitions().size();
        return partitionFor(groupId, count);
    }

    static int partitionFor(String groupId, int partitionCount) {
        // Kafka's Utils.abs: masks the sign bit, so Integer.MIN_VALUE maps to 0 rather than staying negative.
        return (groupId.hashCode() & 0x7fffffff) % partitionCount;
    }

    /** Creates {@code __consumer_offsets} unless it exists; completes once its shards are being loaded. */
    public CompletableFuture<Void> ensureTopic() {
        if (metadata.image().topic(TOPIC) != null) {
            return CompletableFuture.completedFuture(null);
        }
        return topics.create(List.of(offsetsTopic())).thenAccept(results -> {
                    for (CreatableTopicResult result : results) {
                        if (result.errorCode() != Errors.NONE.code()
                                && result.errorCode() != Errors.TOPIC_ALREADY_EXISTS.code()) {
                            throw new IllegalStateException("cannot create " + TOPIC + ": error " + result.errorCode()
                                    + " " + result.errorMessage());
                        }
                    }
                });
    }

    private CreatableTopic offsetsTopic() {
        List<CreatableTopicConfig> configs = new ArrayList<>();
        configs.add(new CreatableTopicConfig().setName("cleanup.policy").setValue("compact"));
        configs.add(new CreatableTopicConfig().setName("compression.type").setValue("producer"));
        configs.add(new CreatableTopicConfig().setName("segment.bytes").setValue(String.valueOf(settings.segmentBytes())));
        return new CreatableTopic().setName(TOPIC).setNumPartitions(settings.numPartitions())
                .setReplicationFactor(replicationFactor()).setConfigs(configs);
    }

    /**
     * offsets.topic.replication.factor, capped at the brokers that are up when the topic is created (a cluster of
     * one has one replica; Kafka's default of 3 would make the groups of a smaller cluster unavailable).
     */
    private short replicationFactor() {
        long live = metadata.image().brokers().values().stream().filter(broker -> !broker.fenced()).count();
        return (short) Math.max(1, Math.min(settings.replicationFactor(), live));
    }

    /**
     * Follows the leadership of {@code __consumer_offsets}' partitions: a shard is loaded where this broker
     * became the leader and unloaded where it no longer is (or the topic is gone); offsets of deleted
     * topics are removed from every shard.
     */
    @Override
    public void onImage(MetadataImage previous, MetadataImage current) {
        Set<String> deleted = new HashSet<>();
        for (TopicImage before : previous.topics()) {
            if (current.topic(before.id()) == null && !before.name().equals(TOPIC)) {
                deleted.add(before.name());
            }
        }
        if (!deleted.isEmpty()) {
            runtime.forEachLoaded(shard -> shard.offsetCommits().deleteOffsetsOfTopics(deleted));
        }
        runtime.followLeadership(TOPIC, previous, current, partitions, (index, partition, epoch, timer) ->
                new GroupCoordinatorShard(index, new PartitionCoordinatorLog(partition, epoch, clock), timer,
                        clock::nowMs, settings, name -> metadata.image().topic(name),
                        () -> metadata.image().topics()));
    }

    /**
     * A transaction marker was written to {@code partition} (if it is one of {@code __consumer_offsets}): the offsets
     * the producer's transaction committed there now count, or are dropped if it aborted.
     */
    public void onTransactionCompleted(TopicPartition partition, long producerId, boolean commit) {
        if (!partition.topic().equals(TOPIC)) {
            return;
        }
        runtime.call(partition.partition(), shard -> {
            shard.completeTransaction(producerId, commit);
            return CompletableFuture.completedFuture(null);
        }, error -> null);
    }

    /**
     * Runs {@code operation} on the shard of {@code groupId}, on its thread, and answers once what it wrote
     * is committed; if the shard is missing or still loading, answers {@code onError} with
     * COORDINATOR_NOT_AVAILABLE (no {@code __consumer_offsets} yet), NOT_COORDINATOR or
     * COORDINATOR_LOAD_IN_PROGRESS instead.
     */
    <T> CompletableFuture<T> call(String groupId, Function<GroupCoordinatorShard, CompletableFuture<T>> operation,
                                  Function<Errors, T> onError) {
        return runtime.call(partitionFor(groupId == null ? "" : groupId), operation,
                error -> onError.apply(error == Errors.NOT_COORDINATOR && metadata.image().topic(TOPIC) == null
                        ? Errors.COORDINATOR_NOT_AVAILABLE : error));
    }

    /** Runs {@code operation} on every loaded shard, each on its thread, and gathers the results. */
    <T> CompletableFuture<List<T>> callAll(Function<GroupCoordinatorShard, T> operation) {
        return runtime.callAll(operation);
    }

    @Override
    public void close() {
        runtime.close();
    }
}

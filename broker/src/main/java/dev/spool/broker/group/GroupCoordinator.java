package dev.spool.broker.group;

import dev.spool.broker.metadata.MetadataChange;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.MetadataListener;
import dev.spool.broker.metadata.MetadataManager;
import dev.spool.broker.metadata.TopicController;
import dev.spool.broker.metadata.TopicImage;
import dev.spool.broker.partition.Partition;
import dev.spool.broker.partition.PartitionManager;
import dev.spool.log.LogClock;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.CreateTopicsRequestData.CreatableTopic;
import dev.spool.protocol.message.CreateTopicsRequestData.CreatableTopicConfig;
import dev.spool.protocol.message.CreateTopicsResponseData.CreatableTopicResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The group coordinator of this broker: one {@link GroupCoordinatorShard} per partition of
 * {@code __consumer_offsets}, which it creates on first use (50 partitions, compacted) through the
 * metadata controller like any topic. A group belongs to partition
 * {@code (groupId.hashCode() & 0x7fffffff) % partitions}, the rule Kafka's clients and tools assume.
 *
 * <p>Thread-safe: every shard operation, timer and load runs on one coordinator thread, so the state
 * machines need no locks; callers get futures and never block. Design note: one thread is plenty for
 * the coordinator's load on one broker (appends without fsync unless flush.messages says so); a pool
 * of threads each owning some shards is the step up if it ever is not.
 */
public final class GroupCoordinator implements MetadataListener, AutoCloseable {

    public static final String TOPIC = "__consumer_offsets";
    private static final Logger LOG = LoggerFactory.getLogger(GroupCoordinator.class);

    private final GroupSettings settings;
    private final MetadataManager metadata;
    private final TopicController topics;
    private final PartitionManager partitions;
    private final LogClock clock;
    private final ScheduledExecutorService thread;
    private final CoordinatorTimer timer;
    /** Owned by the coordinator thread. */
    private final Map<Integer, GroupCoordinatorShard> shards = new HashMap<>();

    public GroupCoordinator(GroupSettings settings, MetadataManager metadata, TopicController topics,
                            PartitionManager partitions, LogClock clock) {
        this.settings = settings;
        this.metadata = metadata;
        this.topics = topics;
        this.partitions = partitions;
        this.clock = clock;
        this.thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread worker = new Thread(runnable, "spool-group-coordinator");
            worker.setDaemon(true);
            return worker;
        });
        this.timer = new ScheduledCoordinatorTimer(thread);
        long intervalMs = settings.offsetsRetentionCheckIntervalMs();
        thread.scheduleWithFixedDelay(this::expireOffsets, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
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
        return metadata.submit(image -> image.topic(TOPIC) != null
                        ? MetadataChange.<List<CreatableTopicResult>>none(List.of())
                        : topics.createTopics(image, List.of(offsetsTopic()), false))
                .thenAccept(results -> {
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
                .setReplicationFactor(settings.replicationFactor()).setConfigs(configs);
    }

    @Override
    public void onImage(MetadataImage previous, MetadataImage current) {
        Set<String> deleted = new HashSet<>();
        for (TopicImage before : previous.topics()) {
            if (current.topic(before.id()) == null && !before.name().equals(TOPIC)) {
                deleted.add(before.name());
            }
        }
        if (!deleted.isEmpty()) {
            thread.execute(() -> deleteOffsetsOfTopics(deleted));
        }
        TopicImage topic = current.topic(TOPIC);
        if (topic == null) {
            if (previous.topic(TOPIC) != null) {
                thread.execute(shards::clear);
            }
            return;
        }
        TopicImage before = previous.topic(TOPIC);
        for (int index : topic.partitions().keySet()) {
            if (before == null || !before.id().equals(topic.id()) || before.partition(index) == null) {
                Partition partition = partitions.get(TOPIC, index);
                if (partition != null) {
                    thread.execute(() -> load(index, partition));
                }
            }
        }
    }

    private void load(int index, Partition partition) {
        GroupCoordinatorShard shard = new GroupCoordinatorShard(index, new PartitionCoordinatorLog(partition, clock),
                timer, clock::nowMs, settings);
        shards.put(index, shard);
        try {
            shard.load();
        } catch (IOException | RuntimeException e) {
            shards.remove(index);
            LOG.error("Cannot load the groups of {}-{}; its groups get COORDINATOR_NOT_AVAILABLE", TOPIC, index, e);
        }
    }

    /**
     * Runs {@code operation} on the shard of {@code groupId}, on the coordinator thread; if the shard
     * is missing or still loading, answers {@code onError} with NOT_COORDINATOR /
     * COORDINATOR_LOAD_IN_PROGRESS instead.
     */
    <T> CompletableFuture<T> call(String groupId, Function<GroupCoordinatorShard, CompletableFuture<T>> operation,
                                         Function<Errors, T> onError) {
        int index = partitionFor(groupId == null ? "" : groupId);
        return CompletableFuture.supplyAsync(() -> {
            GroupCoordinatorShard shard = shards.get(index);
            if (shard == null) {
                return CompletableFuture.completedFuture(onError.apply(metadata.image().topic(TOPIC) == null
                        ? Errors.COORDINATOR_NOT_AVAILABLE : Errors.NOT_COORDINATOR));
            }
            if (!shard.isLoaded()) {
                return CompletableFuture.completedFuture(onError.apply(Errors.COORDINATOR_LOAD_IN_PROGRESS));
            }
            return operation.apply(shard);
        }, thread).thenCompose(Function.identity());
    }

    /** Runs {@code operation} on every loaded shard, on the coordinator thread, and gathers the results. */
    <T> CompletableFuture<List<T>> callAll(Function<GroupCoordinatorShard, T> operation) {
        return CompletableFuture.supplyAsync(() -> {
            List<T> results = new ArrayList<>();
            for (GroupCoordinatorShard shard : shards.values()) {
                if (shard.isLoaded()) {
                    results.add(operation.apply(shard));
                }
            }
            return results;
        }, thread);
    }

    private void deleteOffsetsOfTopics(Set<String> deleted) {
        for (GroupCoordinatorShard shard : shards.values()) {
            if (shard.isLoaded()) {
                shard.offsetCommits().deleteOffsetsOfTopics(deleted);
            }
        }
    }

    private void expireOffsets() {
        for (GroupCoordinatorShard shard : shards.values()) {
            if (shard.isLoaded()) {
                try {
                    shard.offsetCommits().expireOffsets();
                } catch (RuntimeException e) {
                    LOG.error("Offset expiry of {} failed", shard, e);
                }
            }
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
        try {
            if (!thread.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("The group coordinator thread did not stop within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

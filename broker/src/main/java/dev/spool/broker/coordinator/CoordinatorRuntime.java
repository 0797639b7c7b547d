package dev.spool.broker.coordinator;

import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.PartitionImage;
import dev.spool.broker.metadata.TopicImage;
import dev.spool.broker.partition.Partition;
import dev.spool.broker.partition.PartitionManager;
import dev.spool.protocol.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a coordinator whose state lives in the partitions of an internal topic ({@code __consumer_offsets},
 * later {@code __transaction_state}): one {@link CoordinatorShard} per partition this broker leads,
 * loaded by replaying the partition when it becomes the leader and unloaded when it stops being one.
 * Each shard lives on one of a few threads (partition modulo thread count), which runs all its
 * operations and timers one at a time; shards on different threads run in parallel.
 *
 * <p>An operation may write records (appended to the shard's partition and applied at once), and its
 * answer is held until everything the shard had written when the answer was ready is committed, below
 * the partition's high watermark: with followers, a client never hears of state that a leader change
 * can still take back. A shard unloaded before that answers NOT_COORDINATOR; the next leader rebuilds
 * the state from what was committed. (On one broker the high watermark moves with each append, so no
 * answer waits.)
 *
 * <p>Thread-safe. A shard that fails to load stays failed (NOT_COORDINATOR) until a new leader epoch.
 */
public final class CoordinatorRuntime<S extends CoordinatorShard> implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorRuntime.class);
    private static final long CLOSE_TIMEOUT_MS = 10_000;

    private final String name;
    private final ShardThread[] threads;
    private final Map<Integer, ShardSlot<S>> slots = new ConcurrentHashMap<>();
    /** Guarded by this: once set, nothing is loaded or unloaded any more. */
    private boolean closed;

    /** {@code name} names the threads ({@code spool-<name>-coordinator-<i>}). */
    public CoordinatorRuntime(String name, int threadCount) {
        if (threadCount < 1) {
            throw new IllegalArgumentException("a coordinator needs at least one thread, not " + threadCount);
        }
        this.name = name;
        this.threads = new ShardThread[threadCount];
        for (int i = 0; i < threadCount; i++) {
            threads[i] = new ShardThread("spool-" + name + "-coordinator-" + i);
        }
    }

    private ShardThread threadFor(int partition) {
        return threads[Math.floorMod(partition, threads.length)];
    }

    /**
     * This broker leads {@code partition} at {@code leaderEpoch}: loads its shard (made by {@code create}
     * with the shard's timer) unless one was loaded (or failed to load) at this epoch already; a shard of an
     * older epoch is unloaded and the partition replayed anew.
     */
    public synchronized void scheduleLoad(int partition, int leaderEpoch, CommitWatermark watermark,
                                          Function<CoordinatorTimer, S> create) {
        if (closed) {
            return;
        }
        ShardSlot<S> existing = slots.get(partition);
        if (existing != null) {
            if (existing.leaderEpoch() >= leaderEpoch) {
                return; // loaded (or failed to load: retried only at a new epoch) for this leadership already
            }
            // A newer epoch: the leadership moved and came back meanwhile; what the other leader wrote is replayed.
            slots.remove(partition, existing);
            existing.thread().execute(existing::unload);
        }
        ShardThread thread = threadFor(partition);
        ShardSlot<S> slot = new ShardSlot<>(partition, leaderEpoch, thread, watermark);
        slots.put(partition, slot);
        thread.execute(() -> slot.load(create));
    }

    /**
     * This broker no longer leads {@code partition} as of {@code leaderEpoch} ({@link Integer#MAX_VALUE}:
     * whatever the epoch, as when the topic is deleted): unloads the shard loaded at that epoch or before.
     */
    public synchronized void scheduleUnload(int partition, int leaderEpoch) {
        if (closed) {
            return;
        }
        ShardSlot<S> slot = slots.get(partition);
        if (slot == null || slot.leaderEpoch() > leaderEpoch) {
            return;
        }
        slots.remove(partition, slot);
        slot.thread().execute(slot::unload);
    }

    /** Makes the shard of a partition this broker leads (on the shard's thread, before its load). */
    @FunctionalInterface
    public interface ShardFactory<S> {
        S create(int partition, Partition led, int leaderEpoch, CoordinatorTimer timer);
    }

    /**
     * Follows the leadership of {@code topicName}'s partitions from {@code previous} to {@code current}: a shard is
     * loaded where this broker became the leader and unloaded where it no longer is; all are unloaded when the topic
     * is gone or was created anew.
     */
    public void followLeadership(String topicName, MetadataImage previous, MetadataImage current,
                                 PartitionManager partitions, ShardFactory<S> factory) {
        TopicImage topic = current.topic(topicName);
        TopicImage before = previous.topic(topicName);
        if (before != null && (topic == null || !before.id().equals(topic.id()))) {
            for (int index : hostedPartitions()) {
                scheduleUnload(index, Integer.MAX_VALUE);
            }
        }
        if (topic == null) {
            return;
        }
        for (PartitionImage image : topic.partitions().values()) {
            int index = image.partition();
            Partition partition = partitions.leads(image) ? partitions.get(topicName, index) : null;
            if (partition != null) {
                int epoch = image.leaderEpoch();
                scheduleLoad(index, epoch, new PartitionCommitWatermark(partition, epoch),
                        timer -> factory.create(index, partition, epoch, timer));
            } else {
                scheduleUnload(index, image.leaderEpoch());
            }
        }
    }

    /**
     * On the thread of {@code partition}'s shard: runs {@code task} there once everything the shard has written so
     * far is committed (below the partition's high watermark); never if the shard is unloaded first.
     */
    public void afterCommit(int partition, Runnable task) {
        ShardSlot<S> slot = slots.get(partition);
        if (slot != null) {
            slot.afterCommit(task, () -> { });
        }
    }

    /** The partitions whose shard is loaded or loading. */
    public List<Integer> hostedPartitions() {
        return List.copyOf(new TreeMap<>(slots).keySet());
    }

    /**
     * Runs {@code operation} on the shard of {@code partition}, on its thread, and answers once what it
     * wrote is committed. Without a shard the answer is {@code onError} of NOT_COORDINATOR (still loading:
     * COORDINATOR_LOAD_IN_PROGRESS; unloaded before the commit: NOT_COORDINATOR).
     */
    public <T> CompletableFuture<T> call(int partition, Function<S, CompletableFuture<T>> operation,
                                        Function<Errors, T> onError) {
        CompletableFuture<T> answer = new CompletableFuture<>();
        ShardThread thread = threadFor(partition);
        Runnable lost = () -> answer.complete(onError.apply(Errors.NOT_COORDINATOR));
        boolean queued = thread.tryExecute(() -> {
            ShardSlot<S> slot = slots.get(partition);
            if (slot == null || !slot.isActive()) {
                answer.complete(onError.apply(slot != null && slot.isLoading()
                        ? Errors.COORDINATOR_LOAD_IN_PROGRESS : Errors.NOT_COORDINATOR));
                return;
            }
            CompletableFuture<T> result;
            try {
                result = Objects.requireNonNull(operation.apply(slot.shard()), "an operation answered null");
            } catch (Throwable e) {
                LOG.error("An operation on {} failed", slot.shard(), e);
                answer.completeExceptionally(e);
                return;
            }
            result.whenComplete((value, error) -> {
                Runnable deliver = () -> slot.afterCommit(() -> {
                    if (error != null) {
                        answer.completeExceptionally(error);
                    } else {
                        answer.complete(value);
                    }
                }, lost);
                if (!thread.tryRun(deliver)) {
                    lost.run(); // the runtime is closed
                }
            });
        });
        if (!queued) {
            lost.run();
        }
        return answer;
    }

    /**
     * Runs {@code operation} on every loaded shard, each on its thread, and gathers the results in partition
     * order once what each shard wrote before is committed; a shard unloaded meanwhile is left out.
     */
    public <T> CompletableFuture<List<T>> callAll(Function<S, T> operation) {
        List<CompletableFuture<List<T>>> perShard = new ArrayList<>();
        for (ShardSlot<S> slot : new TreeMap<>(slots).values()) {
            CompletableFuture<List<T>> result = new CompletableFuture<>();
            perShard.add(result);
            boolean queued = slot.thread().tryExecute(() -> {
                if (!slot.isActive()) {
                    result.complete(List.of());
                    return;
                }
                try {
                    T value = operation.apply(slot.shard());
                    slot.afterCommit(() -> result.complete(List.of(value)), () -> result.complete(List.of()));
                } catch (Throwable e) {
                    result.completeExceptionally(e);
                }
            });
            if (!queued) {
                result.complete(List.of());
            }
        }
        return CompletableFuture.allOf(perShard.toArray(CompletableFuture[]::new)).thenApply(done -> {
            List<T> results = new ArrayList<>();
            for (CompletableFuture<List<T>> result : perShard) {
                results.addAll(result.join());
            }
            return results;
        });
    }

    /** Runs {@code task} on every loaded shard, on its thread; a failure is logged. */
    public void forEachLoaded(Consumer<S> task) {
        for (ShardSlot<S> slot : slots.values()) {
            slot.thread().tryExecute(() -> {
                if (slot.isActive()) {
                    try {
                        task.accept(slot.shard());
                    } catch (RuntimeException e) {
                        LOG.error("A task of {} failed", slot.shard(), e);
                    }
                }
            });
        }
    }

    /** Runs {@link #forEachLoaded} with {@code task} every {@code intervalMs}, first after one interval. */
    public void forEachLoadedEvery(long intervalMs, Consumer<S> task) {
        threads[0].executor().scheduleWithFixedDelay(() -> forEachLoaded(task), intervalMs, intervalMs,
                TimeUnit.MILLISECONDS);
    }

    /** Unloads every shard (parked requests hear NOT_COORDINATOR) and stops the threads. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            for (ShardSlot<S> slot : slots.values()) {
                slot.thread().execute(slot::unload);
            }
            slots.clear();
            closed = true;
        }
        for (ShardThread thread : threads) {
            thread.shutdown();
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_TIMEOUT_MS);
        try {
            for (ShardThread thread : threads) {
                if (!thread.awaitTermination(deadline)) {
                    LOG.warn("A {} coordinator thread did not stop within {} ms", name, CLOSE_TIMEOUT_MS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

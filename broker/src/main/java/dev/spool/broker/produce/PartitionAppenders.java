package dev.spool.broker.produce;

import dev.spool.broker.partition.Partition;
import dev.spool.broker.partition.PartitionManager;
import dev.spool.broker.purgatory.WaitTimer;
import dev.spool.log.LogClock;
import dev.spool.log.TopicPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thread-safe: the {@link PartitionAppender} of each partition that has been produced to or described,
 * and the pool of {@code num.io.threads} threads for the work they do not do on the network threads
 * (see {@link PartitionAppender#append}). A partition object replaced by
 * the partition manager (topic deleted and created again) gets a fresh appender; appenders of
 * partitions no longer hosted are dropped by a periodic check.
 * {@link #close()} lets the queued appends finish and refuses later ones; close it before the logs, which
 * then write their producer snapshots.
 */
public final class PartitionAppenders implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionAppenders.class);
    private static final long CLOSE_TIMEOUT_SECONDS = 30;

    private final PartitionManager partitions;
    private final ExecutorService ioThreads;
    private final LogClock clock;
    private final WaitTimer waits;
    private final Map<TopicPartition, PartitionAppender> appenders = new ConcurrentHashMap<>();
    private volatile TxnMarkerListener markerListener = TxnMarkerListener.NONE;

    /** Appenders whose acks=all answers wait for their commit on {@code waits}. */
    public PartitionAppenders(PartitionManager partitions, int ioThreadCount, LogClock clock, WaitTimer waits) {
        this.partitions = partitions;
        this.waits = waits;
        AtomicInteger threadNumber = new AtomicInteger();
        this.ioThreads = Executors.newFixedThreadPool(ioThreadCount, runnable -> {
            Thread thread = new Thread(runnable, "spool-io-" + threadNumber.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.clock = clock;
    }

    /** The appender of {@code partition}, created on first use. */
    public PartitionAppender of(Partition partition) {
        PartitionAppender appender = appenders.get(partition.topicPartition());
        if (appender != null && appender.partition() == partition) {
            return appender;
        }
        return appenders.compute(partition.topicPartition(), (key, existing) ->
                existing != null && existing.partition() == partition ? existing
                        : new PartitionAppender(partition, partitions::leads, new SerialExecutor(ioThreads), clock,
                                waits, (topicPartition, producerId, commit) ->
                                        markerListener.onMarker(topicPartition, producerId, commit)));
    }

    /** {@code listener} is told of every transaction marker written here from now on. */
    public void onTxnMarkers(TxnMarkerListener listener) {
        this.markerListener = listener;
    }

    /** Every {@code intervalMs}, drops the appenders of partitions no longer hosted (their topic was deleted). */
    public void scheduleRemovalOfUnhosted(ScheduledExecutorService scheduler, long intervalMs) {
        scheduler.scheduleWithFixedDelay(this::removeUnhosted, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
    }

    void removeUnhosted() {
        for (PartitionAppender appender : appenders.values()) {
            if (!isHosted(appender)) {
                appenders.remove(appender.partition().topicPartition(), appender);
            }
        }
    }

    private boolean isHosted(PartitionAppender appender) {
        Partition partition = appender.partition();
        return partitions.get(partition.topicPartition().topic(), partition.topicPartition().partition()) == partition;
    }

    @Override
    public void close() {
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        for (PartitionAppender appender : appenders.values()) {
            if (isHosted(appender)) {
                closing.add(appender.close());
            }
        }
        try {
            CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new))
                    .get(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            LOG.error("The appends queued at shutdown did not all complete", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        ioThreads.shutdown();
    }
}

package dev.spool.log.cleaner;

import dev.spool.log.IoErrorReporter;
import dev.spool.log.LogClock;
import dev.spool.log.PartitionLog;
import dev.spool.log.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Thread-safe: compacts the logs whose cleanup.policy includes compact, on {@code log.cleaner.threads}
 * daemon threads. Each thread repeatedly picks the dirtiest eligible log not being cleaned by another
 * ({@link LogToClean#isCleanable()}: dirty ratio above min.cleanable.dirty.ratio, past
 * max.compaction.lag.ms first, or holding tombstones past their delete horizon), cleans it with its own {@link Cleaner}, and writes the new first dirty
 * offset to {@code cleaner-offset-checkpoint}; when no log qualifies it waits {@code log.cleaner.backoff.ms}.
 * A policy change needs no restart: every pick reads the log's current config.
 */
public final class LogCleaner implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LogCleaner.class);

    private final CleanerConfig config;
    private final Supplier<Map<TopicPartition, PartitionLog>> logs;
    private final LogClock clock;
    private final CleanerCheckpoints checkpoints;
    private final CleanerStats stats = new CleanerStats();
    private final IoErrorReporter ioErrors;
    private final List<Thread> threads = new ArrayList<>();
    /** Partitions being cleaned -> whether their cleaning should stop; guarded by this. */
    private final Map<TopicPartition, Boolean> inProgress = new HashMap<>();
    /** Partitions that may not be picked (being deleted); guarded by this. */
    private final Set<TopicPartition> paused = new HashSet<>();
    /** Earliest delete horizon of the tombstones each log's last cleaning kept (in memory only); guarded by this. */
    private final Map<TopicPartition, Long> tombstoneHorizons = new HashMap<>();
    private volatile boolean stopping;

    /**
     * A cleaner over the logs {@code logs} returns (called at every pick) whose directories are in
     * {@code logDirs}; reads their cleaner-offset-checkpoint files. Threads start with {@link #start()}.
     */
    public LogCleaner(CleanerConfig config, List<Path> logDirs, Supplier<Map<TopicPartition, PartitionLog>> logs,
                      LogClock clock) throws IOException {
        this(config, logDirs, logs, clock, IoErrorReporter.NONE);
    }

    /** As above; the I/O errors of a cleaning (but an {@link UncleanableLogException}) go to {@code ioErrors}. */
    public LogCleaner(CleanerConfig config, List<Path> logDirs, Supplier<Map<TopicPartition, PartitionLog>> logs,
                      LogClock clock, IoErrorReporter ioErrors) throws IOException {
        this.ioErrors = ioErrors;
        this.config = config;
        this.logs = logs;
        this.clock = clock;
        this.checkpoints = new CleanerCheckpoints(logDirs);
    }

    /** Starts the cleaner threads (none if log.cleaner.enable is false). */
    public synchronized void start() {
        if (!config.enabled() || !threads.isEmpty()) {
            return;
        }
        for (int i = 0; i < config.threads(); i++) {
            Cleaner cleaner = new Cleaner(config.dedupeBytesPerThread(), clock);
            Thread thread = new Thread(() -> run(cleaner), "log-cleaner-" + i);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
        LOG.info("Log cleaner started: {} threads, {} bytes of offset map each", config.threads(),
                config.dedupeBytesPerThread());
    }

    public CleanerStats stats() {
        return stats;
    }

    private void run(Cleaner cleaner) {
        while (!stopping) {
            boolean cleaned;
            try {
                cleaned = cleanDirtiest(cleaner);
            } catch (RuntimeException e) {
                LOG.error("Log cleaner thread failed a round; retrying after the backoff", e);
                cleaned = false;
            }
            if (!cleaned) {
                synchronized (this) {
                    if (stopping) {
                        return;
                    }
                    try {
                        wait(Math.max(1, config.backoffMs()));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        }
    }

    /**
     * Picks the dirtiest eligible log and cleans it on the calling thread with {@code cleaner}. Returns
     * false if no log needed cleaning or the cleaning was aborted or failed (logged and counted in stats).
     */
    boolean cleanDirtiest(Cleaner cleaner) {
        LogToClean target = pick();
        if (target == null) {
            return false;
        }
        TopicPartition partition = target.partition();
        Path logDir = target.log().dir().getParent();
        try {
            CleaningResult result = cleaner.clean(target, () -> abortRequested(partition));
            checkpoints.update(logDir, partition, result.nextDirtyOffset());
            synchronized (this) {
                tombstoneHorizons.put(partition, result.earliestTombstoneHorizonMs());
            }
            stats.onCleaned(result);
            LOG.info("Cleaned {}: {} -> {} bytes in {} ms ({} passes, dirty ratio {})", partition, result.bytesRead(),
                    result.bytesWritten(), result.elapsedMs(), result.passes(), String.format("%.2f", result.dirtyRatio()));
            return true;
        } catch (CleaningAbortedException e) {
            stats.onAborted();
            LOG.info("Cleaning of {} aborted: {}", partition, e.getMessage());
            return false;
        } catch (UncleanableLogException | RuntimeException e) {
            stats.onFailed();
            LOG.error("Cleaning of {} failed", partition, e);
            return false;
        } catch (IOException e) {
            stats.onFailed();
            LOG.error("Cleaning of {} failed", partition, e);
            ioErrors.onIoError(logDir, e);
            return false;
        } finally {
            synchronized (this) {
                inProgress.remove(partition);
                notifyAll();
            }
        }
    }

    private synchronized LogToClean pick() {
        if (stopping) {
            return null;
        }
        long nowMs = clock.nowMs();
        LogToClean best = null;
        for (Map.Entry<TopicPartition, PartitionLog> entry : logs.get().entrySet()) {
            TopicPartition partition = entry.getKey();
            PartitionLog log = entry.getValue();
            if (!log.config().compact || inProgress.containsKey(partition) || paused.contains(partition)) {
                continue;
            }
            LogToClean candidate;
            try {
                candidate = LogToClean.of(partition, log, firstDirtyAfterTruncation(partition, log),
                        tombstoneHorizons.getOrDefault(partition, Long.MAX_VALUE), nowMs);
            } catch (IOException e) {
                LOG.warn("Cannot weigh {} for cleaning: {}", partition, e.toString()); // its dir failed: reported
                continue;
            }
            if (candidate.isCleanable() && (best == null || rank(candidate) > rank(best))) {
                best = candidate;
            }
        }
        if (best != null) {
            inProgress.put(best.partition(), Boolean.FALSE);
        }
        return best;
    }

    /** The checkpointed first dirty offset, moved back to where a truncation cut the log below it. */
    private long firstDirtyAfterTruncation(TopicPartition partition, PartitionLog log) {
        Path logDir = log.dir().getParent();
        long firstDirty = checkpoints.get(logDir, partition);
        long truncatedTo = log.takeLowestTruncationOffset();
        if (truncatedTo < firstDirty) {
            firstDirty = truncatedTo;
            try {
                checkpoints.update(logDir, partition, truncatedTo);
            } catch (IOException e) {
                // the lower offset is kept in memory and written with the next successful update
                LOG.error("Cannot write the cleaner checkpoint of {} after a truncation to {}", partition, truncatedTo, e);
                ioErrors.onIoError(logDir, e);
            }
        }
        return firstDirty;
    }

    /** Overdue logs (max.compaction.lag.ms) first, then by dirty ratio. */
    private static double rank(LogToClean log) {
        return (log.overdue() ? 1.0 : 0.0) + log.dirtyRatio();
    }

    private synchronized boolean abortRequested(TopicPartition partition) {
        return stopping || Boolean.TRUE.equals(inProgress.get(partition));
    }

    /**
     * Stops any cleaning of {@code partition}, waits for it to end, and keeps the partition from being
     * picked until {@link #resume}; for deleting or truncating a log.
     */
    public synchronized void abortAndPause(TopicPartition partition) throws InterruptedException {
        paused.add(partition);
        if (inProgress.containsKey(partition)) {
            inProgress.put(partition, Boolean.TRUE);
        }
        while (inProgress.containsKey(partition)) {
            wait();
        }
    }

    public synchronized void resume(TopicPartition partition) {
        paused.remove(partition);
    }

    /** Forgets a deleted partition's checkpoint entry. */
    public void onPartitionDeleted(Path logDir, TopicPartition partition) throws IOException {
        synchronized (this) {
            tombstoneHorizons.remove(partition);
        }
        checkpoints.remove(logDir, partition);
    }

    /** The checkpointed first dirty offset of a partition, or -1 if it was never cleaned. */
    public long firstDirtyOffset(PartitionLog log, TopicPartition partition) {
        return checkpoints.get(log.dir().getParent(), partition);
    }

    /** Wakes the threads so they look for dirty logs now instead of after the backoff (tests, config changes). */
    public synchronized void wakeUp() {
        notifyAll();
    }

    /** Aborts running cleanings and stops the threads, waiting for them. */
    @Override
    public void close() throws InterruptedException {
        List<Thread> toJoin;
        synchronized (this) {
            stopping = true;
            inProgress.replaceAll((partition, abort) -> Boolean.TRUE);
            notifyAll();
            toJoin = new ArrayList<>(threads);
            threads.clear();
        }
        for (Thread thread : toJoin) {
            thread.join();
        }
    }
}

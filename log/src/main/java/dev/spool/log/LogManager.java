package dev.spool.log;

import dev.spool.log.cleaner.CleanerConfig;
import dev.spool.log.cleaner.LogCleaner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.HashSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Thread-safe: the partition logs of every directory in {@code log.dirs}.
 *
 * <p>On open it loads each {@code <topic>-<partition>} directory with the recovery point, log start
 * offset and high watermark from the directory's checkpoint files, trusting the segments only if Kafka's clean-shutdown
 * marker {@code .kafka_cleanshutdown} is present (it is removed once loading is done, so a crash from
 * then on is seen as unclean). A timer runs retention every {@code log.retention.check.interval.ms},
 * flush.ms checks, checkpoint writes and the producer-id expiration; a {@link LogCleaner} compacts the logs
 * whose cleanup.policy includes compact. {@link #close()} stops the cleaner, closes every log (its producer
 * snapshot, a flush), writes the checkpoints and the marker.
 *
 * <p>Log dir failure (KIP-112): an I/O error in any operation on a directory (append, roll, flush,
 * index write, segment deletion, checkpoint write, read) takes that directory offline, once, unless it
 * is out of space ({@link LogDirFailureChannel}). Its logs are marked offline at once (every operation
 * on them then throws {@link LogDirOfflineException}), leave the set of logs that retention, flushing,
 * checkpoints and the cleaner work on, and are closed without writing; new partitions go to the other
 * directories; then the {@link LogDirFailureListener}s are told, on the scheduler. The directory stays
 * offline until a restart loads it again.
 */
public final class LogManager implements AutoCloseable {
    public static final String CLEAN_SHUTDOWN_FILE = CleanShutdownMarker.FILE;
    public static final String RECOVERY_POINT_CHECKPOINT = "recovery-point-offset-checkpoint";
    public static final String LOG_START_OFFSET_CHECKPOINT = "log-start-offset-checkpoint";
    public static final String REPLICATION_OFFSET_CHECKPOINT = "replication-offset-checkpoint";
    /** Kafka's default of {@code num.recovery.threads.per.data.dir}. */
    public static final int DEFAULT_RECOVERY_THREADS_PER_DATA_DIR = 2;
    private static final Logger LOG = LoggerFactory.getLogger(LogManager.class);
    private static final long NO_BROKER_EPOCH_SEEN = Long.MIN_VALUE;

    private final List<Path> logDirs;
    private final Function<String, LogConfig> topicConfigs;
    private final LogClock clock;
    private final ScheduledExecutorService scheduler;
    private final int recoveryThreadsPerDataDir;
    private final ProducerIdExpiration producerIdExpiration;
    private final Map<TopicPartition, PartitionLog> logs = new ConcurrentHashMap<>();
    /** The logs of offline directories, kept so their partitions are never created again elsewhere. */
    private final Map<TopicPartition, PartitionLog> offlineLogs = new ConcurrentHashMap<>();
    private final LogDirFailureChannel failures = new LogDirFailureChannel();
    private final List<LogDirFailureListener> failureListeners = new CopyOnWriteArrayList<>();
    private final List<ScheduledFuture<?>> timers = new ArrayList<>();
    /** Where AlterReplicaLogDirs asked a partition to be: a replica created later goes there. */
    private final Map<TopicPartition, Path> preferredDirs = new ConcurrentHashMap<>();
    private final LogDirMover mover = new LogDirMover(new LogDirMover.Host() {
        @Override
        public PartitionLog current(TopicPartition partition) {
            return logs.get(partition);
        }

        @Override
        public void complete(TopicPartition partition, PartitionLog current, PartitionLog future) throws IOException {
            completeMove(partition, current, future);
        }
    });
    /** What the markers found at start named (see {@link #previousBrokerEpoch}); unset until a used dir is loaded. */
    private long previousBrokerEpoch = NO_BROKER_EPOCH_SEEN;
    private volatile long brokerEpoch = -1;
    private LogCleaner cleaner;
    private boolean closed;

    /**
     * Periods of the background work, Kafka's broker settings: {@code log.retention.check.interval.ms}
     * (300000), {@code log.flush.scheduler.interval.ms} (Kafka's default never; here the flush.ms check
     * period), {@code log.flush.offset.checkpoint.interval.ms} (60000).
     */
    public record Intervals(long retentionCheckIntervalMs, long flushCheckIntervalMs, long checkpointIntervalMs) {
        public static final Intervals DEFAULTS = new Intervals(300_000, 1_000, 60_000);
    }

    /**
     * Kafka's broker settings for the producer state of every log: {@code producer.id.expiration.ms} (86400000),
     * how long an idle idempotent producer is remembered, and {@code producer.id.expiration.check.interval.ms}
     * (600000), how often the forgetting runs.
     */
    public record ProducerIdExpiration(long expirationMs, long checkIntervalMs) {
        public static final ProducerIdExpiration DEFAULTS = new ProducerIdExpiration(
                PartitionLog.DEFAULT_PRODUCER_ID_EXPIRATION_MS, 600_000);
    }

    private LogManager(List<Path> logDirs, Function<String, LogConfig> topicConfigs, LogClock clock,
                       ScheduledExecutorService scheduler, int recoveryThreadsPerDataDir,
                       ProducerIdExpiration producerIdExpiration) {
        this.recoveryThreadsPerDataDir = recoveryThreadsPerDataDir;
        this.producerIdExpiration = producerIdExpiration;
        this.logDirs = List.copyOf(logDirs);
        this.topicConfigs = topicConfigs;
        this.clock = clock;
        this.scheduler = scheduler;
    }

    /**
     * Opens every partition in {@code logDirs}; {@code topicConfigs} gives each topic's config (defaults
     * plus its overrides). Background work starts on {@code scheduler} with the given periods.
     */
    public static LogManager open(List<Path> logDirs, Function<String, LogConfig> topicConfigs, LogClock clock,
                                  ScheduledExecutorService scheduler, Intervals intervals) throws IOException {
        return open(logDirs, topicConfigs, clock, scheduler, intervals, CleanerConfig.DEFAULTS);
    }

    /** As {@link #open(List, Function, LogClock, ScheduledExecutorService, Intervals)}, with the cleaner's settings. */
    public static LogManager open(List<Path> logDirs, Function<String, LogConfig> topicConfigs, LogClock clock,
                                  ScheduledExecutorService scheduler, Intervals intervals,
                                  CleanerConfig cleanerConfig) throws IOException {
        return open(logDirs, topicConfigs, clock, scheduler, intervals, cleanerConfig, DEFAULT_RECOVERY_THREADS_PER_DATA_DIR,
                ProducerIdExpiration.DEFAULTS);
    }

    /**
     * As {@link #open(List, Function, LogClock, ScheduledExecutorService, Intervals, CleanerConfig)}, opening
     * (and after a crash recovering) each directory's partitions on {@code recoveryThreadsPerDataDir} threads
     * ({@code num.recovery.threads.per.data.dir}): recovery is bound by CPU (CRC checks) and by the disk; the
     * logs' producer states forget idle producers as {@code producerIdExpiration} says.
     */
    public static LogManager open(List<Path> logDirs, Function<String, LogConfig> topicConfigs, LogClock clock,
                                  ScheduledExecutorService scheduler, Intervals intervals,
                                  CleanerConfig cleanerConfig, int recoveryThreadsPerDataDir,
                                  ProducerIdExpiration producerIdExpiration) throws IOException {
        if (recoveryThreadsPerDataDir < 1) {
            throw new IllegalArgumentException("recoveryThreadsPerDataDir must be at least 1: " + recoveryThreadsPerDataDir);
        }
        LogManager manager = new LogManager(logDirs, topicConfigs, clock, scheduler, recoveryThreadsPerDataDir,
                producerIdExpiration);
        MovedLogNames.recover(logDirs);
        for (Path logDir : logDirs) {
            manager.loadDir(logDir);
        }
        manager.startTimers(intervals);
        manager.cleaner = new LogCleaner(cleanerConfig, logDirs, () -> Map.copyOf(manager.logs), clock,
                manager::onIoError);
        manager.cleaner.start();
        return manager;
    }

    /** The log cleaner (its {@link LogCleaner#stats()} are for the metrics). */
    public LogCleaner cleaner() {
        return cleaner;
    }

    private void loadDir(Path logDir) throws IOException {
        long startNanos = System.nanoTime();
        Files.createDirectories(logDir);
        Path marker = logDir.resolve(CLEAN_SHUTDOWN_FILE);
        OptionalLong markedEpoch = CleanShutdownMarker.read(logDir);
        boolean clean = markedEpoch.isPresent();
        Map<TopicPartition, Long> recoveryPoints = readCheckpoint(logDir.resolve(RECOVERY_POINT_CHECKPOINT));
        Map<TopicPartition, Long> startOffsets = readCheckpoint(logDir.resolve(LOG_START_OFFSET_CHECKPOINT));
        Map<TopicPartition, Long> highWatermarks = readCheckpoint(logDir.resolve(REPLICATION_OFFSET_CHECKPOINT));
        List<Path> partitionDirs = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(logDir, Files::isDirectory)) {
            stream.forEach(partitionDirs::add);
        }
        ExecutorService loaders = Executors.newFixedThreadPool(recoveryThreadsPerDataDir,
                daemonThreads("log-loader-" + logDir.getFileName()));
        try {
            List<Future<?>> loads = new ArrayList<>();
            for (Path partitionDir : partitionDirs) {
                loads.add(loaders.submit(() -> {
                    loadPartition(partitionDir, clean, recoveryPoints, startOffsets, highWatermarks);
                    return null;
                }));
            }
            awaitAll(loads);
        } finally {
            loaders.shutdownNow();
        }
        Files.deleteIfExists(marker);
        // A directory that never held a log has nothing a crash could have left behind: no marker is expected.
        boolean neverUsed = partitionDirs.isEmpty() && !Files.exists(logDir.resolve(RECOVERY_POINT_CHECKPOINT));
        if (!neverUsed) {
            long epoch = markedEpoch.orElse(-1);
            boolean agrees = previousBrokerEpoch == NO_BROKER_EPOCH_SEEN || previousBrokerEpoch == epoch;
            previousBrokerEpoch = agrees ? epoch : -1;
        }
        LOG.info("Loaded {} partitions from {} ({}) in {} ms on {} threads", partitionDirs.size(), logDir,
                neverUsed ? "new log dir" : clean ? "clean shutdown" : "unclean shutdown",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos), recoveryThreadsPerDataDir);
    }

    private void loadPartition(Path partitionDir, boolean clean, Map<TopicPartition, Long> recoveryPoints,
                               Map<TopicPartition, Long> startOffsets, Map<TopicPartition, Long> highWatermarks)
            throws IOException {
        TopicPartition partition = TopicPartition.parseDirName(partitionDir.getFileName().toString());
        if (partition == null) {
            LOG.warn("Skipping {}: not a <topic>-<partition> directory", partitionDir);
            return;
        }
        LogLoadOptions options = new LogLoadOptions(recoveryPoints.getOrDefault(partition, 0L),
                startOffsets.getOrDefault(partition, 0L), clean);
        PartitionLog log = PartitionLog.open(partitionDir, topicConfigs.apply(partition.topic()), clock, scheduler,
                options, this::onIoError, producerIdExpiration.expirationMs());
        Long highWatermark = highWatermarks.get(partition);
        if (highWatermark != null) {
            log.updateHighWatermark(highWatermark);
        }
        if (logs.putIfAbsent(partition, log) != null) {
            log.close();
            throw new IOException("Partition " + partition + " found twice, again in " + partitionDir);
        }
    }

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger number = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + number.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** Waits for every load, then rethrows the first failure (an IOException as it was thrown). */
    private static void awaitAll(List<Future<?>> loads) throws IOException {
        Throwable first = null;
        for (Future<?> load : loads) {
            try {
                load.get();
            } catch (ExecutionException e) {
                first = first == null ? e.getCause() : first;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("Interrupted while loading logs", e);
            }
        }
        if (first instanceof IOException io) {
            throw io;
        }
        if (first instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (first instanceof Error error) {
            throw error;
        }
    }

    private static Map<TopicPartition, Long> readCheckpoint(Path file) throws IOException {
        Map<TopicPartition, Long> out = new HashMap<>();
        for (String[] fields : new CheckpointFile(file).read(3)) {
            try {
                out.put(new TopicPartition(fields[0], Integer.parseInt(fields[1])), Long.parseLong(fields[2]));
            } catch (NumberFormatException e) {
                throw new IOException("Bad entry '" + String.join(" ", fields) + "' in " + file, e);
            }
        }
        return out;
    }

    private void startTimers(Intervals intervals) {
        timers.add(scheduler.scheduleWithFixedDelay(() -> forEachLog(PartitionLog::deleteOldSegments),
                intervals.retentionCheckIntervalMs(), intervals.retentionCheckIntervalMs(), TimeUnit.MILLISECONDS));
        timers.add(scheduler.scheduleWithFixedDelay(() -> forEachLog(PartitionLog::maybeFlushByTime),
                intervals.flushCheckIntervalMs(), intervals.flushCheckIntervalMs(), TimeUnit.MILLISECONDS));
        timers.add(scheduler.scheduleWithFixedDelay(this::checkpointUnchecked,
                intervals.checkpointIntervalMs(), intervals.checkpointIntervalMs(), TimeUnit.MILLISECONDS));
        long expirationCheckMs = producerIdExpiration.checkIntervalMs();
        timers.add(scheduler.scheduleWithFixedDelay(() -> forEachLog(PartitionLog::removeExpiredProducers),
                expirationCheckMs, expirationCheckMs, TimeUnit.MILLISECONDS));
    }

    @FunctionalInterface
    private interface LogAction {
        void apply(PartitionLog log) throws IOException;
    }

    private void forEachLog(LogAction action) {
        for (PartitionLog log : logs.values()) {
            try {
                action.apply(log);
            } catch (LogMovedException e) {
                // moved to another log dir since this pass began: the work is done on its replacement
            } catch (IOException e) {
                // One failing disk must not stop the work on the others; the failure is reported, not dropped.
                LOG.error("Background work failed for {}", log.dir(), e);
            }
        }
    }

    private void checkpointUnchecked() {
        try {
            checkpoint();
        } catch (IOException e) {
            // Thrown out of the timer it would cancel it; the failing dir is offline, the others go on.
            LOG.error("Cannot write the checkpoints of every log dir", e);
        }
    }

    // ---------------------------------------------------------------- log dir failure

    /** Registers a listener told (on the scheduler) of each log directory taken offline. */
    public void addFailureListener(LogDirFailureListener listener) {
        failureListeners.add(listener);
    }

    /**
     * An I/O error in {@code logDir} (reported by a log, or hit here): the first one takes the directory
     * offline. Runs on the thread that hit the error, maybe under a partition lock: it only marks the logs
     * offline and leaves closing them and telling the listeners to the scheduler.
     */
    private void onIoError(Path logDir, IOException cause) {
        if (!failures.maybeMarkOffline(logDir, cause)) {
            return;
        }
        moveOffline(logDir);
        try {
            scheduler.execute(() -> completeFailure(logDir, cause));
        } catch (RejectedExecutionException e) {
            LOG.warn("Shutting down: the logs of failed dir {} stay marked offline without being closed", logDir);
        }
    }

    /** Marks the logs of an offline directory offline and moves them out of the working set; returns them. */
    private List<PartitionLog> moveOffline(Path logDir) {
        List<PartitionLog> moved = new ArrayList<>();
        for (Map.Entry<TopicPartition, PartitionLog> entry : logs.entrySet()) {
            PartitionLog log = entry.getValue();
            if (log.dir().getParent().equals(logDir)) {
                log.markOffline();
                offlineLogs.put(entry.getKey(), log);
                logs.remove(entry.getKey(), log);
                moved.add(log);
            }
        }
        return moved;
    }

    private void completeFailure(Path logDir, IOException cause) {
        moveOffline(logDir);
        int closed = 0;
        for (PartitionLog log : offlineLogs.values()) {
            if (log.dir().getParent().equals(logDir)) {
                log.closeAfterFailure();
                closed++;
            }
        }
        List<Path> online = onlineLogDirs();
        if (online.isEmpty()) {
            LOG.error("Log dir {} is offline ({} partitions closed) and no log dir of {} is left online", logDir,
                    closed, logDirs);
        } else {
            LOG.warn("Log dir {} is offline ({} partitions closed); still online: {}", logDir, closed, online);
        }
        for (LogDirFailureListener listener : failureListeners) {
            try {
                listener.onLogDirFailure(logDir, cause, online);
            } catch (RuntimeException e) {
                LOG.error("Log dir failure listener {} failed for {}", listener, logDir, e);
            }
        }
    }

    /** Every directory of {@code log.dirs}, in order. */
    public List<Path> logDirs() {
        return logDirs;
    }

    /** The directories still in service, in {@code log.dirs} order. */
    public List<Path> onlineLogDirs() {
        return logDirs.stream().filter(dir -> !failures.isOffline(dir)).toList();
    }

    public boolean isOffline(Path logDir) {
        return failures.isOffline(logDir);
    }

    /** The logs of offline directories (closed; every operation on them throws {@link LogDirOfflineException}). */
    public Map<TopicPartition, PartitionLog> offlineLogs() {
        return Map.copyOf(offlineLogs);
    }

    /** The log of a partition, or null if this broker has none. */
    public PartitionLog get(TopicPartition partition) {
        return logs.get(partition);
    }

    /** The log of a partition, created (in the directory holding the fewest partitions) if it is new. */
    public synchronized PartitionLog getOrCreate(TopicPartition partition) throws IOException {
        PartitionLog existing = logs.get(partition);
        if (existing != null) {
            return existing;
        }
        PartitionLog offline = offlineLogs.get(partition);
        if (offline != null) {
            // Never a new empty log elsewhere: the records are on the failed disk, back after a restart.
            throw new LogDirOfflineException(offline.dir().getParent(), "Partition " + partition);
        }
        Path preferred = preferredDirs.get(partition);
        Path logDir = preferred != null && !isOffline(preferred) ? preferred
                : onlineLogDirs().stream().min(Comparator.comparingLong(this::partitionsIn)).orElseThrow(() -> new LogDirOfflineException("Cannot create " + partition + ": every log dir of "
                        + logDirs + " is offline"));
        PartitionLog log;
        try {
            log = PartitionLog.open(logDir.resolve(partition.dirName()), topicConfigs.apply(partition.topic()),
                    clock, scheduler, new LogLoadOptions(0, 0, true), this::onIoError, producerIdExpiration.expirationMs());
        } catch (IOException e) {
            onIoError(logDir, e);
            throw e;
        }
        logs.put(partition, log);
        if (failures.isOffline(logDir)) {
            // the directory failed while the log was being created
            moveOffline(logDir);
            throw new LogDirOfflineException(logDir, "Partition " + partition);
        }
        return log;
    }

    private long partitionsIn(Path logDir) {
        return logs.values().stream().filter(log -> log.dir().getParent().equals(logDir)).count();
    }

    /** Closes the partition's log and removes its directory. */
    public synchronized void delete(TopicPartition partition) throws IOException {
        PartitionLog offline = offlineLogs.remove(partition);
        if (offline != null) {
            LOG.warn("Deleted partition {} keeps its files in offline log dir {}", partition, offline.dir().getParent());
            return;
        }
        preferredDirs.remove(partition);
        mover.cancel(partition);
        if (!logs.containsKey(partition)) {
            return;
        }
        awaitCleanerPaused(partition);
        try {
            PartitionLog log = logs.remove(partition);
            log.close();
            FileTrees.deleteRecursively(log.dir());
            cleaner.onPartitionDeleted(log.dir().getParent(), partition);
        } finally {
            cleaner.resume(partition);
        }
    }

    private void awaitCleanerPaused(TopicPartition partition) throws IOException {
        try {
            cleaner.abortAndPause(partition);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted waiting for the cleaner to leave " + partition, e);
        }
    }

    /**
     * AlterReplicaLogDirs: {@code partition}'s replica is to live in {@code logDir} (one of {@link #logDirs()},
     * online). A replica elsewhere is copied there while it is written, then swapped in ({@link LogDirMover}); one
     * not hosted yet is created there; a move to another dir under way is called off for this one.
     */
    public synchronized void moveToDir(TopicPartition partition, Path logDir) throws IOException {
        if (!logDirs.contains(logDir)) {
            throw new IllegalArgumentException(logDir + " is not one of the log dirs " + logDirs);
        }
        preferredDirs.put(partition, logDir);
        PartitionLog current = logs.get(partition);
        if (current == null) {
            return;
        }
        PartitionLog future = mover.future(partition);
        if (future != null && future.dir().getParent().equals(logDir)) {
            return;
        }
        mover.cancel(partition);
        if (current.dir().getParent().equals(logDir)) {
            return;
        }
        PartitionLog copy;
        try {
            copy = PartitionLog.open(MovedLogNames.futureDir(logDir, partition), current.config(), clock, scheduler,
                    new LogLoadOptions(0, 0, true), this::onIoError, producerIdExpiration.expirationMs());
        } catch (IOException e) {
            onIoError(logDir, e);
            throw e;
        }
        LOG.info("Moving {} from {} to {}", partition, current.dir().getParent(), logDir);
        mover.start(partition, copy);
    }

    /** The copies of replicas moving to another log dir (DescribeLogDirs' future replicas), by partition. */
    public Map<TopicPartition, PartitionLog> futureLogs() {
        return mover.futures();
    }

    /**
     * The swap at the end of a move, with the cleaner kept off the partition: under the current log's lock the copy
     * takes what came since it caught up and closes; the current log's dir is renamed {@code -delete} and the
     * copy's takes the plain name (the order {@link MovedLogNames#recover} relies on); the copy is opened again
     * there as the partition's log, with the current log's start and high watermark. The old log keeps serving the
     * reads that began on it for {@code file.delete.delay.ms}, then its files are closed and removed.
     */
    private synchronized void completeMove(TopicPartition partition, PartitionLog current, PartitionLog future)
            throws IOException {
        if (closed) {
            throw new IllegalStateException("The log manager is closing");
        }
        awaitCleanerPaused(partition);
        Path oldDir = current.dir();
        Path deleteDir = MovedLogNames.deleteDir(oldDir);
        Path newDir = future.dir().resolveSibling(partition.dirName());
        try {
            current.moveAway(() -> {
                LogDirMover.copyUntilCaughtUp(current, future);
                // An epoch whose leader has appended nothing yet has no batch to bring it along.
                for (Map.Entry<Integer, Long> epoch : current.leaderEpochs().entries().entrySet()) {
                    future.leaderEpochs().maybeAssign(epoch.getKey(), epoch.getValue());
                }
                long logEnd = future.logEndOffset();
                future.close();
                MovedLogNames.renameDurably(oldDir, deleteDir);
                PartitionLog moved;
                try {
                    MovedLogNames.renameDurably(future.dir(), newDir);
                    moved = PartitionLog.open(newDir, current.config(), clock, scheduler,
                            new LogLoadOptions(logEnd, current.logStartOffset(), true), this::onIoError,
                            producerIdExpiration.expirationMs());
                } catch (IOException | RuntimeException e) {
                    MovedLogNames.renameDurably(deleteDir, oldDir); // the current log goes on where it was
                    throw e;
                }
                moved.updateHighWatermark(current.highWatermark());
                logs.put(partition, moved);
                return moved;
            });
            cleaner.onPartitionDeleted(oldDir.getParent(), partition);
        } finally {
            cleaner.resume(partition);
        }
        LOG.info("Moved {} from {} to {}", partition, oldDir.getParent(), newDir.getParent());
        scheduler.schedule(() -> {
            current.closeAfterFailure();
            try {
                FileTrees.deleteRecursively(deleteDir);
            } catch (IOException e) {
                LOG.warn("Cannot remove {}, the log moved to {} (the next start removes it)", deleteDir, newDir, e);
            }
        }, current.config().fileDeleteDelayMs, TimeUnit.MILLISECONDS);
    }

    /** A topic's config changed: every partition of it takes {@code config} from its next append, retention run or cleaning. */
    public void updateTopicConfig(String topic, LogConfig config) {
        logs.forEach((partition, log) -> {
            if (partition.topic().equals(topic)) {
                log.updateConfig(config);
            }
        });
        cleaner.wakeUp();
    }

    public Map<TopicPartition, PartitionLog> logs() {
        return Map.copyOf(logs);
    }

    /** Runs retention on every log now (the timer does it every log.retention.check.interval.ms). */
    public int runRetention() throws IOException {
        int deleted = 0;
        for (PartitionLog log : logs.values()) {
            deleted += log.deleteOldSegments();
        }
        return deleted;
    }

    /** Writes recovery-point-offset-checkpoint, log-start-offset-checkpoint and replication-offset-checkpoint (high watermarks). */
    public synchronized void checkpoint() throws IOException {
        IOException failure = null;
        for (Path logDir : onlineLogDirs()) {
            try {
                checkpoint(logDir);
            } catch (IOException e) {
                onIoError(logDir, e);
                failure = addFailure(failure, e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static IOException addFailure(IOException first, IOException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }

    /** The three checkpoint files of one directory. */
    private void checkpoint(Path logDir) throws IOException {
        List<String> recoveryPoints = new ArrayList<>();
        List<String> startOffsets = new ArrayList<>();
        List<String> highWatermarks = new ArrayList<>();
        logs.forEach((partition, log) -> {
            if (log.dir().getParent().equals(logDir)) {
                String prefix = partition.topic() + " " + partition.partition() + " ";
                recoveryPoints.add(prefix + log.recoveryPoint());
                startOffsets.add(prefix + log.logStartOffset());
                highWatermarks.add(prefix + log.highWatermark());
            }
        });
        new CheckpointFile(logDir.resolve(RECOVERY_POINT_CHECKPOINT)).write(recoveryPoints);
        new CheckpointFile(logDir.resolve(LOG_START_OFFSET_CHECKPOINT)).write(startOffsets);
        new CheckpointFile(logDir.resolve(REPLICATION_OFFSET_CHECKPOINT)).write(highWatermarks);
    }

    /** Stops the timers, closes (flushes) every log, writes the checkpoints, then the clean-shutdown markers. */
    @Override
    public void close() throws IOException {
        mover.close(); // first, and without the lock: a move that is completing takes it
        closeLogs();
    }

    private synchronized void closeLogs() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            cleaner.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted stopping the log cleaner", e);
        }
        for (ScheduledFuture<?> timer : timers) {
            timer.cancel(false);
        }
        IOException failure = null;
        // A dir where a log could not be closed cleanly gets no marker: the next start recovers it.
        Set<Path> unclean = new HashSet<>();
        for (PartitionLog log : logs.values()) {
            try {
                log.close();
            } catch (IOException e) {
                unclean.add(log.dir().getParent());
                failure = addFailure(failure, e);
            }
        }
        for (PartitionLog log : offlineLogs.values()) {
            log.closeAfterFailure();
        }
        for (Path logDir : onlineLogDirs()) {
            if (unclean.contains(logDir)) {
                continue;
            }
            try {
                checkpoint(logDir);
                CleanShutdownMarker.write(logDir, brokerEpoch);
            } catch (IOException e) {
                onIoError(logDir, e);
                failure = addFailure(failure, e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * The broker epoch the last process named in its clean-shutdown markers, Kafka's "previous broker epoch" a
     * broker registers with (KIP-966): -1 when any used directory lacks its marker (that process died, and may have
     * lost what it had not flushed), when the markers disagree or name none, or when every directory is new.
     */
    public long previousBrokerEpoch() {
        return previousBrokerEpoch == NO_BROKER_EPOCH_SEEN ? -1 : previousBrokerEpoch;
    }

    /** The broker epoch this process registered with, written into the clean-shutdown markers at {@link #close}. */
    public void brokerEpoch(long brokerEpoch) {
        this.brokerEpoch = brokerEpoch;
    }
}

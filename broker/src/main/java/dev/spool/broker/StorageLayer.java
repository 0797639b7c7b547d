package dev.spool.broker;

import dev.spool.broker.cluster.MetaProperties;
import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.config.ConfigException;
import dev.spool.broker.metadata.MetadataLog;
import dev.spool.log.DirectoryLock;
import dev.spool.log.LogClock;
import dev.spool.log.LogConfig;
import dev.spool.log.LogManager;
import dev.spool.log.PartitionLog;
import dev.spool.log.TopicPartition;
import dev.spool.log.cleaner.CleanerConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The broker's first layer: its data directories, locked before anything in them is read or written,
 * the cluster's identity in {@code meta.properties}, every log (the metadata log included) opened and
 * recovered, and the scheduler their background work runs on. Closed last: logs, scheduler, then the
 * locks. Immutable once opened.
 */
final class StorageLayer implements AutoCloseable {

    final MetaProperties meta;
    final LogClock clock;
    final ScheduledExecutorService scheduler;
    final LogManager logs;
    /** The broker's log.* defaults, parsed: what a topic's overrides are checked against. */
    final LogConfig brokerLogConfig;
    final PartitionLog metadataPartition;
    private final Closer closer;

    private StorageLayer(MetaProperties meta, LogClock clock, ScheduledExecutorService scheduler, LogManager logs,
                         LogConfig brokerLogConfig, PartitionLog metadataPartition, Closer closer) {
        this.meta = meta;
        this.clock = clock;
        this.scheduler = scheduler;
        this.logs = logs;
        this.brokerLogConfig = brokerLogConfig;
        this.metadataPartition = metadataPartition;
        this.closer = closer;
    }

    /**
     * Locks every log dir (or none: a refused lock releases the others and nothing is read), then opens and
     * recovers every log. {@code onFatal} hears, on a thread of its own, when no log dir is left or the one
     * holding the metadata log fails.
     */
    static StorageLayer open(BrokerConfig config, FatalErrorHandler onFatal) throws IOException {
        LogConfig brokerLogConfig = parseLogDefaults(config.logConfigDefaults());
        Closer closer = new Closer();
        try {
            for (Path dir : config.logDirs()) {
                closer.register(DirectoryLock.acquire(dir));
            }
            MetaProperties meta = MetaProperties.loadOrCreate(config.logDirs().get(0), config.nodeId(),
                    config.cluster().clusterId());
            ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(1, runnable -> {
                Thread thread = new Thread(runnable, "spool-scheduler");
                thread.setDaemon(true);
                return thread;
            });
            closer.register(scheduler::shutdownNow);
            LogClock clock = LogClock.SYSTEM;
            // A topic's config is the defaults until the metadata image is loaded and the partition manager
            // applies its overrides.
            LogManager logs = closer.register(LogManager.open(config.logDirs(), topic -> brokerLogConfig, clock,
                    scheduler,
                    new LogManager.Intervals(config.logRetentionCheckIntervalMs(),
                            LogManager.Intervals.DEFAULTS.flushCheckIntervalMs(),
                            LogManager.Intervals.DEFAULTS.checkpointIntervalMs()),
                    new CleanerConfig(config.get(BrokerConfig.LOG_CLEANER_ENABLE),
                            config.get(BrokerConfig.LOG_CLEANER_THREADS),
                            config.get(BrokerConfig.LOG_CLEANER_DEDUPE_BUFFER_SIZE),
                            config.get(BrokerConfig.LOG_CLEANER_BACKOFF_MS)),
                    config.get(BrokerConfig.NUM_RECOVERY_THREADS_PER_DATA_DIR),
                    new LogManager.ProducerIdExpiration(config.producerIdExpirationMs(),
                            config.producerIdExpirationCheckIntervalMs())));
            PartitionLog metadataPartition = logs.getOrCreate(new TopicPartition(MetadataLog.TOPIC, 0));
            stopWhenStorageFails(config, logs, metadataPartition, onFatal);
            return new StorageLayer(meta, clock, scheduler, logs, brokerLogConfig, metadataPartition, closer);
        } catch (IOException | RuntimeException | Error e) {
            closer.close();
            throw e;
        }
    }

    private static void stopWhenStorageFails(BrokerConfig config, LogManager logs, PartitionLog metadataPartition,
                                             FatalErrorHandler onFatal) {
        logs.addFailureListener((failedDir, cause, onlineDirs) -> {
            // Kafka stops when no log dir is left, and (KRaft, KIP-858) when the metadata log's dir fails.
            String reason = onlineDirs.isEmpty() ? "every log dir of " + config.logDirs() + " has failed"
                    : metadataPartition.isOffline() ? "log dir " + failedDir + ", which holds the metadata log, failed"
                    : null;
            if (reason != null) {
                onFatal.stopOnOwnThread(reason);
            }
        });
    }

    private static LogConfig parseLogDefaults(Map<String, String> logDefaults) {
        try {
            return LogConfig.fromProperties(logDefaults);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("invalid log default: " + e.getMessage());
        }
    }

    /** Why a topic's config overrides are invalid against the broker's defaults, or null when they are valid. */
    String invalidTopicConfig(Map<String, String> overrides) {
        try {
            brokerLogConfig.with(overrides);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    @Override
    public void close() {
        closer.close();
    }
}

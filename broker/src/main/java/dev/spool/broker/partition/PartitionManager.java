package dev.spool.broker.partition;

import dev.spool.broker.metadata.ConfigResource;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.MetadataListener;
import dev.spool.broker.metadata.PartitionImage;
import dev.spool.broker.metadata.TopicImage;
import dev.spool.log.LogClock;
import dev.spool.log.LogConfig;
import dev.spool.log.LogDirOfflineException;
import dev.spool.log.LogManager;
import dev.spool.log.PartitionLog;
import dev.spool.log.TopicPartition;
import dev.spool.protocol.types.Uuid;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The partitions this broker hosts, kept in step with the metadata image: a new partition gets a
 * log directory from the {@link LogManager} (which owns checkpoints, recovery, retention and the
 * clean-shutdown marker), a config change reaches the log at once, a deleted topic's logs are
 * removed. Thread-safe: lookups from any thread, changes from the metadata thread.
 *
 * <p>When the log manager takes a log dir offline (KIP-112), the partitions there stay hosted with their
 * offline logs, so every request on them is answered KAFKA_STORAGE_ERROR (never re-created empty on
 * another dir) until a restart finds the dir healthy; their parked fetches are woken to answer so at once.
 */
public final class PartitionManager implements MetadataListener, OfflinePartitions, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionManager.class);
    private static final String PARTITION_METADATA_FILE = "partition.metadata";

    private final int nodeId;
    private final LogManager logs;
    private final boolean ownsLogs;
    /** Loads a partition's producer state when a reader needs it before any append (see {@link Partition}). */
    private final ProducerStateLoads producerStateLoads = ProducerStateLoads.onOwnThread();
    private final Function<MetadataImage, Map<String, String>> logConfigDefaults;
    private final Map<TopicPartition, Partition> partitions = new ConcurrentHashMap<>();
    /** False from {@link #leadNothingUntilCaughtUp} until {@link #markCaughtUp}. */
    private volatile boolean caughtUp = true;

    /**
     * @param nodeId            this broker: it hosts the partitions whose replicas include it
     * @param logs              the log directories' manager, opened by the broker and closed after this
     * @param logConfigDefaults the topic log config defaults in force in an image (server.properties
     *                          under the broker's dynamic settings), by topic config name
     */
    public PartitionManager(int nodeId, LogManager logs, Function<MetadataImage, Map<String, String>> logConfigDefaults) {
        this(nodeId, logs, false, logConfigDefaults);
    }

    /** Broker 1 over one log directory with a log manager of its own (closed with this), for tests and tools. */
    public PartitionManager(Path logDir, Function<MetadataImage, Map<String, String>> logConfigDefaults, LogClock clock,
                            ScheduledExecutorService scheduler) {
        this(List.of(logDir), logConfigDefaults, clock, scheduler);
    }

    /** Broker 1 over these log directories with a log manager of its own (closed with this), for tests and tools. */
    public PartitionManager(List<Path> logDirs, Function<MetadataImage, Map<String, String>> logConfigDefaults,
                            LogClock clock, ScheduledExecutorService scheduler) {
        this(1, openLogs(logDirs, clock, scheduler), true, logConfigDefaults);
    }

    private static LogManager openLogs(List<Path> logDirs, LogClock clock, ScheduledExecutorService scheduler) {
        try {
            return LogManager.open(logDirs, topic -> LogConfig.defaults(), clock, scheduler,
                    LogManager.Intervals.DEFAULTS);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the logs in " + logDirs, e);
        }
    }

    /** This broker: it hosts the partitions whose replicas include it, and leads those whose leader it is. */
    public int nodeId() {
        return nodeId;
    }

    /**
     * A cluster's broker that has just started leads nothing until {@link #markCaughtUp}: the images it applies
     * meanwhile are the metadata log replayed from where its copy ended (or from nothing), so they name it leader of
     * partitions in epochs long over. A write it took as such a leader would go to its log end stamped with the old
     * epoch, which the real log continues with other records: no epoch check could see that the two logs differ.
     * Kafka's broker likewise serves nothing before its metadata has caught up.
     */
    public void leadNothingUntilCaughtUp() {
        caughtUp = false;
    }

    /** The broker's metadata has caught up with the quorum (the controller unfenced it): it leads what it leads. */
    public void markCaughtUp() {
        caughtUp = true;
    }

    /** Whether this broker acts as {@code partition}'s leader: the image says so, and it has caught up. */
    public boolean leads(Partition partition) {
        return leads(partition.assignment());
    }

    /** As {@link #leads(Partition)}, for a partition's assignment in an image. */
    public boolean leads(PartitionImage assignment) {
        return caughtUp && assignment.leader() == nodeId;
    }

    private PartitionManager(int nodeId, LogManager logs, boolean ownsLogs,
                             Function<MetadataImage, Map<String, String>> defaults) {
        this.nodeId = nodeId;
        this.logs = logs;
        this.ownsLogs = ownsLogs;
        this.logConfigDefaults = defaults;
        logs.addFailureListener(this::onLogDirFailure);
    }

    private void onLogDirFailure(Path logDir, IOException cause, List<Path> onlineDirs) {
        TreeSet<String> offline = new TreeSet<>();
        for (Partition partition : partitions.values()) {
            if (partition.isOffline()) {
                offline.add(partition.topicPartition().toString());
                partition.notifyAppended();
            }
        }
        LOG.error("Partitions offline after the failure of log dir {}: {}", logDir, offline);
    }

    @Override
    public boolean isOffline(String topic, int partition) {
        Partition hosted = get(topic, partition);
        return hosted != null && hosted.isOffline();
    }

    /** The log manager: its log dirs and which of them are offline. */
    public LogManager logManager() {
        return logs;
    }

    /** The hosted partition, or null. */
    public Partition get(String topic, int partition) {
        return partitions.get(new TopicPartition(topic, partition));
    }

    public Collection<Partition> all() {
        return partitions.values();
    }

    /** The effective log config of a topic: broker defaults, then the topic's overrides. */
    public LogConfig logConfig(MetadataImage image, String topic) {
        return LogConfig.fromStoredProperties(logConfigDefaults.apply(image))
                .withStored(image.configs(ConfigResource.topic(topic)));
    }

    @Override
    public void onImage(MetadataImage previous, MetadataImage current) {
        for (TopicImage topic : previous.topics()) {
            TopicImage now = current.topic(topic.id());
            if (now == null) {
                for (PartitionImage partition : topic.partitions().values()) {
                    remove(new TopicPartition(topic.name(), partition.partition()));
                }
            }
        }
        // The broker's defaults are resolved once per image: they change only with a broker ConfigRecord.
        Map<String, String> defaults = logConfigDefaults.apply(current);
        boolean defaultsChanged = !defaults.equals(logConfigDefaults.apply(previous));
        LogConfig brokerDefaults = LogConfig.fromStoredProperties(defaults);
        for (TopicImage topic : current.topics()) {
            ConfigResource resource = ConfigResource.topic(topic.name());
            // Images share what did not change: a topic whose image and overrides are the same objects as before
            // keeps its configs, so a change to one topic does not compare every partition's config.
            boolean configMayHaveChanged = defaultsChanged || previous.topic(topic.id()) != topic
                    || previous.configs(resource) != current.configs(resource);
            LogConfig config = brokerDefaults.withStored(current.configs(resource));
            for (PartitionImage image : topic.partitions().values()) {
                TopicPartition topicPartition = new TopicPartition(topic.name(), image.partition());
                Partition partition = partitions.get(topicPartition);
                if (!image.replicas().contains(nodeId)) {
                    if (partition != null) {
                        // A reassignment moved the replica away, once its new replicas were in sync: the log goes,
                        // as Kafka's broker deletes a replica it no longer holds.
                        LOG.info("{} is no longer assigned to this broker (replicas {}): deleting its log",
                                topicPartition, image.replicas());
                        remove(topicPartition);
                    }
                    continue;
                }
                if (partition == null) {
                    partition = open(topicPartition, topic.id(), config, image);
                    if (partition != null) {
                        partitions.put(topicPartition, partition);
                    }
                } else {
                    partition.setAssignment(image);
                    if (configMayHaveChanged
                            && !config.asProperties().equals(partition.log().config().asProperties())) {
                        partition.log().updateConfig(config);
                    }
                    maybeAdvanceHighWatermark(partition);
                }
            }
        }
    }

    /** The partition with its log (an offline one if its dir failed); null if no log dir is online to create it. */
    private Partition open(TopicPartition topicPartition, Uuid topicId, LogConfig config, PartitionImage assignment) {
        PartitionLog offline = logs.offlineLogs().get(topicPartition);
        if (offline != null) {
            return new Partition(topicPartition, topicId, offline, assignment, producerStateLoads);
        }
        try {
            PartitionLog log = logs.getOrCreate(topicPartition);
            if (!config.asProperties().equals(log.config().asProperties())) {
                log.updateConfig(config);
            }
            writePartitionMetadata(log.dir(), topicId);
            if (assignment.replicas().size() == 1) {
                // The only replica leads with itself as the whole ISR: its high watermark is its log end at once (the
                // checkpointed one lags after a crash, which would hide acknowledged records until the next append).
                // A replicated partition's high watermark moves only as its followers fetch.
                log.updateHighWatermark(log.logEndOffset());
            }
            return new Partition(topicPartition, topicId, log, assignment, producerStateLoads);
        } catch (LogDirOfflineException e) {
            LOG.error("Partition {} is not hosted: {}", topicPartition, e.getMessage());
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the log of " + topicPartition, e);
        }
    }

    /**
     * The ISR or min.insync.replicas changed: a leader's high watermark may move (a failed disk is answered
     * elsewhere).
     */
    private void maybeAdvanceHighWatermark(Partition partition) {
        try {
            partition.maybeAdvanceHighWatermark(nodeId);
        } catch (IOException e) {
            LOG.error("Cannot move the high watermark of {}", partition, e);
        }
    }

    /** Kafka's {@code partition.metadata}: the topic id, so a re-created topic is never mistaken for the old one. */
    private static void writePartitionMetadata(Path dir, Uuid topicId) throws IOException {
        Path file = dir.resolve(PARTITION_METADATA_FILE);
        String content = "version: 0\ntopic_id: " + topicId + "\n";
        if (!Files.exists(file) || !Files.readString(file, StandardCharsets.UTF_8).equals(content)) {
            Path temp = dir.resolve(PARTITION_METADATA_FILE + ".tmp");
            Files.writeString(temp, content, StandardCharsets.UTF_8);
            Files.move(temp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private void remove(TopicPartition topicPartition) {
        Partition removed = partitions.remove(topicPartition);
        if (removed == null) {
            return;
        }
        // After a follower's fetcher has applied what it is applying: it never writes to the deleted log.
        removed.markRemoved();
        try {
            logs.delete(topicPartition);
        } catch (IOException e) {
            LOG.error("Cannot remove the log of {}", topicPartition, e);
        }
    }

    /** Forgets the partitions; their logs are closed (flushed, checkpointed) by the log manager. */
    @Override
    public void close() {
        producerStateLoads.close();
        partitions.clear();
        if (ownsLogs) {
            try {
                logs.close();
            } catch (IOException e) {
                LOG.error("Cannot close the logs", e);
            }
        }
    }
}

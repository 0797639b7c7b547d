package dev.spool.broker.partition;

import dev.spool.broker.metadata.ConfigResource;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.MetadataListener;
import dev.spool.broker.metadata.PartitionImage;
import dev.spool.broker.metadata.TopicImage;
import dev.spool.log.LogClock;
import dev.spool.log.LogConfig;
import dev.spool.log.PartitionLog;
import dev.spool.log.TopicPartition;
import dev.spool.protocol.types.Uuid;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The partitions this broker hosts, kept in step with the metadata image: a new partition gets a
 * log directory, a config change reaches the log at once, a deleted topic's directories are renamed
 * {@code <topic>-<partition>.<id>-delete} and removed in the background, as Kafka does.
 * Thread-safe: lookups from any thread, changes from the metadata thread.
 */
public final class PartitionManager implements MetadataListener, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionManager.class);
    private static final String PARTITION_METADATA_FILE = "partition.metadata";

    private final Path logDir;
    private final Function<MetadataImage, Map<String, String>> logConfigDefaults;
    private final LogClock clock;
    private final ScheduledExecutorService scheduler;
    private final Map<TopicPartition, Partition> partitions = new ConcurrentHashMap<>();

    /**
     * @param logConfigDefaults the topic log config defaults in force in an image (server.properties
     *                          under the broker's dynamic settings), by topic config name
     */
    public PartitionManager(Path logDir, Function<MetadataImage, Map<String, String>> logConfigDefaults, LogClock clock,
                            ScheduledExecutorService scheduler) {
        this.logDir = logDir;
        this.logConfigDefaults = logConfigDefaults;
        this.clock = clock;
        this.scheduler = scheduler;
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
        return LogConfig.fromProperties(logConfigDefaults.apply(image)).with(image.configs(ConfigResource.topic(topic)));
    }

    @Override
    public void onImage(MetadataImage previous, MetadataImage current) {
        for (TopicImage topic : previous.topics()) {
            TopicImage now = current.topic(topic.id());
            if (now == null) {
                for (PartitionImage partition : topic.partitions().values()) {
                    remove(new TopicPartition(topic.name(), partition.partition()), topic.id());
                }
            }
        }
        // The broker's defaults are resolved once per image: they change only with a broker ConfigRecord.
        LogConfig brokerDefaults = LogConfig.fromProperties(logConfigDefaults.apply(current));
        for (TopicImage topic : current.topics()) {
            LogConfig config = brokerDefaults.with(current.configs(ConfigResource.topic(topic.name())));
            for (PartitionImage image : topic.partitions().values()) {
                TopicPartition topicPartition = new TopicPartition(topic.name(), image.partition());
                Partition partition = partitions.get(topicPartition);
                if (partition == null) {
                    partitions.put(topicPartition, open(topicPartition, topic.id(), config, image.leaderEpoch()));
                } else {
                    partition.setLeaderEpoch(image.leaderEpoch());
                    if (!config.asProperties().equals(partition.log().config().asProperties())) {
                        partition.log().updateConfig(config);
                    }
                }
            }
        }
    }

    private Partition open(TopicPartition topicPartition, Uuid topicId, LogConfig config, int leaderEpoch) {
        Path dir = logDir.resolve(topicPartition.dirName());
        try {
            PartitionLog log = PartitionLog.open(dir, config, clock, scheduler);
            writePartitionMetadata(dir, topicId);
            return new Partition(topicPartition, topicId, log, leaderEpoch);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the log of " + topicPartition + " in " + dir, e);
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

    private void remove(TopicPartition topicPartition, Uuid topicId) {
        Partition partition = partitions.remove(topicPartition);
        if (partition == null) {
            return;
        }
        Path dir = partition.log().dir();
        try {
            partition.log().close();
            String uniqueId = topicId.toString().replace("-", "").replace("_", "");
            Path renamed = dir.resolveSibling(topicPartition.dirName() + "." + uniqueId + "-delete");
            Files.move(dir, renamed);
            scheduler.execute(() -> deleteDirectory(renamed));
        } catch (IOException e) {
            LOG.error("Cannot remove the log of deleted partition {} in {}", topicPartition, dir, e);
        }
    }

    private static void deleteDirectory(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            LOG.error("Cannot delete {}", dir, e);
        }
    }

    @Override
    public void close() {
        for (Partition partition : partitions.values()) {
            try {
                partition.log().close();
            } catch (IOException e) {
                LOG.error("Cannot close the log of {}", partition, e);
            }
        }
        partitions.clear();
    }
}

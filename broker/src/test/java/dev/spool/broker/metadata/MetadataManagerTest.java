package dev.spool.broker.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.log.LogConfig;
import dev.spool.log.PartitionLog;
import dev.spool.protocol.message.CreateTopicsRequestData.CreatableTopic;
import dev.spool.protocol.message.CreateTopicsRequestData.CreatableTopicConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The metadata controller on a real log: commands, listeners, and replay on restart. */
class MetadataManagerTest {

    @TempDir
    Path dir;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final TopicController topics = new TopicController(new TopicDefaults(1, (short) 1, Map.of()),
            overrides -> null);

    @AfterEach
    void stopScheduler() {
        scheduler.shutdownNow();
    }

    private MetadataManager open() throws Exception {
        return open(Long.MAX_VALUE);
    }

    private MetadataManager open(long snapshotIntervalRecords) throws Exception {
        MetadataManager manager = load(snapshotIntervalRecords);
        registerBroker(manager);
        return manager;
    }

    /** The manager as loaded from the log, before its broker registers again. */
    private MetadataManager load(long snapshotIntervalRecords) throws Exception {
        PartitionLog log = PartitionLog.open(dir.resolve("__cluster_metadata-0"), LogConfig.defaults(), () -> 1_000L,
                scheduler);
        MetadataManager manager = new MetadataManager(new MetadataLog(log), () -> 1_000L, snapshotIntervalRecords);
        manager.load();
        return manager;
    }

    /** Registers broker 1, where topics are placed, as a starting broker does. */
    static void registerBroker(MetadataManager manager) throws Exception {
        manager.submit(image -> BrokerRegistrations.register(image, 1, new dev.spool.protocol.types.Uuid(1L, 1L),
                List.of(new BrokerRegistration.Listener("PLAINTEXT", "localhost", 9092, (short) 0))))
                .get(10, TimeUnit.SECONDS);
    }

    private static CreatableTopic topic(String name, int partitions, Map<String, String> configs) {
        List<CreatableTopicConfig> entries = new ArrayList<>();
        configs.forEach((key, value) -> entries.add(new CreatableTopicConfig().setName(key).setValue(value)));
        return new CreatableTopic().setName(name).setNumPartitions(partitions).setReplicationFactor((short) 1)
                .setConfigs(entries);
    }

    @Test
    void listenersSeeTheNewImageBeforeTheCommandCompletes() throws Exception {
        try (MetadataManager manager = open()) {
            List<Integer> partitionsSeen = new ArrayList<>();
            manager.addListener((previous, current) -> {
                TopicImage topic = current.topic("events");
                partitionsSeen.add(topic == null ? 0 : topic.partitions().size());
            });

            manager.submit(image -> topics.createTopics(image, List.of(topic("events", 3, Map.of())), false))
                    .get(10, TimeUnit.SECONDS);

            assertThat(partitionsSeen).containsExactly(0, 3);
            assertThat(manager.image().topic("events").partitions()).hasSize(3);
        }
    }

    @Test
    void restartReplaysEveryChange() throws Exception {
        assertRestartKeepsTheImage(Long.MAX_VALUE);
    }

    @Test
    void restartFromSnapshotsAndTheLogAfterThemKeepsTheImage() throws Exception {
        assertRestartKeepsTheImage(3);
        try (var files = java.nio.file.Files.list(dir.resolve("__cluster_metadata-0"))) {
            assertThat(files.map(path -> path.getFileName().toString()))
                    .filteredOn(name -> name.endsWith(MetadataSnapshot.SUFFIX)).hasSize(1);
        }
    }

    private void assertRestartKeepsTheImage(long snapshotIntervalRecords) throws Exception {
        MetadataImage before;
        try (MetadataManager manager = open(snapshotIntervalRecords)) {
            manager.submit(image -> topics.createTopics(image, List.of(
                    topic("kept", 2, Map.of("retention.ms", "1000")),
                    topic("dropped", 1, Map.of())), false)).get(10, TimeUnit.SECONDS);
            manager.submit(image -> topics.createPartitions(image, List.of(
                    new dev.spool.protocol.message.CreatePartitionsRequestData.CreatePartitionsTopic()
                            .setName("kept").setCount(4)), false)).get(10, TimeUnit.SECONDS);
            manager.submit(image -> topics.deleteTopics(image, List.of(
                    new TopicController.TopicReference("dropped", null)))).get(10, TimeUnit.SECONDS);
            before = manager.image();
        }

        try (MetadataManager reopened = load(Long.MAX_VALUE)) {
            MetadataImage after = reopened.image();
            assertThat(after.brokers()).isEqualTo(before.brokers());
            assertThat(after.offset()).isEqualTo(before.offset());
            assertThat(after.topics()).extracting(TopicImage::name).containsExactly("kept");
            assertThat(after.topic("kept")).isEqualTo(before.topic("kept"));
            assertThat(after.topic("kept").partitions()).hasSize(4);
            assertThat(after.configs(ConfigResource.topic("kept"))).containsEntry("retention.ms", "1000");
            assertThat(after.configs(ConfigResource.topic("dropped"))).isEmpty();
        }
    }

    @Test
    void aQuorumThatCommitsLaterOnItsOwnThreadIsFollowedInOrder() throws Exception {
        PartitionLog log = PartitionLog.open(dir.resolve("__cluster_metadata-0"), LogConfig.defaults(), () -> 1_000L,
                scheduler);
        LaterCommittingQuorum quorum = new LaterCommittingQuorum(new LocalMetadataQuorum(new MetadataLog(log)));
        try (MetadataManager manager = new MetadataManager(1, quorum, () -> 1_000L, Long.MAX_VALUE)) {
            manager.load();
            registerBroker(manager);
            List<String> seenOn = new ArrayList<>();
            manager.addListener((previous, current) -> seenOn.add(Thread.currentThread().getName()));

            var first = manager.submit(image -> topics.createTopics(image, List.of(topic("a", 2, Map.of())), false));
            var second = manager.submit(image -> topics.createTopics(image, List.of(topic("b", 3, Map.of())), false));
            second.get(10, TimeUnit.SECONDS);

            assertThat(first).isDone();
            assertThat(manager.image().topic("a").partitions()).hasSize(2);
            assertThat(manager.image().topic("b").partitions()).hasSize(3);
            assertThat(seenOn).as("the initial image, then each commit on the quorum's thread")
                    .containsExactly("main", "later-commits", "later-commits");
        }
    }

    /** A quorum whose commits happen on its own thread, after the proposal returns, as a Raft quorum's do. */
    private static final class LaterCommittingQuorum implements MetadataQuorum {
        private final LocalMetadataQuorum local;
        private final java.util.concurrent.ExecutorService commits = Executors.newSingleThreadExecutor(
                runnable -> new Thread(runnable, "later-commits"));

        LaterCommittingQuorum(LocalMetadataQuorum local) {
            this.local = local;
        }

        @Override
        public void setCommitListener(CommitListener listener) {
            local.setCommitListener(listener);
        }

        @Override
        public void replay(long afterOffset, MetadataLog.ChangeConsumer consumer) throws java.io.IOException {
            local.replay(afterOffset, consumer);
        }

        @Override
        public java.util.concurrent.CompletableFuture<Long> propose(List<VersionedRecord> records, long nowMs) {
            return java.util.concurrent.CompletableFuture.supplyAsync(() -> local.propose(records, nowMs).join(),
                    commits);
        }

        @Override
        public Path snapshotDir() {
            return local.snapshotDir();
        }

        @Override
        public void deleteRecordsBefore(long offset) throws java.io.IOException {
            local.deleteRecordsBefore(offset);
        }

        @Override
        public void close() throws java.io.IOException {
            commits.shutdownNow();
            local.close();
        }
    }
}

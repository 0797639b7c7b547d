package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.spool.it.reliability.PartitionReader;
import dev.spool.it.reliability.RawRequest;
import dev.spool.it.reliability.SmallFileSystem;
import dev.spool.log.FileTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ListOffsetsResponse;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Disk trouble on a real small file system (a loop-mounted ext4 image: {@link SmallFileSystem}) used
 * as the second of two log dirs: topic {@code cramped} lives there, topic {@code roomy} and the
 * metadata log on the first. A full disk makes produce to {@code cramped} fail with
 * KAFKA_STORAGE_ERROR while its records stay readable and {@code roomy} takes writes; once space is
 * back, produce works again and the segment files pass {@code spool dump-log} (a full disk does not take
 * the dir offline). A log dir whose file system fails (ext4 aborted: every write refused) is taken
 * offline as a whole (KIP-112): produce, fetch and ListOffsets of its partitions answer
 * KAFKA_STORAGE_ERROR, DescribeLogDirs reports the dir failed, Metadata lists the broker among the
 * partition's offline replicas, and the broker keeps serving the other dir. Skipped (with the reason)
 * where loop mounts are not allowed.
 */
class DiskFullIT {

    private static final String CRAMPED = "cramped";
    private static final String ROOMY = "roomy";

    private SmallFileSystem small;
    private SpoolProcess spool;
    private Path bigDir;

    @BeforeEach
    void mountAndStart() throws Exception {
        try {
            small = SmallFileSystem.mount(32);
        } catch (java.io.IOException e) {
            Assumptions.assumeTrue(false, "no loop-mounted file system here: " + e.getMessage());
        }
        bigDir = Files.createTempDirectory("spool-big-");
        spool = SpoolProcess.start("log.dirs=" + bigDir + "," + small.root());
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, spool.bootstrap()))) {
            // Placement is by fewest partitions: the metadata log took the first dir, so cramped goes to the small one.
            admin.createTopics(List.of(new NewTopic(CRAMPED, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            admin.createTopics(List.of(new NewTopic(ROOMY, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        assertThat(small.root().resolve(CRAMPED + "-0")).isDirectory();
        assertThat(bigDir.resolve(ROOMY + "-0")).isDirectory();
    }

    @AfterEach
    void stopAndUnmount() throws Exception {
        if (spool != null) {
            spool.close();
        }
        if (small != null) {
            small.close();
        }
        if (bigDir != null) {
            FileTrees.deleteRecursively(bigDir);
        }
    }

    @Test
    void aFullDiskFailsProduceWithStorageErrorAndRecoversWhenSpaceReturns() throws Exception {
        try (KafkaProducer<String, String> producer = producer()) {
            for (int i = 0; i < 100; i++) {
                producer.send(new ProducerRecord<>(CRAMPED, "before " + i)).get(30, TimeUnit.SECONDS);
            }
            small.fill();
            String big = "x".repeat(256 * 1024);
            Throwable failure = catchThrowable(() -> producer.send(new ProducerRecord<>(CRAMPED, big)).get(30, TimeUnit.SECONDS));
            assertThat(failure).isInstanceOf(ExecutionException.class).hasCauseInstanceOf(KafkaStorageException.class);
            producer.send(new ProducerRecord<>(ROOMY, "still fine")).get(30, TimeUnit.SECONDS);
            assertThat(read(CRAMPED)).hasSize(100).first().isEqualTo("before 0");
            assertThat(spool.isAlive()).isTrue();

            small.empty();
            for (int i = 0; i < 100; i++) {
                producer.send(new ProducerRecord<>(CRAMPED, "after " + i)).get(30, TimeUnit.SECONDS);
            }
        }
        List<String> values = read(CRAMPED);
        assertThat(values).hasSize(200);
        assertThat(values.get(99)).isEqualTo("before 99");
        assertThat(values.get(100)).isEqualTo("after 0");
        spool.stop();
        List<String> command = new ArrayList<>(List.of(SpoolProcess.repositoryRoot().resolve("bin/spool").toString(),
                "dump-log"));
        try (var files = Files.list(small.root().resolve(CRAMPED + "-0"))) {
            files.filter(file -> file.toString().endsWith(".log")).forEach(file -> command.add(file.toString()));
        }
        ExternalCommand.Result dump = ExternalCommand.run(Path.of("/"), 120, command.toArray(String[]::new));
        assertThat(dump.exitCode()).as("spool dump-log finds the segments sound:\n%s", dump.output()).isZero();
    }

    @Test
    void aLogDirThatFailsIsTakenOfflineAndTheBrokerServesTheOtherDir() throws Exception {
        try (KafkaProducer<String, String> producer = producer();
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, spool.bootstrap()))) {
            producer.send(new ProducerRecord<>(CRAMPED, "before")).get(30, TimeUnit.SECONDS);
            small.abort();
            Throwable failure = catchThrowable(() -> producer.send(new ProducerRecord<>(CRAMPED, "x".repeat(64 * 1024)))
                    .get(30, TimeUnit.SECONDS));
            assertThat(failure).isInstanceOf(ExecutionException.class).hasCauseInstanceOf(KafkaStorageException.class);
            // the dir is offline now: a small append does not even reach the disk
            Throwable again = catchThrowable(() -> producer.send(new ProducerRecord<>(CRAMPED, "small"))
                    .get(30, TimeUnit.SECONDS));
            assertThat(again).isInstanceOf(ExecutionException.class).hasCauseInstanceOf(KafkaStorageException.class)
                    .hasMessageContaining("offline");

            int node = admin.describeCluster().controller().get(30, TimeUnit.SECONDS).id();
            Map<String, LogDirDescription> dirs = admin.describeLogDirs(List.of(node)).allDescriptions()
                    .get(30, TimeUnit.SECONDS).get(node);
            LogDirDescription failed = dirs.get(small.root().toString());
            assertThat(failed.error()).isInstanceOf(KafkaStorageException.class);
            assertThat(failed.replicaInfos()).isEmpty();
            LogDirDescription healthy = dirs.get(bigDir.toString());
            assertThat(healthy.error()).isNull();
            assertThat(healthy.replicaInfos()).containsKey(new TopicPartition(ROOMY, 0));

            assertThat(RawRequest.fetchError(spool.port(), CRAMPED)).isEqualTo(Errors.KAFKA_STORAGE_ERROR);
            assertThat(listOffsetsError(CRAMPED)).isEqualTo(Errors.KAFKA_STORAGE_ERROR);
            try (KafkaProducer<String, String> fresh = producer()) {
                PartitionInfo offline = fresh.partitionsFor(CRAMPED).get(0);
                assertThat(offline.offlineReplicas()).extracting(Node::id).containsExactly(node);
                assertThat(fresh.partitionsFor(ROOMY).get(0).offlineReplicas()).isEmpty();
            }

            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>(ROOMY, "fine " + i)).get(30, TimeUnit.SECONDS);
            }
            assertThat(read(ROOMY)).hasSize(10);
            assertThat(RawRequest.fetchError(spool.port(), ROOMY)).isEqualTo(Errors.NONE);
            assertThat(spool.isAlive()).isTrue();
            assertThat(spool.output()).as("the failure is logged once").filteredOn(line -> line.contains(
                    "failed and is taken offline")).hasSize(1);
        }
    }

    @Test
    void whenItsOnlyLogDirFailsTheBrokerExits() throws Exception {
        spool.close();
        spool = SpoolProcess.start("log.dirs=" + small.root().resolve("only"));
        try (KafkaProducer<String, String> producer = producer();
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, spool.bootstrap()))) {
            admin.createTopics(List.of(new NewTopic(CRAMPED, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            producer.send(new ProducerRecord<>(CRAMPED, "before")).get(30, TimeUnit.SECONDS);
            small.abort();
            // the answer may be the storage error or, if the exit wins, a closed connection
            assertThat(catchThrowable(() -> producer.send(new ProducerRecord<>(CRAMPED, "x".repeat(64 * 1024)))
                    .get(30, TimeUnit.SECONDS))).isInstanceOf(ExecutionException.class);
        }
        // Kafka stops a broker whose every log dir has failed; bin/spool exits 1 after its shutdown hook
        assertThat(spool.awaitExit(60_000)).as("exit code").isEqualTo(1);
        assertThat(spool.output()).anyMatch(line -> line.contains("Shutting the node down: every log dir"));
    }

    private Errors listOffsetsError(String topic) throws java.io.IOException {
        ListOffsetsRequestData request = new ListOffsetsRequestData().setReplicaId(-1).setTopics(List.of(
                new ListOffsetsRequestData.ListOffsetsTopic().setName(topic).setPartitions(List.of(
                        new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(0).setTimestamp(-1)))));
        ListOffsetsResponse response = (ListOffsetsResponse) RawRequest.send(spool.port(), ApiKeys.LIST_OFFSETS,
                (short) 7, request);
        return Errors.forCode(response.data().topics().get(0).partitions().get(0).errorCode());
    }

    private KafkaProducer<String, String> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, spool.bootstrap(),
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false,
                ProducerConfig.RETRIES_CONFIG, 0, ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 1 << 20),
                new StringSerializer(), new StringSerializer());
    }

    private List<String> read(String topic) {
        return PartitionReader.readAll(spool.bootstrap(), topic, 0).stream().map(ConsumerRecord::value).toList();
    }

}

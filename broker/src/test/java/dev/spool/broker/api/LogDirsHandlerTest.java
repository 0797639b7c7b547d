package dev.spool.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.partition.PartitionManagerFixture;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.AlterReplicaLogDirsRequestData;
import dev.spool.protocol.message.AlterReplicaLogDirsRequestData.AlterReplicaLogDir;
import dev.spool.protocol.message.AlterReplicaLogDirsRequestData.AlterReplicaLogDirTopic;
import dev.spool.protocol.message.AlterReplicaLogDirsResponseData;
import dev.spool.protocol.message.AlterReplicaLogDirsResponseData.AlterReplicaLogDirPartitionResult;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.DescribeLogDirsRequestData;
import dev.spool.protocol.message.DescribeLogDirsRequestData.DescribableLogDirTopic;
import dev.spool.protocol.message.DescribeLogDirsResponseData;
import dev.spool.protocol.message.DescribeLogDirsResponseData.DescribeLogDirsPartition;
import dev.spool.protocol.message.DescribeLogDirsResponseData.DescribeLogDirsResult;
import dev.spool.protocol.message.DescribeLogDirsResponseData.DescribeLogDirsTopic;
import dev.spool.protocol.types.Message;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogDirsHandlerTest {

    @TempDir
    Path root;
    private Path logDir;
    private Path otherDir;

    private PartitionManagerFixture fixture;
    private final ApiRegistry registry = new ApiRegistry();

    @BeforeEach
    void start() throws IOException {
        logDir = root.resolve("d1");
        otherDir = root.resolve("d2");
        fixture = new PartitionManagerFixture(List.of(logDir, otherDir));
        fixture.createTopic("b-topic", 2);
        fixture.createTopic("a-topic", 1);
        fixture.append("b-topic", 1, 100);
        new LogDirsHandler(fixture.partitions(), Runnable::run).registerIn(registry);
    }

    private Message handle(ApiKey api, short version, Message request) {
        return registry.get(api).handler().handle(new RequestContext(api, version, 1, "test", null), request).join();
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    /** DescribeLogDirs: one result per log dir, in the order of log.dirs. */
    private List<DescribeLogDirsResult> describe(List<DescribableLogDirTopic> topics) {
        DescribeLogDirsResponseData response = (DescribeLogDirsResponseData) handle(ApiKey.DESCRIBE_LOG_DIRS,
                (short) 4, new DescribeLogDirsRequestData().setTopics(topics));
        assertThat(response.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(response.results()).extracting(DescribeLogDirsResult::logDir)
                .containsExactly(name(logDir), name(otherDir));
        return response.results();
    }

    /** "topic-partition" of each partition a described log dir holds, in the answer's order. */
    private static List<String> partitionsIn(DescribeLogDirsResult dir) {
        List<String> partitions = new ArrayList<>();
        for (DescribeLogDirsTopic topic : dir.topics()) {
            for (DescribeLogDirsPartition partition : topic.partitions()) {
                partitions.add(topic.name() + "-" + partition.partitionIndex());
            }
        }
        return partitions;
    }

    private static String name(Path dir) {
        return dir.toAbsolutePath().normalize().toString();
    }

    /** AlterReplicaLogDirs of b-topic's partitions to {@code path}: each partition's error. */
    private List<Short> alter(String path, Integer... partitions) {
        AlterReplicaLogDirsResponseData response = (AlterReplicaLogDirsResponseData) handle(
                ApiKey.ALTER_REPLICA_LOG_DIRS, (short) 2, new AlterReplicaLogDirsRequestData().setDirs(List.of(
                        new AlterReplicaLogDir().setPath(path).setTopics(List.of(new AlterReplicaLogDirTopic()
                                .setName("b-topic").setPartitions(List.of(partitions)))))));
        assertThat(response.results()).singleElement()
                .satisfies(topic -> assertThat(topic.topicName()).isEqualTo("b-topic"));
        return response.results().get(0).partitions().stream().map(AlterReplicaLogDirPartitionResult::errorCode)
                .toList();
    }

    @Test
    void nullTopicsDescribesEveryPartitionOfEveryDirWithItsSize() {
        List<DescribeLogDirsResult> dirs = describe(null);

        // Placement puts a new partition in the dir holding the fewest.
        assertThat(partitionsIn(dirs.get(0))).containsExactly("a-topic-0", "b-topic-0");
        assertThat(partitionsIn(dirs.get(1))).containsExactly("b-topic-1");
        for (DescribeLogDirsResult dir : dirs) {
            assertThat(dir.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(dir.totalBytes()).isPositive();
            assertThat(dir.usableBytes()).isPositive();
            assertThat(dir.topics()).flatExtracting(DescribeLogDirsTopic::partitions).allSatisfy(partition -> {
                assertThat(partition.offsetLag()).isZero();
                assertThat(partition.isFutureKey()).isFalse();
            });
        }
        assertThat(dirs.get(0).topics().get(1).partitions().get(0).partitionSize()).isZero();
        assertThat(dirs.get(1).topics().get(0).partitions().get(0).partitionSize())
                .isEqualTo(fixture.log("b-topic", 1).sizeInBytes()).isPositive();
    }

    @Test
    void namedTopicsLimitTheAnswerAndUnknownOnesAreLeftOut() {
        List<DescribeLogDirsResult> dirs = describe(new ArrayList<>(List.of(
                new DescribableLogDirTopic().setTopic("b-topic").setPartitions(new ArrayList<>(List.of(1))),
                new DescribableLogDirTopic().setTopic("missing").setPartitions(new ArrayList<>(List.of(0))))));

        assertThat(partitionsIn(dirs.get(0))).isEmpty();
        assertThat(partitionsIn(dirs.get(1))).containsExactly("b-topic-1");
    }

    @Test
    void aReplicaMovesToTheDirNamedWithItsRecords() throws Exception {
        assertThat(fixture.log("b-topic", 1).dir().getParent()).isEqualTo(otherDir);
        long size = fixture.log("b-topic", 1).sizeInBytes();

        assertThat(alter(name(logDir), 1)).containsExactly(Errors.NONE.code());

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!fixture.log("b-topic", 1).dir().getParent().equals(logDir)) {
            assertThat(System.nanoTime()).as("b-topic-1 moved to " + logDir).isLessThan(deadline);
            Thread.sleep(10);
        }
        List<DescribeLogDirsResult> dirs = describe(null);
        assertThat(partitionsIn(dirs.get(0))).containsExactly("a-topic-0", "b-topic-0", "b-topic-1");
        assertThat(partitionsIn(dirs.get(1))).isEmpty();
        assertThat(dirs.get(0).topics().get(1).partitions().get(1).partitionSize()).isEqualTo(size);
        assertThat(fixture.log("b-topic", 1).logEndOffset()).isEqualTo(1);
        assertThat(alter(name(logDir), 1)).as("already there").containsExactly(Errors.NONE.code());
    }

    @Test
    void anUnknownDirAndAReplicaNotHostedAreRefusedWithKafkasErrors() {
        assertThat(alter(root.resolve("elsewhere").toString(), 0)).containsExactly(Errors.LOG_DIR_NOT_FOUND.code());
        assertThat(alter(name(otherDir), 7)).as("b-topic-7 is not on this broker")
                .containsExactly(Errors.REPLICA_NOT_AVAILABLE.code());
        assertThat(fixture.log("b-topic", 0).dir().getParent()).isEqualTo(logDir);
    }
}

package dev.spool.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.partition.PartitionManagerFixture;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.DescribeLogDirsRequestData;
import dev.spool.protocol.message.DescribeLogDirsRequestData.DescribableLogDirTopic;
import dev.spool.protocol.message.DescribeLogDirsResponseData;
import dev.spool.protocol.message.DescribeLogDirsResponseData.DescribeLogDirsPartition;
import dev.spool.protocol.message.DescribeLogDirsResponseData.DescribeLogDirsResult;
import dev.spool.protocol.message.DescribeLogDirsResponseData.DescribeLogDirsTopic;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogDirsHandlerTest {

    @TempDir
    Path logDir;

    private PartitionManagerFixture fixture;
    private LogDirsHandler handler;

    @BeforeEach
    void start() throws IOException {
        fixture = new PartitionManagerFixture(logDir);
        fixture.createTopic("b-topic", 2);
        fixture.createTopic("a-topic", 1);
        fixture.append("b-topic", 1, 100);
        handler = new LogDirsHandler(fixture.partitions(), Runnable::run);
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private DescribeLogDirsResult describe(List<DescribableLogDirTopic> topics) {
        DescribeLogDirsResponseData response = (DescribeLogDirsResponseData) handler.handle(
                new RequestContext(ApiKey.DESCRIBE_LOG_DIRS, (short) 4, 1, "test", null),
                new DescribeLogDirsRequestData().setTopics(topics)).join();
        assertThat(response.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(response.results()).hasSize(1);
        return response.results().get(0);
    }

    @Test
    void nullTopicsDescribesEveryPartitionWithItsSize() {
        DescribeLogDirsResult dir = describe(null);

        assertThat(dir.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(dir.logDir()).isEqualTo(logDir.toAbsolutePath().normalize().toString());
        assertThat(dir.totalBytes()).isPositive();
        assertThat(dir.usableBytes()).isPositive();
        assertThat(dir.topics()).extracting(DescribeLogDirsTopic::name).containsExactly("a-topic", "b-topic");
        List<DescribeLogDirsPartition> partitions = dir.topics().get(1).partitions();
        assertThat(partitions).extracting(DescribeLogDirsPartition::partitionIndex).containsExactly(0, 1);
        assertThat(partitions.get(0).partitionSize()).isZero();
        assertThat(partitions.get(1).partitionSize()).isEqualTo(fixture.log("b-topic", 1).sizeInBytes()).isPositive();
        assertThat(partitions).allSatisfy(partition -> {
            assertThat(partition.offsetLag()).isZero();
            assertThat(partition.isFutureKey()).isFalse();
        });
    }

    @Test
    void namedTopicsLimitTheAnswerAndUnknownOnesAreLeftOut() {
        DescribeLogDirsResult dir = describe(new ArrayList<>(List.of(
                new DescribableLogDirTopic().setTopic("b-topic").setPartitions(new ArrayList<>(List.of(1))),
                new DescribableLogDirTopic().setTopic("missing").setPartitions(new ArrayList<>(List.of(0))))));

        assertThat(dir.topics()).singleElement().satisfies(topic -> {
            assertThat(topic.name()).isEqualTo("b-topic");
            assertThat(topic.partitions()).extracting(DescribeLogDirsPartition::partitionIndex).containsExactly(1);
        });
    }
}

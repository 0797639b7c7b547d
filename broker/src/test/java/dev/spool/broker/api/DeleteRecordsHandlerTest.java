package dev.spool.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.metadata.ConfigResource;
import dev.spool.broker.partition.PartitionManagerFixture;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.DeleteRecordsRequestData;
import dev.spool.protocol.message.DeleteRecordsRequestData.DeleteRecordsPartition;
import dev.spool.protocol.message.DeleteRecordsRequestData.DeleteRecordsTopic;
import dev.spool.protocol.message.DeleteRecordsResponseData;
import dev.spool.protocol.message.DeleteRecordsResponseData.DeleteRecordsPartitionResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeleteRecordsHandlerTest {

    @TempDir
    Path logDir;

    private PartitionManagerFixture fixture;
    private DeleteRecordsHandler handler;

    @BeforeEach
    void start() throws IOException {
        fixture = new PartitionManagerFixture(logDir);
        fixture.createTopic("trimmed", 1);
        for (int i = 0; i < 10; i++) {
            fixture.append("trimmed", 0, 10);
        }
        handler = new DeleteRecordsHandler(fixture.partitions(), Runnable::run);
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private DeleteRecordsPartitionResult deleteBefore(String topic, int partition, long offset) {
        DeleteRecordsRequestData request = new DeleteRecordsRequestData().setTimeoutMs(1000).setTopics(new ArrayList<>(
                List.of(new DeleteRecordsTopic().setName(topic).setPartitions(new ArrayList<>(List.of(
                        new DeleteRecordsPartition().setPartitionIndex(partition).setOffset(offset)))))));
        DeleteRecordsResponseData response = (DeleteRecordsResponseData) handler.handle(
                new RequestContext(ApiKey.DELETE_RECORDS, (short) 2, 1, "test", null), request).join();
        return response.topics().get(0).partitions().get(0);
    }

    @Test
    void movesTheLogStartOffsetAndAnswersTheLowWatermark() {
        DeleteRecordsPartitionResult result = deleteBefore("trimmed", 0, 4);

        assertThat(result.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(result.lowWatermark()).isEqualTo(4);
        assertThat(fixture.log("trimmed", 0).logStartOffset()).isEqualTo(4);
        assertThat(deleteBefore("trimmed", 0, 2).lowWatermark()).as("never moves back").isEqualTo(4);
    }

    @Test
    void minusOneMeansTheHighWatermark() {
        assertThat(deleteBefore("trimmed", 0, -1).lowWatermark()).isEqualTo(10);
    }

    @Test
    void beyondTheHighWatermarkOrOtherNegativeOffsetsAreOutOfRange() {
        assertThat(deleteBefore("trimmed", 0, 11).errorCode()).isEqualTo(Errors.OFFSET_OUT_OF_RANGE.code());
        assertThat(deleteBefore("trimmed", 0, -2).errorCode()).isEqualTo(Errors.OFFSET_OUT_OF_RANGE.code());
        assertThat(fixture.log("trimmed", 0).logStartOffset()).isZero();
    }

    @Test
    void recordsOfInternalTopicsAreNotForClientsToDeleteButDoubleUnderscoreTopicsAreOrdinary() throws IOException {
        fixture.createTopic("__consumer_offsets", 1);
        fixture.append("__consumer_offsets", 0, 5);
        fixture.createTopic("__mine", 1);
        fixture.append("__mine", 0, 5);

        assertThat(deleteBefore("__consumer_offsets", 0, 1).errorCode()).isEqualTo(Errors.INVALID_TOPIC_EXCEPTION.code());
        assertThat(fixture.log("__consumer_offsets", 0).logStartOffset()).isZero();
        assertThat(deleteBefore("__mine", 0, 1).errorCode()).isEqualTo(Errors.NONE.code());
    }

    @Test
    void aCompactOnlyTopicIsAPolicyViolationWhileCompactAndDeleteLetsRecordsGo() {
        fixture.setConfig(ConfigResource.topic("trimmed"), "cleanup.policy", "compact");
        DeleteRecordsPartitionResult refused = deleteBefore("trimmed", 0, 4);

        assertThat(refused.errorCode()).isEqualTo(Errors.POLICY_VIOLATION.code());
        assertThat(refused.lowWatermark()).isEqualTo(-1);
        assertThat(fixture.log("trimmed", 0).logStartOffset()).isZero();
        fixture.setConfig(ConfigResource.topic("trimmed"), "cleanup.policy", "compact,delete");
        assertThat(deleteBefore("trimmed", 0, 4).lowWatermark()).isEqualTo(4);
    }

    @Test
    void unknownPartitionIsUnknownTopicOrPartition() {
        DeleteRecordsPartitionResult result = deleteBefore("trimmed", 1, 0);

        assertThat(result.errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertThat(result.lowWatermark()).isEqualTo(-1);
        assertThat(deleteBefore("missing", 0, 0).errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
    }
}

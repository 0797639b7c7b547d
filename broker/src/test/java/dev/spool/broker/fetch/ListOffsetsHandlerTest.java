package dev.spool.broker.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.api.RequestContext;
import dev.spool.broker.partition.Partition;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.ListOffsetsRequestData;
import dev.spool.protocol.message.ListOffsetsRequestData.ListOffsetsPartition;
import dev.spool.protocol.message.ListOffsetsRequestData.ListOffsetsTopic;
import dev.spool.protocol.message.ListOffsetsResponseData;
import dev.spool.protocol.message.ListOffsetsResponseData.ListOffsetsPartitionResponse;
import dev.spool.protocol.types.Uuid;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ListOffsetsHandlerTest {

    /** The replica id clients send. */
    private static final int CONSUMER = -1;

    @TempDir
    Path dir;

    private TestPartitions partitions;
    private ListOffsetsHandler handler;
    private Partition partition;

    @BeforeEach
    void setUp() throws IOException {
        partitions = new TestPartitions(dir);
        partition = partitions.create("t", 0, new Uuid(1L, 1L), 2);
        // Offsets 0-4 at times 1000-1004, 5-9 at 2000-2004 (2003 is the largest... until 10-14 at 1500-1504).
        TestPartitions.append(partition, 5, 10, 1000);
        TestPartitions.append(partition, 5, 10, 2000);
        TestPartitions.append(partition, 5, 10, 1500);
        handler = new ListOffsetsHandler(partitions);
    }

    @AfterEach
    void tearDown() throws IOException {
        partitions.close();
    }

    @Test
    void specialTimestamps() {
        assertThat(answer(-1)).as("latest").isEqualTo(offset(-1, 15, 2));
        assertThat(answer(-2)).as("earliest").isEqualTo(offset(-1, 0, 2));
        assertThat(answer(-3)).as("max timestamp").isEqualTo(offset(2004, 9, 2));
        assertThat(answer(-4)).as("earliest local").isEqualTo(offset(-1, 0, 2));
        assertThat(answer(-5)).as("latest tiered: no tiered storage").isEqualTo(offset(-1, -1, -1));
    }

    @Test
    void byTimestampFindsTheFirstRecordAtOrAfterIt() {
        assertThat(answer(0)).isEqualTo(offset(1000, 0, 2));
        assertThat(answer(1003)).isEqualTo(offset(1003, 3, 2));
        assertThat(answer(1005)).isEqualTo(offset(2000, 5, 2));
        assertThat(answer(2004)).isEqualTo(offset(2004, 9, 2));
        assertThat(answer(2005)).as("after every record").isEqualTo(offset(-1, -1, -1));
    }

    @Test
    void offsetsAtOrAboveTheHighWatermarkAreNotVisible() throws IOException {
        partition.log().updateHighWatermark(5);

        assertThat(answer(-1)).isEqualTo(offset(-1, 5, 2));
        assertThat(answer(1005)).as("offset 5 is not committed yet").isEqualTo(offset(-1, -1, -1));
    }

    @Test
    void aFollowerIsAnsweredTheLogEndAsTheLatestOffset() throws IOException {
        partition.log().updateHighWatermark(5);

        assertThat(answer(-1, 2)).as("follower 2: where its fetch must reach").isEqualTo(offset(-1, 15, 2));
        assertThat(answer(-2, 2)).as("earliest: the log start").isEqualTo(offset(-1, 0, 2));
    }

    @Test
    void earliestFollowsTheLogStart() throws IOException {
        partition.log().deleteRecordsBefore(7);

        assertThat(answer(-2)).isEqualTo(offset(-1, 7, 2));
        assertThat(answer(0)).isEqualTo(offset(2002, 7, 2));
    }

    @Test
    void errors() {
        ListOffsetsResponseData response = list(new ListOffsetsTopic().setName("t").setPartitions(new ArrayList<>(
                List.of(new ListOffsetsPartition().setPartitionIndex(0).setCurrentLeaderEpoch(1).setTimestamp(-1),
                        new ListOffsetsPartition().setPartitionIndex(0).setTimestamp(-1),
                        new ListOffsetsPartition().setPartitionIndex(3).setTimestamp(-1)))));

        assertThat(response.topics().get(0).partitions()).extracting(ListOffsetsPartitionResponse::errorCode)
                .containsExactly(Errors.FENCED_LEADER_EPOCH.code(), Errors.INVALID_REQUEST.code(),
                        Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
    }

    private ListOffsetsPartitionResponse answer(long timestamp) {
        return answer(timestamp, CONSUMER);
    }

    private ListOffsetsPartitionResponse answer(long timestamp, int replicaId) {
        ListOffsetsPartitionResponse response = list(new ListOffsetsTopic().setName("t").setPartitions(
                new ArrayList<>(List.of(new ListOffsetsPartition().setPartitionIndex(0).setCurrentLeaderEpoch(2)
                        .setTimestamp(timestamp)))), replicaId).topics().get(0).partitions().get(0);
        assertThat(response.errorCode()).isEqualTo(Errors.NONE.code());
        return response;
    }

    private ListOffsetsResponseData list(ListOffsetsTopic topic) {
        return list(topic, CONSUMER);
    }

    private ListOffsetsResponseData list(ListOffsetsTopic topic, int replicaId) {
        return (ListOffsetsResponseData) handler.handle(new RequestContext(ApiKey.LIST_OFFSETS, (short) 11, 1, "test",
                null), new ListOffsetsRequestData().setReplicaId(replicaId)
                .setTopics(new ArrayList<>(List.of(topic)))).join();
    }

    private static ListOffsetsPartitionResponse offset(long timestamp, long offset, int leaderEpoch) {
        return new ListOffsetsPartitionResponse().setPartitionIndex(0).setErrorCode(Errors.NONE.code())
                .setTimestamp(timestamp).setOffset(offset).setLeaderEpoch(leaderEpoch);
    }
}

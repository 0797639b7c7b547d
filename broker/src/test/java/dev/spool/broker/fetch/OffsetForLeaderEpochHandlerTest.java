package dev.spool.broker.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.api.RequestContext;
import dev.spool.broker.partition.Partition;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.OffsetForLeaderEpochRequestData;
import dev.spool.protocol.message.OffsetForLeaderEpochRequestData.OffsetForLeaderPartition;
import dev.spool.protocol.message.OffsetForLeaderEpochRequestData.OffsetForLeaderTopic;
import dev.spool.protocol.message.OffsetForLeaderEpochResponseData;
import dev.spool.protocol.message.OffsetForLeaderEpochResponseData.EpochEndOffset;
import dev.spool.protocol.types.Uuid;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OffsetForLeaderEpochHandlerTest {

    @TempDir
    Path dir;

    /** Epoch 2 started at offset 10, epoch 5 at 30; the log ends at 50. */
    private static final Map<Integer, Long> EPOCHS = Map.of(2, 10L, 5, 30L);

    @Test
    void endOfAnEpochIsTheStartOfTheNextLargerOne() {
        assertThat(OffsetForLeaderEpochHandler.endOffsetFor(2, EPOCHS, 5, 50)).containsExactly(2, 30);
        assertThat(OffsetForLeaderEpochHandler.endOffsetFor(3, EPOCHS, 5, 50)).as("an epoch without records")
                .containsExactly(2, 30);
        assertThat(OffsetForLeaderEpochHandler.endOffsetFor(1, EPOCHS, 5, 50)).as("before every known epoch")
                .containsExactly(1, 10);
    }

    @Test
    void theLatestEpochEndsAtTheLogEnd() {
        assertThat(OffsetForLeaderEpochHandler.endOffsetFor(5, EPOCHS, 5, 50)).containsExactly(5, 50);
    }

    @Test
    void theCurrentEpochCountsEvenBeforeItsFirstRecord() {
        assertThat(OffsetForLeaderEpochHandler.endOffsetFor(5, EPOCHS, 7, 50)).containsExactly(5, 50);
        assertThat(OffsetForLeaderEpochHandler.endOffsetFor(7, EPOCHS, 7, 50)).containsExactly(7, 50);
        assertThat(OffsetForLeaderEpochHandler.endOffsetFor(0, Map.of(), 0, 0)).containsExactly(0, 0);
    }

    @Test
    void unknownEpochs() {
        assertThat(OffsetForLeaderEpochHandler.endOffsetFor(6, EPOCHS, 5, 50)).containsExactly(-1, -1);
        assertThat(OffsetForLeaderEpochHandler.endOffsetFor(-1, EPOCHS, 5, 50)).containsExactly(-1, -1);
    }

    @Test
    void answersFromThePartitionsLeaderEpochCache() throws IOException {
        try (TestPartitions partitions = new TestPartitions(dir)) {
            Partition partition = partitions.create("t", 0, new Uuid(1L, 1L), 0);
            TestPartitions.append(partition, 4, 10, 0);
            OffsetForLeaderEpochHandler handler = new OffsetForLeaderEpochHandler(partitions);

            OffsetForLeaderEpochResponseData response = ask(handler,
                    new OffsetForLeaderPartition().setPartition(0).setCurrentLeaderEpoch(0).setLeaderEpoch(0),
                    new OffsetForLeaderPartition().setPartition(0).setCurrentLeaderEpoch(1).setLeaderEpoch(0),
                    new OffsetForLeaderPartition().setPartition(1).setLeaderEpoch(0));

            List<EpochEndOffset> answers = response.topics().get(0).partitions();
            assertThat(answers.get(0).errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(answers.get(0).leaderEpoch()).isZero();
            assertThat(answers.get(0).endOffset()).isEqualTo(4);
            assertThat(answers.get(1).errorCode()).isEqualTo(Errors.UNKNOWN_LEADER_EPOCH.code());
            assertThat(answers.get(2).errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        }
    }

    @Test
    void onlyTheLeaderAnswers() throws IOException {
        try (TestPartitions partitions = new TestPartitions(dir)) {
            Partition followed = partitions.create("t", 0, new Uuid(1L, 1L), 0, 2);
            OffsetForLeaderEpochHandler handler = new OffsetForLeaderEpochHandler(partitions);

            OffsetForLeaderEpochResponseData response = ask(handler,
                    new OffsetForLeaderPartition().setPartition(0).setCurrentLeaderEpoch(0).setLeaderEpoch(0));

            assertThat(followed.log().logEndOffset()).as("a follower's log, behind its leader's").isZero();
            assertThat(response.topics().get(0).partitions().get(0).errorCode())
                    .isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER.code());
        }
    }

    /** A consumer's OffsetForLeaderEpoch v4 for partitions of topic "t". */
    private static OffsetForLeaderEpochResponseData ask(OffsetForLeaderEpochHandler handler,
                                                        OffsetForLeaderPartition... partitions) {
        return (OffsetForLeaderEpochResponseData) handler.handle(
                new RequestContext(ApiKey.OFFSET_FOR_LEADER_EPOCH, (short) 4, 1, "test", null),
                new OffsetForLeaderEpochRequestData().setReplicaId(-1).setTopics(new ArrayList<>(List.of(
                        new OffsetForLeaderTopic().setTopic("t").setPartitions(new ArrayList<>(List.of(partitions)))))))
                .join();
    }
}

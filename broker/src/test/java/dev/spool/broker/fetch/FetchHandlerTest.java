package dev.spool.broker.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.api.RequestContext;
import dev.spool.broker.partition.Partition;
import dev.spool.broker.purgatory.ManualWaitTimer;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.FetchRequestData;
import dev.spool.protocol.message.FetchRequestData.FetchPartition;
import dev.spool.protocol.message.FetchRequestData.FetchTopic;
import dev.spool.protocol.message.FetchResponseData;
import dev.spool.protocol.message.FetchResponseData.PartitionData;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.Uuid;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FetchHandlerTest {

    private static final Uuid TOPIC_ID = new Uuid(3L, 4L);

    @TempDir
    Path dir;

    private TestPartitions partitions;
    /** Parked fetches are checked and time out only when the test says so: no test sleeps. */
    private final ManualWaitTimer waits = new ManualWaitTimer();
    private FetchHandler handler;
    private Partition p0;
    private Partition p1;

    @BeforeEach
    void setUp() throws IOException {
        partitions = new TestPartitions(dir);
        p0 = partitions.create("t", 0, TOPIC_ID, 0);
        p1 = partitions.create("t", 1, TOPIC_ID, 0);
        handler = new FetchHandler(partitions, new FetchSessionCache(10, FetchSessionCache.DEFAULT_EVICTION_MS),
                partitions.clock::nowMs, waits);
    }

    @AfterEach
    void tearDown() throws IOException {
        handler.close();
        partitions.close();
    }

    @Test
    void answersAtOnceWhenMinBytesAreThere() throws Exception {
        TestPartitions.append(p0, 3, 10, 0);

        FetchResponseData response = fetch(request(0, -1, 10_000, 1, 0, 0), 12).get(1, TimeUnit.SECONDS);

        PartitionData partition = response.responses().get(0).partitions().get(0);
        assertThat(partition.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(partition.highWatermark()).isEqualTo(3);
        assertThat(partition.lastStableOffset()).isEqualTo(3);
        assertThat(partition.logStartOffset()).isZero();
        assertThat(partition.preferredReadReplica()).isEqualTo(-1);
        assertThat(partition.abortedTransactions()).as("read_uncommitted").isNull();
        assertThat(partition.records().sizeInBytes()).isPositive();
        assertThat(response.responses().get(0).topic()).isEqualTo("t");
    }

    @Test
    void aParkedFetchIsAnsweredByTheNextAppend() throws Exception {
        CompletableFuture<FetchResponseData> answer = fetch(request(0, -1, 30_000, 1, 0, 0), 12);
        waits.runPending();
        assertThat(answer).as("nothing to read yet").isNotDone();

        TestPartitions.append(p1, 2, 10, 0);
        waits.runPending();
        FetchResponseData response = answer.getNow(null);

        assertThat(response).as("answered by the check the append queued, before any timeout").isNotNull();
        assertThat(waits.liveTimeouts()).as("its timeout cancelled").isZero();
        assertThat(p0.appendListenerCount() + p1.appendListenerCount()).as("no listener left behind").isZero();
        assertThat(response.responses().get(0).partitions()).extracting(p -> p.records().sizeInBytes())
                .satisfiesExactly(bytes -> assertThat(bytes).isZero(), bytes -> assertThat(bytes).isPositive());
    }

    /**
     * A follower's fetch parked at the leader's log end is answered by the next append, which the high watermark does
     * not cover yet: the follower's next fetch is what moves it (acks=all waits for that).
     */
    @Test
    void aFollowersParkedFetchIsAnsweredByTheNextAppendBeforeItIsCommitted() throws Exception {
        Uuid replicatedId = new Uuid(5L, 6L);
        Partition replicated = partitions.createReplicated("r", 0, replicatedId, 0, List.of(1, 2));
        FetchRequestData request = new FetchRequestData().setReplicaId(-1)
                .setReplicaState(new FetchRequestData.ReplicaState().setReplicaId(2).setReplicaEpoch(-1))
                .setMaxWaitMs(30_000).setMinBytes(1).setMaxBytes(1 << 20).setSessionId(0).setSessionEpoch(-1)
                .setTopics(new ArrayList<>(List.of(new FetchTopic().setTopicId(replicatedId).setPartitions(
                        new ArrayList<>(List.of(new FetchPartition().setPartition(0).setFetchOffset(0)
                                .setCurrentLeaderEpoch(0).setPartitionMaxBytes(1 << 20)))))));
        CompletableFuture<FetchResponseData> answer = fetch(request, 15);
        waits.runPending();
        assertThat(answer).as("nothing past the follower's log end yet").isNotDone();

        TestPartitions.appendUncommitted(replicated, 2, 10);
        waits.runPending();
        FetchResponseData response = answer.getNow(null);

        assertThat(replicated.log().highWatermark()).as("not committed").isZero();
        assertThat(response).as("answered by the append, before any timeout").isNotNull();
        assertThat(response.responses().get(0).partitions().get(0).records().sizeInBytes()).isPositive();
    }

    @Test
    void aParkedFetchWithoutDataIsAnsweredAfterMaxWait() throws Exception {
        CompletableFuture<FetchResponseData> answer = fetch(request(0, -1, 200, 1, 0, 0), 12);
        waits.advance(199);
        assertThat(answer).as("before max_wait_ms").isNotDone();
        waits.advance(1);

        FetchResponseData response = answer.getNow(null);
        assertThat(response).as("at max_wait_ms").isNotNull();
        assertThat(p0.appendListenerCount() + p1.appendListenerCount()).as("no listener left behind").isZero();
        assertThat(response.responses().get(0).partitions()).allSatisfy(p -> {
            assertThat(p.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(p.records().sizeInBytes()).isZero();
        });
    }

    @Test
    void manyShortWaitsLeaveNoListenerBehind() throws Exception {
        List<CompletableFuture<FetchResponseData>> answers = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            answers.add(fetch(request(0, -1, 1 + i % 3, 1, p0.log().logEndOffset(), p1.log().logEndOffset()), 12));
            if (i % 50 == 0) {
                TestPartitions.append(p1, 1, 10, 0);
            }
        }
        waits.advance(3);
        assertThat(answers).allSatisfy(answer -> assertThat(answer).isDone());
        assertThat(waits.liveTimeouts()).isZero();

        assertThat(p0.appendListenerCount() + p1.appendListenerCount()).isZero();
    }

    @Test
    void minBytesWaitsForEnoughAppends() throws Exception {
        TestPartitions.append(p0, 1, 10, 0);
        int oneBatch = (int) p0.log().sizeInBytes();
        CompletableFuture<FetchResponseData> answer = fetch(request(0, -1, 30_000, 2 * oneBatch, 0, 0), 12);
        waits.runPending();
        assertThat(answer).isNotDone();

        TestPartitions.append(p1, 1, 10, 0);
        waits.runPending();

        assertThat(answer.getNow(null).responses().get(0).partitions())
                .extracting(p -> p.records().sizeInBytes()).containsExactly(oneBatch, oneBatch);
    }

    @Test
    void aParkedFetchCountsAppendedBytesAndReadsTheLogOnlyToAnswer() throws Exception {
        TestPartitions.append(p0, 1, 10, 0);
        int oneBatch = (int) p0.log().sizeInBytes();
        CompletableFuture<FetchResponseData> answer = fetch(request(0, -1, 30_000, 4 * oneBatch, 0, 0), 12);
        int lookupsOfTheFirstRead = partitions.lookups.get();

        TestPartitions.append(p1, 1, 10, 0);
        waits.runPending();
        TestPartitions.append(p1, 1, 10, 0);
        waits.runPending();
        assertThat(answer).as("3 of 4 batches").isNotDone();
        assertThat(partitions.lookups.get()).as("appends short of min_bytes read nothing").isEqualTo(lookupsOfTheFirstRead);

        TestPartitions.append(p0, 1, 10, 0);
        waits.runPending();

        assertThat(answer.getNow(null).responses().get(0).partitions())
                .extracting(p -> p.records().sizeInBytes()).containsExactly(2 * oneBatch, 2 * oneBatch);
        assertThat(partitions.lookups.get()).as("one read to answer").isEqualTo(2 * lookupsOfTheFirstRead);
    }

    @Test
    void anErrorAnswersAtOnce() throws Exception {
        FetchResponseData response = fetch(request(0, -1, 30_000, 1, 0, 5), 12).get(1, TimeUnit.SECONDS);

        assertThat(response.responses().get(0).partitions()).extracting(PartitionData::errorCode)
                .containsExactly(Errors.NONE.code(), Errors.OFFSET_OUT_OF_RANGE.code());
    }

    @Test
    void incrementalResponsesCarryOnlyChangedPartitions() throws Exception {
        TestPartitions.append(p0, 2, 10, 0);
        FetchResponseData full = fetch(request(0, 0, 0, 1, 0, 0), 12).get(1, TimeUnit.SECONDS);
        int sessionId = full.sessionId();
        assertThat(sessionId).isPositive();
        assertThat(full.responses().get(0).partitions()).hasSize(2);

        FetchRequestData next = request(sessionId, 1, 0, 1, 0, 0);
        next.topics().get(0).partitions().remove(1);
        next.topics().get(0).partitions().get(0).setFetchOffset(2);
        FetchResponseData nothingNew = fetch(next, 12).get(1, TimeUnit.SECONDS);
        assertThat(nothingNew.sessionId()).isEqualTo(sessionId);
        assertThat(nothingNew.responses()).as("no partition changed").isEmpty();

        TestPartitions.append(p1, 1, 10, 0);
        FetchResponseData p1Changed = fetch(new FetchRequestData().setSessionId(sessionId).setSessionEpoch(2)
                .setMaxBytes(1 << 20).setMinBytes(1), 12).get(1, TimeUnit.SECONDS);
        assertThat(p1Changed.responses()).singleElement().satisfies(topic ->
                assertThat(topic.partitions()).singleElement().satisfies(p -> {
                    assertThat(p.partitionIndex()).isEqualTo(1);
                    assertThat(p.highWatermark()).isEqualTo(1);
                    assertThat(p.records().sizeInBytes()).isPositive();
                }));

        FetchResponseData badEpoch = fetch(new FetchRequestData().setSessionId(sessionId).setSessionEpoch(2), 12)
                .get(1, TimeUnit.SECONDS);
        assertThat(badEpoch.errorCode()).isEqualTo(Errors.INVALID_FETCH_SESSION_EPOCH.code());
        assertThat(badEpoch.sessionId()).isZero();
    }

    @Test
    void topicIdsFromVersion13() throws Exception {
        TestPartitions.append(p0, 1, 10, 0);
        FetchRequestData request = new FetchRequestData().setMaxBytes(1 << 20).setSessionEpoch(-1)
                .setTopics(new ArrayList<>(List.of(
                        new FetchTopic().setTopicId(TOPIC_ID).setPartitions(new ArrayList<>(List.of(
                                new FetchPartition().setPartition(0).setPartitionMaxBytes(1 << 20)))),
                        new FetchTopic().setTopicId(new Uuid(9L, 9L)).setPartitions(new ArrayList<>(List.of(
                                new FetchPartition().setPartition(0).setPartitionMaxBytes(1 << 20)))))));

        FetchResponseData response = fetch(request, 13).get(1, TimeUnit.SECONDS);

        assertThat(response.responses()).hasSize(2);
        assertThat(response.responses().get(0).topicId()).isEqualTo(TOPIC_ID);
        assertThat(response.responses().get(0).partitions().get(0).records().sizeInBytes()).isPositive();
        assertThat(response.responses().get(1).partitions().get(0).errorCode())
                .isEqualTo(Errors.UNKNOWN_TOPIC_ID.code());
    }

    @Test
    void aReplicaThatDoesNotLeadNamesTheLeader() throws Exception {
        partitions.create("followed", 0, new Uuid(9L, 9L), 4, 2);
        FetchRequestData request = new FetchRequestData().setSessionId(0).setSessionEpoch(-1).setMaxWaitMs(0)
                .setMinBytes(1).setMaxBytes(1 << 20).setTopics(new ArrayList<>(List.of(new FetchTopic()
                        .setTopic("followed").setPartitions(new ArrayList<>(List.of(new FetchPartition()
                                .setPartition(0).setFetchOffset(0).setPartitionMaxBytes(1 << 20)))))));
        FetchResponseData.PartitionData answer = fetch(request, 12).get(10, TimeUnit.SECONDS).responses().get(0)
                .partitions().get(0);
        assertThat(answer.errorCode()).isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER.code());
        assertThat(answer.currentLeader().leaderId()).as("where the leader is (KIP-951)").isEqualTo(2);
        assertThat(answer.currentLeader().leaderEpoch()).isEqualTo(4);
    }

    private CompletableFuture<FetchResponseData> fetch(FetchRequestData request, int version) {
        CompletableFuture<Message> answer = handler.handle(new RequestContext(ApiKey.FETCH, (short) version, 1,
                "test", null), request);
        return answer.thenApply(FetchResponseData.class::cast);
    }

    /** A fetch of partitions 0 and 1 of "t" at the given offsets. */
    private static FetchRequestData request(int sessionId, int epoch, int maxWaitMs, int minBytes, long offset0,
                                            long offset1) {
        return new FetchRequestData().setSessionId(sessionId).setSessionEpoch(epoch).setMaxWaitMs(maxWaitMs)
                .setMinBytes(minBytes).setMaxBytes(1 << 20)
                .setTopics(new ArrayList<>(List.of(new FetchTopic().setTopic("t").setPartitions(new ArrayList<>(List.of(
                        new FetchPartition().setPartition(0).setFetchOffset(offset0).setPartitionMaxBytes(1 << 20),
                        new FetchPartition().setPartition(1).setFetchOffset(offset1)
                                .setPartitionMaxBytes(1 << 20)))))));
    }
}

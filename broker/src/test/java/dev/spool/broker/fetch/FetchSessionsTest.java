package dev.spool.broker.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.protocol.Errors;
import dev.spool.protocol.message.FetchRequestData;
import dev.spool.protocol.message.FetchRequestData.FetchPartition;
import dev.spool.protocol.message.FetchRequestData.FetchTopic;
import dev.spool.protocol.message.FetchRequestData.ForgottenTopic;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fetch session protocol of KIP-227 as {@link FetchContext} and {@link FetchSessionCache} implement it. */
class FetchSessionsTest {

    private static final short V12 = 12;
    private static final short V13 = 13;
    private static final long EVICTION_MS = 120_000L;

    private final FetchSessionCache cache = new FetchSessionCache(3, EVICTION_MS);
    private long nowMs = 1_000_000L;

    @Test
    void sessionlessFullFetchCreatesNoSession() {
        FetchContext context = resolve(request(0, -1, "a", 0, 1), V12);

        assertThat(context.responseSessionId()).isZero();
        assertThat(context.session()).isNull();
        assertThat(context.incremental()).isFalse();
        assertThat(offsets(context)).containsExactly("a-0@10", "a-1@10");
        assertThat(cache.size()).isZero();
    }

    @Test
    void initialFullFetchOpensASessionThatExpectsEpochOne() {
        FetchContext context = resolve(request(0, 0, "a", 0, 1), V12);

        assertThat(context.responseSessionId()).isPositive();
        assertThat(context.session().nextEpoch()).isEqualTo(1);
        assertThat(context.incremental()).isFalse();
        assertThat(cache.get(context.responseSessionId())).isSameAs(context.session());
    }

    @Test
    void incrementalFetchUpdatesAddsAndForgetsPartitions() {
        int id = resolve(request(0, 0, "a", 0, 1, 2), V12).responseSessionId();
        FetchRequestData incremental = request(id, 1, "a", 1);
        incremental.topics().get(0).partitions().get(0).setFetchOffset(55);
        incremental.topics().add(topic("b", 0));
        incremental.setForgottenTopicsData(new ArrayList<>(List.of(new ForgottenTopic().setTopic("a")
                .setPartitions(new ArrayList<>(List.of(2))))));

        FetchContext context = resolve(incremental, V12);

        assertThat(context.error()).isEqualTo(Errors.NONE);
        assertThat(context.incremental()).isTrue();
        assertThat(context.responseSessionId()).isEqualTo(id);
        assertThat(offsets(context)).containsExactly("a-0@10", "a-1@55", "b-0@10");
        assertThat(context.session().nextEpoch()).isEqualTo(2);
    }

    @Test
    void wrongEpochAndUnknownSessionAreErrors() {
        int id = resolve(request(0, 0, "a", 0), V12).responseSessionId();

        assertThat(resolve(request(id, 2, "a", 0), V12).error()).isEqualTo(Errors.INVALID_FETCH_SESSION_EPOCH);
        assertThat(resolve(request(id + 1, 1, "a", 0), V12).error()).isEqualTo(Errors.FETCH_SESSION_ID_NOT_FOUND);
        assertThat(resolve(request(id, 1), V12).error()).as("the right epoch still works").isEqualTo(Errors.NONE);
        assertThat(resolve(request(id, 2), V12).error()).isEqualTo(Errors.NONE);
    }

    @Test
    void sessionOpenedWithTopicIdsRejectsNameRequests() {
        FetchRequestData byId = new FetchRequestData().setSessionId(0).setSessionEpoch(0)
                .setTopics(new ArrayList<>(List.of(new FetchTopic().setTopicId(new Uuid(1, 2))
                        .setPartitions(new ArrayList<>(List.of(new FetchPartition().setPartition(0)))))));
        int id = resolve(byId, V13).responseSessionId();

        assertThat(resolve(request(id, 1), V12).error()).isEqualTo(Errors.FETCH_SESSION_TOPIC_ID_ERROR);
    }

    @Test
    void finalEpochClosesTheSession() {
        int id = resolve(request(0, 0, "a", 0), V12).responseSessionId();

        FetchContext closing = resolve(request(id, -1, "a", 0), V12);

        assertThat(closing.responseSessionId()).isZero();
        assertThat(cache.get(id)).isNull();
    }

    @Test
    void aFullCacheEvictsAnIdleSessionFirst() {
        int first = resolve(request(0, 0, "a", 0, 1, 2), V12).responseSessionId();
        nowMs += EVICTION_MS / 2;
        int second = resolve(request(0, 0, "a", 0), V12).responseSessionId();
        int third = resolve(request(0, 0, "a", 0), V12).responseSessionId();
        nowMs += EVICTION_MS / 2;

        int fourth = resolve(request(0, 0, "a", 0), V12).responseSessionId();

        assertThat(fourth).isPositive();
        assertThat(cache.get(first)).as("idle for the eviction time").isNull();
        assertThat(cache.get(second)).isNotNull();
        assertThat(cache.get(third)).isNotNull();
    }

    @Test
    void aFullCacheWithoutIdleSessionsEvictsOnlyForALargerSession() {
        int oldest = resolve(request(0, 0, "a", 0, 1), V12).responseSessionId();
        int small = resolve(request(0, 0, "a", 0), V12).responseSessionId();
        resolve(request(0, 0, "a", 0, 1), V12);

        FetchContext sameSize = resolve(request(0, 0, "a", 0), V12);
        FetchContext larger = resolve(request(0, 0, "a", 0, 1, 2), V12);

        assertThat(sameSize.responseSessionId()).as("no slot: full fetches without a session").isZero();
        assertThat(larger.responseSessionId()).isPositive();
        assertThat(cache.get(oldest)).as("the least recently used smaller session").isNull();
        assertThat(cache.get(small)).isNotNull();
        assertThat(cache.size()).isEqualTo(3);
    }

    private FetchContext resolve(FetchRequestData request, short version) {
        return FetchContext.resolve(request, version, cache, nowMs);
    }

    private static List<String> offsets(FetchContext context) {
        return context.partitions().stream().map(FetchPartitionState::toString).toList();
    }

    private static FetchRequestData request(int sessionId, int epoch, String topic, int... partitions) {
        return new FetchRequestData().setSessionId(sessionId).setSessionEpoch(epoch)
                .setTopics(new ArrayList<>(List.of(topic(topic, partitions))));
    }

    private static FetchRequestData request(int sessionId, int epoch) {
        return new FetchRequestData().setSessionId(sessionId).setSessionEpoch(epoch);
    }

    private static FetchTopic topic(String name, int... partitions) {
        List<FetchPartition> list = new ArrayList<>();
        for (int partition : partitions) {
            list.add(new FetchPartition().setPartition(partition).setFetchOffset(10).setPartitionMaxBytes(1000));
        }
        return new FetchTopic().setTopic(name).setPartitions(list);
    }
}

package dev.spool.broker.group;

import static dev.spool.broker.group.ConsumerGroupHeartbeatsTest.GROUP;
import static dev.spool.broker.group.ConsumerGroupHeartbeatsTest.ORDERS;
import static dev.spool.broker.group.ConsumerGroupHeartbeatsTest.topic;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ConsumerGroupHeartbeatRequestData;
import dev.spool.protocol.message.ConsumerGroupHeartbeatResponseData;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Subscriptions by regular expression (KIP-848, RE2 syntax): what they match, as topics come, and after a replay. */
class ConsumerGroupRegexTest {

    private static final Uuid AUDIT = Uuid.randomUuid();

    private final ConsumerShardFixture fixture = new ConsumerShardFixture();
    private GroupCoordinatorShard shard;

    @BeforeEach
    void start() throws Exception {
        fixture.topics.put("orders", topic("orders", ORDERS, 2));
        fixture.topics.put("audit", topic("audit", AUDIT, 1));
        fixture.topics.put("__consumer_offsets", topic("__consumer_offsets", Uuid.randomUuid(), 1));
        shard = load();
    }

    @Test
    void aMemberGetsThePartitionsOfTheTopicsItsExpressionMatchesAndOfNewOnes() throws Exception {
        ConsumerGroupHeartbeatResponseData joined = heartbeat(regexJoin("m-1", "ord.*|__.*"));
        assertThat(joined.errorCode()).isZero();
        assertThat(topicIds(joined)).as("whole names, never internal topics").containsOnly(ORDERS);
        assertThat(shard.consumerGroup(GROUP, false).regex("ord.*|__.*").topics()).containsExactly("orders");

        Uuid eu = Uuid.randomUuid();
        fixture.topics.put("orders-eu", topic("orders-eu", eu, 1));
        ConsumerGroupHeartbeatResponseData grown = heartbeat(beat("m-1", joined.memberEpoch(), ORDERS, 0, 1));
        assertThat(grown.memberEpoch()).as("a new group epoch").isEqualTo(joined.memberEpoch() + 1);
        assertThat(topicIds(grown)).containsExactlyInAnyOrder(ORDERS, eu);

        ConsumerGroup reloaded = load().consumerGroup(GROUP, false);
        assertThat(reloaded.member("m-1").subscribedTopicRegex()).isEqualTo("ord.*|__.*");
        assertThat(reloaded.regex("ord.*|__.*").topics()).containsExactlyInAnyOrder("orders", "orders-eu");
        assertThat(reloaded.isSubscribedTo("orders-eu")).isTrue();
    }

    @Test
    void anExpressionNoMemberUsesAnyMoreIsForgotten() throws Exception {
        ConsumerGroupHeartbeatResponseData joined = heartbeat(regexJoin("m-1", "audit"));
        assertThat(topicIds(joined)).containsOnly(AUDIT);

        ConsumerGroupHeartbeatResponseData switched = heartbeat(beat("m-1", joined.memberEpoch(), AUDIT, 0)
                .setSubscribedTopicRegex("").setSubscribedTopicNames(List.of("orders")));
        assertThat(switched.errorCode()).isZero();
        assertThat(shard.consumerGroup(GROUP, false).groupEpoch()).as("a new subscription")
                .isGreaterThan(joined.memberEpoch());
        assertThat(shard.consumerGroup(GROUP, false).regexes()).isEmpty();
        assertThat(load().consumerGroup(GROUP, false).regexes()).isEmpty();
    }

    @Test
    void anExpressionStandsOnlyForTopicsTheHeartbeatingPrincipalMayDescribe() {
        Uuid secret = Uuid.randomUuid();
        fixture.topics.put("orders-secret", topic("orders-secret", secret, 1));

        ConsumerGroupHeartbeatResponseData joined = shard.consumerHeartbeats().heartbeat(regexJoin("m-1", "orders.*"),
                "client", "/127.0.0.1", topic -> !topic.equals("orders-secret"));

        assertThat(topicIds(joined)).containsOnly(ORDERS);
        assertThat(shard.consumerGroup(GROUP, false).regex("orders.*").topics()).containsExactly("orders");
        ConsumerGroupHeartbeatResponseData other = heartbeat(regexJoin("m-2", "orders.*"));
        assertThat(other.errorCode()).isZero();
        assertThat(shard.consumerGroup(GROUP, false).regex("orders.*").topics())
                .as("kept while the topics it matches are the same").containsExactly("orders");
    }

    @Test
    void anExpressionThatIsNotRe2IsRefusedAsKafkaRefusesIt() {
        ConsumerGroupHeartbeatResponseData refused = heartbeat(regexJoin("m-1", "orders(?=-eu)"));

        assertThat(refused.errorCode()).isEqualTo(Errors.INVALID_REGULAR_EXPRESSION.code());
        assertThat(refused.errorMessage()).contains("orders(?=-eu)");
        assertThat(shard.consumerGroup(GROUP, false)).isNull();
    }

    private GroupCoordinatorShard load() throws Exception {
        return fixture.load(ShardFixture.settings(0, Integer.MAX_VALUE));
    }

    private ConsumerGroupHeartbeatResponseData heartbeat(ConsumerGroupHeartbeatRequestData request) {
        return shard.consumerHeartbeats().heartbeat(request, "client", "/127.0.0.1");
    }

    private static ConsumerGroupHeartbeatRequestData regexJoin(String memberId, String regex) {
        return new ConsumerGroupHeartbeatRequestData().setGroupId(GROUP).setMemberId(memberId).setMemberEpoch(0)
                .setRebalanceTimeoutMs(300_000).setSubscribedTopicRegex(regex).setTopicPartitions(List.of());
    }

    private static ConsumerGroupHeartbeatRequestData beat(String memberId, int epoch, Uuid topicId,
                                                          Integer... owned) {
        return new ConsumerGroupHeartbeatRequestData().setGroupId(GROUP).setMemberId(memberId).setMemberEpoch(epoch)
                .setRebalanceTimeoutMs(-1).setTopicPartitions(List.of(new ConsumerGroupHeartbeatRequestData
                        .TopicPartitions().setTopicId(topicId).setPartitions(List.of(owned))));
    }

    private static Set<Uuid> topicIds(ConsumerGroupHeartbeatResponseData answer) {
        List<Uuid> ids = new ArrayList<>();
        answer.assignment().topicPartitions().forEach(owned -> ids.add(owned.topicId()));
        return Set.copyOf(ids);
    }
}

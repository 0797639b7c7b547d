package dev.spool.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.protocol.Errors;
import dev.spool.protocol.message.JoinGroupResponseData;
import dev.spool.protocol.message.JoinGroupResponseData.JoinGroupResponseMember;
import dev.spool.protocol.message.SyncGroupResponseData;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class ClassicGroupMembershipTest {

    private static final String GROUP = "orders";

    @Test
    void aNewDynamicMemberIsToldItsIdFirstAndThenJoinsWithIt() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));

        JoinGroupResponseData first = fixture.join(GROUP, "", null, (short) 9, "range").join();
        assertThat(first.errorCode()).isEqualTo(Errors.MEMBER_ID_REQUIRED.code());
        assertThat(first.memberId()).startsWith("client-");

        JoinGroupResponseData joined = fixture.join(GROUP, first.memberId(), null, (short) 9, "range").join();
        assertThat(joined.errorCode()).isZero();
        assertThat(joined.generationId()).isEqualTo(1);
        assertThat(joined.leader()).isEqualTo(first.memberId());
        assertThat(joined.protocolName()).isEqualTo("range");
        assertThat(joined.members()).extracting(JoinGroupResponseMember::memberId).containsExactly(first.memberId());
        assertThat(fixture.shard.group(GROUP).state()).isEqualTo(GroupState.COMPLETING_REBALANCE);
    }

    @Test
    void beforeVersionFourAMemberJoinsWithoutTheRoundTrip() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));

        JoinGroupResponseData joined = fixture.join(GROUP, "", null, (short) 3, "range").join();

        assertThat(joined.errorCode()).isZero();
        assertThat(joined.memberId()).isNotEmpty();
    }

    @Test
    void theInitialDelayGathersMembersIntoOneGenerationWithoutSleeping() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(3000, Integer.MAX_VALUE));

        CompletableFuture<JoinGroupResponseData> a = fixture.joinNew(GROUP);
        fixture.timer.advance(2000);
        CompletableFuture<JoinGroupResponseData> b = fixture.joinNew(GROUP);
        fixture.timer.advance(2000);
        CompletableFuture<JoinGroupResponseData> c = fixture.joinNew(GROUP);
        assertThat(a).isNotDone();
        // Each delay in which someone joined is followed by another; one without a join ends it.
        fixture.timer.advance(3000);
        assertThat(a).isNotDone();
        fixture.timer.advance(3000);

        assertThat(List.of(a.join(), b.join(), c.join())).allSatisfy(response -> {
            assertThat(response.errorCode()).isZero();
            assertThat(response.generationId()).isEqualTo(1);
        });
        JoinGroupResponseData leader = a.join().memberId().equals(a.join().leader()) ? a.join() : null;
        assertThat(leader).isNotNull();
        assertThat(leader.members()).hasSize(3);
        assertThat(b.join().members()).isEmpty();
    }

    @Test
    void theLeadersAssignmentReachesEveryMemberAndTheGroupIsStable() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        String[] members = stableGroupOfTwo(fixture);

        assertThat(fixture.shard.group(GROUP).state()).isEqualTo(GroupState.STABLE);
        SyncGroupResponseData again = fixture.sync(GROUP, 2, members[1], Map.of()).join();
        assertThat(new String(again.assignment(), StandardCharsets.UTF_8)).isEqualTo("for-" + members[1]);
        assertThat(fixture.heartbeat(GROUP, 2, members[0])).isEqualTo(Errors.NONE);
    }

    @Test
    void aFollowerSyncIsParkedUntilTheLeaderSyncs() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        JoinGroupResponseData a = fixture.joinNew(GROUP).join();
        CompletableFuture<JoinGroupResponseData> bJoin = fixture.joinNew(GROUP);
        JoinGroupResponseData aAgain = fixture.join(GROUP, a.memberId(), null, (short) 9, "range").join();
        JoinGroupResponseData b = bJoin.join();
        String leader = aAgain.leader();
        String follower = leader.equals(a.memberId()) ? b.memberId() : a.memberId();

        CompletableFuture<SyncGroupResponseData> followerSync = fixture.sync(GROUP, 2, follower, Map.of());
        assertThat(followerSync).isNotDone();
        fixture.sync(GROUP, 2, leader, Map.of(follower, "x")).join();

        assertThat(new String(followerSync.join().assignment(), StandardCharsets.UTF_8)).isEqualTo("x");
    }

    @Test
    void aMemberThatStopsHeartbeatingIsRemovedAfterItsSessionTimeoutAndTheOthersRebalance() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        String[] members = stableGroupOfTwo(fixture);

        fixture.timer.advance(ShardFixture.SESSION_TIMEOUT_MS / 2);
        assertThat(fixture.heartbeat(GROUP, 2, members[0])).isEqualTo(Errors.NONE);
        fixture.timer.advance(ShardFixture.SESSION_TIMEOUT_MS / 2 + 1);

        ClassicGroup group = fixture.shard.group(GROUP);
        assertThat(group.hasMember(members[1])).isFalse();
        assertThat(group.state()).isEqualTo(GroupState.PREPARING_REBALANCE);
        assertThat(fixture.heartbeat(GROUP, 2, members[0])).isEqualTo(Errors.REBALANCE_IN_PROGRESS);
        JoinGroupResponseData rejoined = fixture.join(GROUP, members[0], null, (short) 9, "range").join();
        assertThat(rejoined.generationId()).isEqualTo(3);
        assertThat(rejoined.members()).extracting(JoinGroupResponseMember::memberId).containsExactly(members[0]);
        assertThat(fixture.heartbeat(GROUP, 2, members[0])).isEqualTo(Errors.ILLEGAL_GENERATION);
        assertThat(fixture.heartbeat(GROUP, 3, members[1])).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
    }

    @Test
    void aMemberThatDoesNotRejoinWithinTheRebalanceTimeoutIsDropped() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        String[] members = stableGroupOfTwo(fixture);

        CompletableFuture<JoinGroupResponseData> rejoin = fixture.join(GROUP, members[0], null, (short) 9, "range");
        for (int elapsed = 0; elapsed < ShardFixture.REBALANCE_TIMEOUT_MS; elapsed += 5000) {
            // members[1] keeps heartbeating but never rejoins.
            fixture.heartbeat(GROUP, 2, members[1]);
            fixture.timer.advance(5000);
        }

        assertThat(rejoin.join().generationId()).isEqualTo(3);
        assertThat(fixture.shard.group(GROUP).hasMember(members[1])).isFalse();
    }

    @Test
    void leavingTriggersARebalanceAndTheLastLeaverEmptiesTheGroup() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        String[] members = stableGroupOfTwo(fixture);

        assertThat(fixture.leave(GROUP, members[1]).members().get(0).errorCode()).isZero();
        assertThat(fixture.shard.group(GROUP).state()).isEqualTo(GroupState.PREPARING_REBALANCE);
        assertThat(fixture.leave(GROUP, "nobody").members().get(0).errorCode())
                .isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        fixture.leave(GROUP, members[0]);

        ClassicGroup group = fixture.shard.group(GROUP);
        assertThat(group.state()).isEqualTo(GroupState.EMPTY);
        assertThat(group.generationId()).isEqualTo(3);
    }

    @Test
    void syncAndHeartbeatCheckGenerationAndMember() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        String[] members = stableGroupOfTwo(fixture);

        assertThat(fixture.sync(GROUP, 1, members[0], Map.of()).join().errorCode())
                .isEqualTo(Errors.ILLEGAL_GENERATION.code());
        assertThat(fixture.sync(GROUP, 2, "stranger", Map.of()).join().errorCode())
                .isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        assertThat(fixture.heartbeat("no-such-group", 1, members[0])).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        assertThat(fixture.join(GROUP, "stranger", null, (short) 9, "range").join().errorCode())
                .isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
    }

    @Test
    void aMemberWithNoProtocolInCommonIsRefused() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        stableGroupOfTwo(fixture);

        JoinGroupResponseData refused = fixture.join(GROUP, "", null, (short) 3, "roundrobin").join();

        assertThat(refused.errorCode()).isEqualTo(Errors.INCONSISTENT_GROUP_PROTOCOL.code());
    }

    @Test
    void theProtocolMostMembersPreferWins() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));

        CompletableFuture<JoinGroupResponseData> a = fixture.join(GROUP, "", null, (short) 3, "roundrobin", "range");
        JoinGroupResponseData result = a.join();

        assertThat(result.protocolName()).isEqualTo("roundrobin");
    }

    @Test
    void aFullGroupRefusesNewMembers() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, 2));
        stableGroupOfTwo(fixture);

        JoinGroupResponseData refused = fixture.join(GROUP, "", null, (short) 9, "range").join();

        assertThat(refused.errorCode()).isEqualTo(Errors.GROUP_MAX_SIZE_REACHED.code());
    }

    @Test
    void aStaticMemberThatRestartsTakesItsPlaceAndFencesItsOldSelf() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        JoinGroupResponseData a1 = fixture.join(GROUP, "", "instance-a", (short) 9, "range").join();
        CompletableFuture<JoinGroupResponseData> bJoin = fixture.join(GROUP, "", "instance-b", (short) 9, "range");
        assertThat(bJoin).isNotDone();
        JoinGroupResponseData a2 = fixture.join(GROUP, a1.memberId(), "instance-a", (short) 9, "range").join();
        String oldB = bJoin.join().memberId();
        assertThat(a2.leader()).isEqualTo(a1.memberId());
        fixture.sync(GROUP, a2.generationId(), a1.memberId(), Map.of(oldB, "b-part")).join();

        JoinGroupResponseData restartedB = fixture.join(GROUP, "", "instance-b", (short) 9, "range").join();

        assertThat(restartedB.errorCode()).isZero();
        assertThat(restartedB.memberId()).isNotEqualTo(oldB).startsWith("instance-b-");
        assertThat(restartedB.generationId()).isEqualTo(a2.generationId());
        assertThat(fixture.shard.group(GROUP).state()).isEqualTo(GroupState.STABLE);
        SyncGroupResponseData synced = fixture.sync(GROUP, restartedB.generationId(), restartedB.memberId(), Map.of())
                .join();
        assertThat(new String(synced.assignment(), StandardCharsets.UTF_8)).isEqualTo("b-part");
        assertThat(fixture.shard.membership().heartbeat(new dev.spool.protocol.message.HeartbeatRequestData()
                .setGroupId(GROUP).setGenerationId(restartedB.generationId()).setMemberId(oldB)
                .setGroupInstanceId("instance-b"))).isEqualTo(Errors.FENCED_INSTANCE_ID);
    }

    @Test
    void aRestartedStaticLeaderKeepsTheGenerationAndIsToldToSkipTheAssignment() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        JoinGroupResponseData first = fixture.join(GROUP, "", "instance-a", (short) 9, "range").join();
        fixture.sync(GROUP, 1, first.memberId(), Map.of(first.memberId(), "all")).join();

        JoinGroupResponseData restarted = fixture.join(GROUP, "", "instance-a", (short) 9, "range").join();

        assertThat(restarted.generationId()).isEqualTo(1);
        assertThat(restarted.leader()).isEqualTo(restarted.memberId());
        assertThat(restarted.skipAssignment()).isTrue();
        assertThat(restarted.members()).extracting(JoinGroupResponseMember::groupInstanceId)
                .containsExactly("instance-a");
        SyncGroupResponseData synced = fixture.sync(GROUP, 1, restarted.memberId(), Map.of()).join();
        assertThat(new String(synced.assignment(), StandardCharsets.UTF_8)).isEqualTo("all");
        assertThat(fixture.shard.group(GROUP).state()).isEqualTo(GroupState.STABLE);
    }

    @Test
    void anUnansweredMemberIdExpiresAfterTheSessionTimeout() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        JoinGroupResponseData first = fixture.join(GROUP, "", null, (short) 9, "range").join();

        fixture.timer.advance(ShardFixture.SESSION_TIMEOUT_MS + 1);

        assertThat(fixture.join(GROUP, first.memberId(), null, (short) 9, "range").join().errorCode())
                .isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
    }

    @Test
    void aSessionTimeoutOutsideTheBrokersBoundsIsRefused() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        dev.spool.protocol.message.JoinGroupRequestData data = new dev.spool.protocol.message.JoinGroupRequestData()
                .setGroupId(GROUP).setSessionTimeoutMs(1000).setRebalanceTimeoutMs(1000).setMemberId("")
                .setProtocolType("consumer").setProtocols(List.of());

        JoinGroupResponseData refused = fixture.shard.membership()
                .join(new ClassicGroupMembership.JoinRequest(data, (short) 9, "c", "h")).join();

        assertThat(refused.errorCode()).isEqualTo(Errors.INVALID_SESSION_TIMEOUT.code());
    }

    /** Two dynamic members, generation 2 (the second join rebalanced), synced: returns {leader, follower}. */
    static String[] stableGroupOfTwo(ShardFixture fixture) {
        JoinGroupResponseData a = fixture.joinNew(GROUP).join();
        assertThat(a.generationId()).isEqualTo(1);
        CompletableFuture<JoinGroupResponseData> bJoin = fixture.joinNew(GROUP);
        JoinGroupResponseData aAgain = fixture.join(GROUP, a.memberId(), null, (short) 9, "range").join();
        JoinGroupResponseData b = bJoin.join();
        assertThat(b.generationId()).isEqualTo(2);
        String leader = aAgain.leader();
        String follower = leader.equals(a.memberId()) ? b.memberId() : a.memberId();
        CompletableFuture<SyncGroupResponseData> followerSync = fixture.sync(GROUP, 2, follower, Map.of());
        fixture.sync(GROUP, 2, leader, Map.of(leader, "for-" + leader, follower, "for-" + follower)).join();
        assertThat(followerSync.join().errorCode()).isZero();
        return new String[] {leader, follower};
    }
}

package dev.spool.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.protocol.Errors;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplayTest {

    private static final String GROUP = "orders";

    @Test
    void aRestartRebuildsGenerationsMembersAssignmentsAndOffsetsFromTheLog() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        String[] members = ClassicGroupMembershipTest.stableGroupOfTwo(fixture);
        fixture.commit(GROUP, 2, members[0], "topic", 0, 100, "m0");
        fixture.commit(GROUP, 2, members[1], "topic", 1, 200, "m1");
        fixture.commit(GROUP, 2, members[1], "topic", 1, 201, "m1b");
        fixture.commit("simple", -1, "", "other", 3, 7, "");

        GroupCoordinatorShard reloaded = fixture.reload();

        ClassicGroup group = reloaded.group(GROUP);
        assertThat(group.state()).isEqualTo(GroupState.STABLE);
        assertThat(group.generationId()).isEqualTo(2);
        assertThat(group.protocolType()).isEqualTo("consumer");
        assertThat(group.protocolName()).isEqualTo("range");
        assertThat(group.leaderId()).isEqualTo(members[0]);
        assertThat(group.members()).extracting(Member::memberId).containsExactlyInAnyOrder(members);
        assertThat(new String(group.member(members[1]).assignment(), StandardCharsets.UTF_8))
                .isEqualTo("for-" + members[1]);
        assertThat(reloaded.offsets().get(GROUP, "topic", 1))
                .isEqualTo(fixture.shard.offsets().get(GROUP, "topic", 1));
        assertThat(reloaded.offsets().get(GROUP, "topic", 1).offset()).isEqualTo(201);
        assertThat(reloaded.group("simple").state()).isEqualTo(GroupState.EMPTY);
        assertThat(reloaded.offsets().get("simple", "other", 3).offset()).isEqualTo(7);
    }

    @Test
    void restoredMembersKeepTheirGenerationAndExpireIfTheyNeverComeBack() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        String[] members = ClassicGroupMembershipTest.stableGroupOfTwo(fixture);
        ShardFixture restarted = new ShardFixture(fixture.settings, fixture.log);

        assertThat(restarted.heartbeat(GROUP, 2, members[0])).isEqualTo(Errors.NONE);
        assertThat(ShardFixture.commitError(restarted.commit(GROUP, 2, members[0], "topic", 0, 1, ""))).isZero();
        restarted.timer.advance(ShardFixture.SESSION_TIMEOUT_MS / 2);
        assertThat(restarted.heartbeat(GROUP, 2, members[0])).isEqualTo(Errors.NONE);
        restarted.timer.advance(ShardFixture.SESSION_TIMEOUT_MS / 2 + 1);

        // members[1] never heartbeat after the restart: it is gone and members[0] must rejoin.
        assertThat(restarted.shard.group(GROUP).hasMember(members[1])).isFalse();
        assertThat(restarted.heartbeat(GROUP, 2, members[0])).isEqualTo(Errors.REBALANCE_IN_PROGRESS);
    }

    @Test
    void anEmptiedGroupIsReplayedEmptyAndADeletedOneNotAtAll() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        String[] members = ClassicGroupMembershipTest.stableGroupOfTwo(fixture);
        fixture.leave(GROUP, members[0]);
        fixture.leave(GROUP, members[1]);
        fixture.commit("gone", -1, "", "t", 0, 1, "");
        GroupAdministration.delete(fixture.shard, "gone");

        GroupCoordinatorShard reloaded = fixture.reload();

        assertThat(reloaded.group(GROUP).state()).isEqualTo(GroupState.EMPTY);
        assertThat(reloaded.group(GROUP).generationId()).isEqualTo(3);
        assertThat(reloaded.group("gone")).isNull();
        assertThat(GroupAdministration.list(reloaded, java.util.Set.of(), java.util.Set.of()))
                .extracting(listed -> listed.groupId()).containsExactly(GROUP);
        assertThat(GroupAdministration.list(reloaded, java.util.Set.of("stable"), java.util.Set.of()))
                .isEmpty();
        assertThat(GroupAdministration.list(reloaded, java.util.Set.of(), java.util.Set.of("consumer"))).isEmpty();
        assertThat(List.of(GroupAdministration.describe(reloaded, "gone", (short) 6).errorCode()))
                .containsExactly(Errors.GROUP_ID_NOT_FOUND.code());
    }
}

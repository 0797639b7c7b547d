package dev.spool.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.protocol.Errors;
import dev.spool.protocol.message.OffsetDeleteRequestData;
import dev.spool.protocol.message.OffsetDeleteRequestData.OffsetDeleteRequestPartition;
import dev.spool.protocol.message.OffsetDeleteRequestData.OffsetDeleteRequestTopic;
import dev.spool.protocol.message.OffsetDeleteResponseData;
import dev.spool.protocol.message.TxnOffsetCommitRequestData;
import dev.spool.protocol.message.TxnOffsetCommitRequestData.TxnOffsetCommitRequestPartition;
import dev.spool.protocol.message.TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic;
import dev.spool.protocol.message.TxnOffsetCommitResponseData;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OffsetCommitsTest {

    private static final String GROUP = "orders";

    @Test
    void aConsumerWithoutGroupManagementCommitsIntoAnEmptyGroup() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));

        assertThat(ShardFixture.commitError(fixture.commit(GROUP, -1, "", "topic", 0, 42, "meta"))).isZero();

        assertThat(fixture.shard.offsetCommits().fetch(GROUP, Map.of("topic", List.of(0, 1))).get("topic"))
                .containsExactly(new OffsetCommits.FetchedOffset(0, 42, 3, "meta", Errors.NONE),
                        new OffsetCommits.FetchedOffset(1, -1, -1, "", Errors.NONE));
        assertThat(fixture.shard.group(GROUP).state()).isEqualTo(GroupState.EMPTY);
    }

    @Test
    void offsetsCommittedInATransactionCountOnlyOnceItCommits() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        fixture.commit(GROUP, -1, "", "topic", 0, 10, null);
        TxnOffsetCommitResponseData answer = fixture.shard.offsetCommits().commitTransactional(
                new TxnOffsetCommitRequestData().setTransactionalId("t").setGroupId(GROUP).setProducerId(7)
                        .setProducerEpoch((short) 0).setTopics(List.of(new TxnOffsetCommitRequestTopic()
                                .setName("topic").setPartitions(List.of(new TxnOffsetCommitRequestPartition()
                                        .setPartitionIndex(0).setCommittedOffset(20))))));
        assertThat(answer.topics().get(0).partitions().get(0).errorCode()).isZero();

        Map<String, List<Integer>> wanted = Map.of("topic", List.of(0));
        assertThat(fixture.shard.offsetCommits().fetch(GROUP, wanted, false).get("topic"))
                .as("read_uncommitted: the last committed").containsExactly(
                        new OffsetCommits.FetchedOffset(0, 10, 3, "", Errors.NONE));
        assertThat(fixture.shard.offsetCommits().fetch(GROUP, wanted, true).get("topic"))
                .as("require_stable: retried until the transaction ends").containsExactly(
                        new OffsetCommits.FetchedOffset(0, -1, -1, "", Errors.UNSTABLE_OFFSET_COMMIT));
        GroupCoordinatorShard reloaded = fixture.reload();
        assertThat(reloaded.hasTransactionalOffset(GROUP, "topic", 0)).as("still pending after a reload").isTrue();

        fixture.shard.completeTransaction(7, true);
        assertThat(fixture.shard.offsetCommits().fetch(GROUP, wanted, true).get("topic")).containsExactly(
                new OffsetCommits.FetchedOffset(0, 20, -1, "", Errors.NONE));
        reloaded.completeTransaction(7, false);
        assertThat(reloaded.offsets().get(GROUP, "topic", 0).offset()).as("aborted: dropped").isEqualTo(10);
    }

    @Test
    void kafkajsEarliestMarkerMinusTwoIsStoredAsSent() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));

        fixture.commit(GROUP, -1, "", "topic", 0, -2, null);

        assertThat(fixture.shard.offsetCommits().fetch(GROUP, null).get("topic"))
                .containsExactly(new OffsetCommits.FetchedOffset(0, -2, 3, "", Errors.NONE));
        assertThat(fixture.reload().offsets().get(GROUP, "topic", 0).offset()).isEqualTo(-2);
    }

    @Test
    void membersCommitWithTheirGenerationOthersAreRefused() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        String[] members = ClassicGroupMembershipTest.stableGroupOfTwo(fixture);

        assertThat(ShardFixture.commitError(fixture.commit(GROUP, 2, members[0], "topic", 0, 5, ""))).isZero();
        assertThat(ShardFixture.commitError(fixture.commit(GROUP, 1, members[0], "topic", 0, 6, "")))
                .isEqualTo(Errors.ILLEGAL_GENERATION.code());
        assertThat(ShardFixture.commitError(fixture.commit(GROUP, 2, "stranger", "topic", 0, 6, "")))
                .isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        assertThat(ShardFixture.commitError(fixture.commit(GROUP, -1, "", "topic", 0, 6, "")))
                .isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        assertThat(ShardFixture.commitError(fixture.commit("never-joined", 4, "m", "topic", 0, 6, "")))
                .isEqualTo(Errors.ILLEGAL_GENERATION.code());
        assertThat(fixture.shard.offsets().get(GROUP, "topic", 0).offset()).isEqualTo(5);
    }

    @Test
    void aCommitDuringTheSyncPhaseIsRefusedAndDuringTheJoinPhaseAccepted() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        String[] members = ClassicGroupMembershipTest.stableGroupOfTwo(fixture);
        fixture.join(GROUP, members[0], null, (short) 9, "range");

        // PreparingRebalance: a member commits what it consumed before giving up its partitions.
        assertThat(ShardFixture.commitError(fixture.commit(GROUP, 2, members[1], "topic", 0, 7, ""))).isZero();
        fixture.join(GROUP, members[1], null, (short) 9, "range");
        assertThat(fixture.shard.group(GROUP).state()).isEqualTo(GroupState.COMPLETING_REBALANCE);
        assertThat(ShardFixture.commitError(fixture.commit(GROUP, 3, members[1], "topic", 0, 8, "")))
                .isEqualTo(Errors.REBALANCE_IN_PROGRESS.code());
    }

    @Test
    void metadataLongerThanTheLimitIsRefused() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));

        short error = ShardFixture.commitError(fixture.commit(GROUP, -1, "", "topic", 0, 1, "x".repeat(4097)));

        assertThat(error).isEqualTo(Errors.OFFSET_METADATA_TOO_LARGE.code());
        assertThat(fixture.shard.offsets().get(GROUP, "topic", 0)).isNull();
    }

    @Test
    void aCommitWhoseAppendFailsIsNeitherAcknowledgedNorApplied() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        fixture.commit(GROUP, -1, "", "topic", 0, 1, "");
        fixture.log.failAppends(true);

        short error = ShardFixture.commitError(fixture.commit(GROUP, -1, "", "topic", 0, 2, ""));

        assertThat(error).isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE.code());
        assertThat(fixture.shard.offsets().get(GROUP, "topic", 0).offset()).isEqualTo(1);
    }

    @Test
    void provingLeadershipWritesOneRecordThatChangesNothingNowOrOnReplay() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        fixture.commit(GROUP, -1, "", "topic", 0, 10, "");
        int records = fixture.log.size();

        assertThat(fixture.shard.offsetCommits().proveLeadership(GROUP)).isEqualTo(Errors.NONE);

        assertThat(fixture.log.size()).as("the record whose commit the answer waits for").isEqualTo(records + 1);
        Map<String, List<OffsetCommits.FetchedOffset>> expected = Map.of("topic",
                List.of(new OffsetCommits.FetchedOffset(0, 10, 3, "", Errors.NONE)));
        assertThat(fixture.shard.offsetCommits().fetch(GROUP, null)).isEqualTo(expected);
        GroupCoordinatorShard reloaded = fixture.reload();
        assertThat(reloaded.offsetCommits().fetch(GROUP, null)).isEqualTo(expected);
        assertThat(reloaded.group(GROUP)).isNotNull();
        fixture.log.failAppends(true);
        assertThat(fixture.shard.offsetCommits().proveLeadership(GROUP)).isEqualTo(Errors.NOT_COORDINATOR);
    }

    @Test
    void fetchingAllPartitionsListsEveryCommittedOneInOrder() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        fixture.commit(GROUP, -1, "", "b", 1, 11, "");
        fixture.commit(GROUP, -1, "", "a", 2, 22, "");
        fixture.commit(GROUP, -1, "", "b", 0, 10, "");

        Map<String, List<OffsetCommits.FetchedOffset>> all = fixture.shard.offsetCommits().fetch(GROUP, null);

        assertThat(all.keySet()).containsExactly("a", "b");
        assertThat(all.get("b")).extracting(OffsetCommits.FetchedOffset::offset).containsExactly(10L, 11L);
        assertThat(fixture.shard.offsetCommits().fetch("other", null)).isEmpty();
    }

    @Test
    void offsetsOfAnEmptyGroupExpireAfterTheRetentionAndTheGroupGoesWithThem() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        fixture.commit(GROUP, -1, "", "topic", 0, 1, "");
        long retentionMs = fixture.settings.offsetsRetentionMs();

        fixture.timer.advance(retentionMs - 1);
        assertThat(fixture.shard.offsetCommits().expireOffsets()).isZero();
        fixture.timer.advance(1);
        assertThat(fixture.shard.offsetCommits().expireOffsets()).isEqualTo(1);

        assertThat(fixture.shard.group(GROUP)).isNull();
        GroupCoordinatorShard reloaded = fixture.reload();
        assertThat(reloaded.offsets().get(GROUP, "topic", 0)).isNull();
        assertThat(reloaded.group(GROUP)).isNull();
    }

    @Test
    void offsetsOfAGroupWithMembersDoNotExpireAndCountFromWhenItBecameEmpty() throws Exception {
        GroupSettings oneSecond = new GroupSettings(50, (short) 1, 1 << 20, 0, 6000, 1800000, 10, 1000, 1000, 4096,
                ConsumerProtocolSettings.defaults());
        ShardFixture fixture = new ShardFixture(oneSecond);
        String[] members = ClassicGroupMembershipTest.stableGroupOfTwo(fixture);
        fixture.commit(GROUP, 2, members[0], "topic", 0, 1, "");

        fixture.heartbeat(GROUP, 2, members[0]);
        fixture.heartbeat(GROUP, 2, members[1]);
        fixture.timer.advance(5000);
        assertThat(fixture.shard.offsetCommits().expireOffsets()).isZero();
        fixture.leave(GROUP, members[0]);
        fixture.leave(GROUP, members[1]);
        fixture.timer.advance(999);
        assertThat(fixture.shard.offsetCommits().expireOffsets()).isZero();
        fixture.timer.advance(1);

        assertThat(fixture.shard.offsetCommits().expireOffsets()).isEqualTo(1);
    }

    @Test
    void offsetsOfADeletedTopicAreRemovedFromEveryGroup() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        fixture.commit("a", -1, "", "deleted", 0, 1, "");
        fixture.commit("a", -1, "", "kept", 0, 1, "");
        fixture.commit("b", -1, "", "deleted", 3, 1, "");

        assertThat(fixture.shard.offsetCommits().deleteOffsetsOfTopics(java.util.Set.of("deleted"))).isEqualTo(2);

        GroupCoordinatorShard reloaded = fixture.reload();
        assertThat(reloaded.offsets().offsets("a").keySet()).containsExactly("kept");
        assertThat(reloaded.offsets().hasOffsets("b")).isFalse();
    }

    @Test
    void offsetDeleteRemovesOffsetsOfTopicsTheGroupNoLongerReads() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        String[] members = ClassicGroupMembershipTest.stableGroupOfTwo(fixture);
        fixture.commit(GROUP, 2, members[0], "topic", 0, 1, "");
        fixture.commit(GROUP, 2, members[0], "old-topic", 0, 1, "");

        OffsetDeleteResponseData response = fixture.shard.offsetCommits().delete(new OffsetDeleteRequestData()
                .setGroupId(GROUP)
                .setTopics(List.of(topic("topic"), topic("old-topic"))));

        assertThat(response.errorCode()).isZero();
        assertThat(response.topics().get(0).partitions().get(0).errorCode())
                .isEqualTo(Errors.GROUP_SUBSCRIBED_TO_TOPIC.code());
        assertThat(response.topics().get(1).partitions().get(0).errorCode()).isZero();
        assertThat(fixture.shard.offsets().get(GROUP, "old-topic", 0)).isNull();
        assertThat(fixture.reload().offsets().get(GROUP, "old-topic", 0)).isNull();
        assertThat(fixture.shard.offsetCommits().delete(new OffsetDeleteRequestData().setGroupId("none")
                .setTopics(List.of())).errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
    }

    @Test
    void deleteGroupsRefusesAGroupWithMembersAndDeletesAnEmptyOneWithItsOffsets() throws Exception {
        ShardFixture fixture = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        String[] members = ClassicGroupMembershipTest.stableGroupOfTwo(fixture);
        fixture.commit(GROUP, 2, members[0], "topic", 0, 1, "");

        assertThat(GroupAdministration.delete(fixture.shard, GROUP).errorCode()).isEqualTo(Errors.NON_EMPTY_GROUP.code());
        fixture.leave(GROUP, members[0]);
        fixture.leave(GROUP, members[1]);
        assertThat(GroupAdministration.delete(fixture.shard, GROUP).errorCode()).isZero();
        assertThat(GroupAdministration.delete(fixture.shard, GROUP).errorCode())
                .isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());

        GroupCoordinatorShard reloaded = fixture.reload();
        assertThat(reloaded.group(GROUP)).isNull();
        assertThat(reloaded.offsets().hasOffsets(GROUP)).isFalse();
    }

    private static OffsetDeleteRequestTopic topic(String name) {
        return new OffsetDeleteRequestTopic().setName(name)
                .setPartitions(List.of(new OffsetDeleteRequestPartition().setPartitionIndex(0)));
    }
}

package dev.spool.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.metadata.PartitionImage;
import dev.spool.broker.metadata.TopicImage;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ConsumerGroupHeartbeatRequestData;
import dev.spool.protocol.message.ConsumerGroupHeartbeatResponseData;
import dev.spool.protocol.message.OffsetCommitRequestData;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** ConsumerGroupHeartbeat on one shard: joins, revoke before assign, leaves, fencing, and commits by epoch. */
class ConsumerGroupHeartbeatsTest {

    static final String GROUP = "readers";
    static final Uuid ORDERS = Uuid.randomUuid();

    private final Map<String, TopicImage> topics = new HashMap<>();
    private final ManualTimer timer = new ManualTimer();
    private InMemoryCoordinatorLog log;
    private GroupCoordinatorShard shard;

    @BeforeEach
    void start() throws Exception {
        topics.put("orders", topic("orders", ORDERS, 6));
        log = new InMemoryCoordinatorLog();
        shard = load();
    }

    @Test
    void aMemberJoiningGetsEveryPartitionAtEpochOneAndARestartRebuildsIt() throws Exception {
        ConsumerGroupHeartbeatResponseData joined = heartbeat(join("m-1"));

        assertThat(joined.errorCode()).isZero();
        assertThat(joined.memberEpoch()).isEqualTo(1);
        assertThat(joined.heartbeatIntervalMs()).isEqualTo(5000);
        assertThat(partitions(joined)).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(heartbeat(beat("m-1", 1, 0, 1, 2, 3, 4, 5)).assignment()).as("nothing changed").isNull();

        ConsumerGroup reloaded = load().consumerGroup(GROUP, false);
        assertThat(reloaded.state()).isEqualTo(ConsumerGroupState.STABLE);
        assertThat(reloaded.member("m-1").assigned().partitions(ORDERS)).containsExactly(0, 1, 2, 3, 4, 5);
    }

    @Test
    void aSecondMemberGetsPartitionsOnlyOnceTheFirstHasRevokedThem() {
        heartbeat(join("m-1"));
        ConsumerGroupHeartbeatResponseData second = heartbeat(join("m-2"));
        assertThat(second.memberEpoch()).isEqualTo(2);
        assertThat(partitions(second)).as("all still owned by m-1").isEmpty();

        ConsumerGroupHeartbeatResponseData revoking = heartbeat(beat("m-1", 1, 0, 1, 2, 3, 4, 5));
        assertThat(revoking.memberEpoch()).as("epoch kept until it revokes").isEqualTo(1);
        assertThat(partitions(revoking)).hasSize(3);
        assertThat(partitions(heartbeat(beat("m-2", 2)))).as("m-1 has not said it revoked").isEmpty();

        ConsumerGroupHeartbeatResponseData revoked = heartbeat(beat("m-1", 1, partitionsArray(revoking)));
        assertThat(revoked.memberEpoch()).isEqualTo(2);
        ConsumerGroupHeartbeatResponseData given = heartbeat(beat("m-2", 2));
        assertThat(partitions(given)).hasSize(3).doesNotContainAnyElementsOf(partitions(revoking));
        assertThat(shard.consumerGroup(GROUP, false).state()).isEqualTo(ConsumerGroupState.STABLE);
    }

    @Test
    void aSilentMemberIsFencedAfterItsSessionAndAnotherTakesItsPartitions() {
        heartbeat(join("m-1"));
        heartbeat(join("m-2"));
        ConsumerGroupHeartbeatResponseData revoking = heartbeat(beat("m-1", 1, 0, 1, 2, 3, 4, 5));
        heartbeat(beat("m-1", 1, partitionsArray(revoking)));
        heartbeat(beat("m-2", 2));

        for (int i = 0; i < 9; i++) {
            timer.advance(5_000);
            heartbeat(beat("m-1", shard.consumerGroup(GROUP, false).member("m-1").memberEpoch(),
                    partitionsArray(shard.consumerGroup(GROUP, false).member("m-1"))));
        }

        assertThat(shard.consumerGroup(GROUP, false).member("m-2")).as("silent for 45 s").isNull();
        assertThat(shard.consumerGroup(GROUP, false).member("m-1").assigned().partitions(ORDERS)).hasSize(6);
        assertThat(heartbeat(beat("m-2", 2)).errorCode()).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
    }

    @Test
    void aMemberThatHeartbeatsButNeverRevokesIsFencedAfterItsRebalanceTimeout() {
        heartbeat(join("m-1").setRebalanceTimeoutMs(20_000));
        heartbeat(join("m-2"));
        heartbeat(beat("m-1", 1, 0, 1, 2, 3, 4, 5));
        assertThat(shard.consumerGroup(GROUP, false).member("m-1").state()).isEqualTo(MemberState.UNREVOKED_PARTITIONS);

        for (int i = 0; i < 21; i++) {
            timer.advance(1_000);
            heartbeat(beat("m-1", 1, 0, 1, 2, 3, 4, 5)); // still listing what it must give up
            heartbeat(beat("m-2", 2));
        }

        assertThat(shard.consumerGroup(GROUP, false).member("m-1")).as("fenced after 20 s").isNull();
        assertThat(shard.consumerGroup(GROUP, false).member("m-2").assigned().partitions(ORDERS))
                .containsExactly(0, 1, 2, 3, 4, 5);
    }

    @Test
    void aGroupOfOneProtocolTakesMembersOfTheOtherInsideItNeverBesideIt() throws Exception {
        ShardFixture consumerFirst = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        consumerFirst.shard.consumerHeartbeats().heartbeat(join("m-1"), "c", "h");
        assertThat(consumerFirst.join(GROUP, "", null, (short) 9, "range").join().errorCode())
                .as("a classic member of the consumer group on its way in")
                .isEqualTo(Errors.MEMBER_ID_REQUIRED.code());
        assertThat(consumerFirst.shard.group(GROUP)).as("no classic group beside the consumer group").isNull();

        ShardFixture classicFirst = new ShardFixture(ShardFixture.settings(0, Integer.MAX_VALUE));
        assertThat(classicFirst.join(GROUP, "", null, (short) 9, "range").join().errorCode())
                .as("a classic member on its way in").isEqualTo(Errors.MEMBER_ID_REQUIRED.code());
        assertThat(classicFirst.shard.consumerHeartbeats().heartbeat(join("m-1"), "c", "h").errorCode())
                .as("no generation to upgrade yet").isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
    }

    @Test
    void anEmptyRegularExpressionBesideTopicNamesIsNone() {
        ConsumerGroupHeartbeatResponseData joined = heartbeat(join("m-1").setSubscribedTopicRegex(""));

        assertThat(joined.errorCode()).as("librdkafka subscribing by names").isZero();
        assertThat(partitions(joined)).hasSize(6);
        assertThat(heartbeat(join("m-2").setSubscribedTopicRegex("ord(")).errorCode())
                .isEqualTo(Errors.INVALID_REGULAR_EXPRESSION.code());
    }

    @Test
    void subscribingToTheSameTopicsInAnotherOrderChangesNothing() {
        topics.put("payments", topic("payments", Uuid.randomUuid(), 2));
        heartbeat(join("m-1").setSubscribedTopicNames(List.of("orders", "payments")));
        int epoch = shard.consumerGroup(GROUP, false).groupEpoch();

        heartbeat(beat("m-1", 1, 0, 1, 2, 3, 4, 5).setSubscribedTopicNames(List.of("payments", "orders")));

        assertThat(shard.consumerGroup(GROUP, false).groupEpoch()).isEqualTo(epoch);
    }

    @Test
    void aMemberThatLeavesIsGoneAndUnknownMembersOrEpochsAreRefused() {
        heartbeat(join("m-1"));
        heartbeat(join("m-2"));

        assertThat(heartbeat(beat("m-1", 7)).errorCode()).isEqualTo(Errors.FENCED_MEMBER_EPOCH.code());
        assertThat(heartbeat(beat("m-3", 1)).errorCode()).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        ConsumerGroupHeartbeatResponseData left = heartbeat(beat("m-2", -1));
        assertThat(left.errorCode()).isZero();
        assertThat(left.memberEpoch()).isEqualTo(-1);
        assertThat(shard.consumerGroup(GROUP, false).members()).extracting(ConsumerGroupMember::memberId)
                .containsExactly("m-1");
        assertThat(shard.consumerGroup(GROUP, false).groupEpoch()).isEqualTo(3);
    }

    @Test
    void invalidRequestsAndUnknownAssignorsAreRefusedAsKafkaRefusesThem() {
        assertThat(heartbeat(join("m-1").setRebalanceTimeoutMs(-1)).errorMessage())
                .isEqualTo("RebalanceTimeoutMs must be provided in first request.");
        assertThat(heartbeat(join("").setMemberEpoch(0)).errorMessage()).isEqualTo("MemberId can't be empty.");
        assertThat(heartbeat(join("m-1").setServerAssignor("sticky")).errorCode())
                .isEqualTo(Errors.UNSUPPORTED_ASSIGNOR.code());
        assertThat(heartbeat(join("m-1").setSubscribedTopicNames(null)).errorCode())
                .isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(shard.consumerGroup(GROUP, false)).as("no group left behind").isNull();
    }

    @Test
    void commitsAreTakenFromMembersAtTheirEpochAndFromAnyoneOnceTheGroupIsEmpty() {
        heartbeat(join("m-1"));

        assertThat(commitError("m-1", 1, (short) 9)).isEqualTo(Errors.NONE);
        assertThat(commitError("m-1", 0, (short) 9)).isEqualTo(Errors.STALE_MEMBER_EPOCH);
        assertThat(commitError("m-1", 1, (short) 8)).as("a member's epoch needs v9")
                .isEqualTo(Errors.UNSUPPORTED_VERSION);
        assertThat(commitError("m-9", 1, (short) 9)).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        assertThat(commitError("", -1, (short) 9)).as("an admin's commit to a group in use")
                .isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        heartbeat(beat("m-1", -1));
        assertThat(commitError("", -1, (short) 9)).isEqualTo(Errors.NONE);
    }

    @Test
    void offsetsAreFetchedByMembersAtTheirEpochOrByThoseNamingNoMember() {
        heartbeat(join("m-1"));

        assertThat(shard.offsetCommits().checkFetcher(GROUP, "m-1", 1)).isEqualTo(Errors.NONE);
        assertThat(shard.offsetCommits().checkFetcher(GROUP, "m-1", 0)).isEqualTo(Errors.STALE_MEMBER_EPOCH);
        assertThat(shard.offsetCommits().checkFetcher(GROUP, "m-9", 1)).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        assertThat(shard.offsetCommits().checkFetcher(GROUP, null, -1)).as("an admin").isEqualTo(Errors.NONE);
        assertThat(shard.offsetCommits().checkFetcher("no-such-group", "m-1", 3)).isEqualTo(Errors.NONE);
    }

    @Test
    void aCommitAtAnOlderEpochCountsForThePartitionsTheMemberOwnedThenEvenAfterARestart() throws Exception {
        heartbeat(join("m-1"));
        topics.put("orders", topic("orders", ORDERS, 8));
        ConsumerGroupHeartbeatResponseData grown = heartbeat(beat("m-1", 1, 0, 1, 2, 3, 4, 5));
        assertThat(grown.memberEpoch()).isEqualTo(2);
        shard = load();

        assertThat(commitError("m-1", 1, (short) 9, 5)).as("owned since epoch 1").isEqualTo(Errors.NONE);
        assertThat(commitError("m-1", 1, (short) 9, 7)).as("given at epoch 2").isEqualTo(Errors.STALE_MEMBER_EPOCH);
        assertThat(commitError("m-1", 2, (short) 9, 7)).isEqualTo(Errors.NONE);
        assertThat(commitError("m-1", 3, (short) 9, 7)).as("an epoch it never had")
                .isEqualTo(Errors.STALE_MEMBER_EPOCH);
    }

    @Test
    void membersAskingForTheRangeAssignorGetConsecutiveRanges() {
        heartbeat(join("m-1").setServerAssignor("range"));
        heartbeat(join("m-2").setServerAssignor("range"));
        ConsumerGroupHeartbeatResponseData revoking = heartbeat(beat("m-1", 1, 0, 1, 2, 3, 4, 5));

        assertThat(partitions(revoking)).containsExactly(0, 1, 2);
        assertThat(shard.consumerGroup(GROUP, false).target("m-2").partitions(ORDERS)).containsExactly(3, 4, 5);
    }

    @Test
    void partitionsAddedToASubscribedTopicReachTheMembers() {
        heartbeat(join("m-1"));
        topics.put("orders", topic("orders", ORDERS, 8));

        ConsumerGroupHeartbeatResponseData grown = heartbeat(beat("m-1", 1, 0, 1, 2, 3, 4, 5));

        assertThat(grown.memberEpoch()).isEqualTo(2);
        assertThat(partitions(grown)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    }

    @Test
    void aStaticMemberRestartingWithinItsSessionGetsItsPartitionsBackWithoutANewGroupEpoch() throws Exception {
        List<Integer> owned = settleTwoMembersOneStatic();
        int groupEpoch = shard.consumerGroup(GROUP, false).groupEpoch();

        ConsumerGroupHeartbeatResponseData left = heartbeat(beat("s-1", 2, toArray(owned)).setInstanceId("a")
                .setMemberEpoch(ConsumerGroupHeartbeats.STATIC_LEAVE_EPOCH));
        assertThat(left.errorCode()).isZero();
        assertThat(left.memberEpoch()).isEqualTo(ConsumerGroupHeartbeats.STATIC_LEAVE_EPOCH);
        timer.advance(20_000);
        assertThat(heartbeat(beat("m-2", 2, toArray(complement(owned)))).assignment())
                .as("the other member gets nothing more while the static member is away").isNull();

        ConsumerGroupHeartbeatResponseData back = heartbeat(join("s-1b").setInstanceId("a"));
        assertThat(back.errorCode()).isZero();
        assertThat(partitions(back)).as("its partitions, at once").isEqualTo(owned);
        assertThat(back.memberEpoch()).isEqualTo(2);
        assertThat(shard.consumerGroup(GROUP, false).groupEpoch()).as("no rebalance").isEqualTo(groupEpoch);
        assertThat(heartbeat(beat("s-1", 2, toArray(owned)).setInstanceId("a")).errorCode())
                .as("the replaced member").isEqualTo(Errors.FENCED_INSTANCE_ID.code());

        ConsumerGroup reloaded = load().consumerGroup(GROUP, false);
        assertThat(reloaded.member("s-1")).isNull();
        assertThat(reloaded.member("s-1b").assigned().partitions(ORDERS)).containsExactlyElementsOf(owned);
        assertThat(reloaded.state()).isEqualTo(ConsumerGroupState.STABLE);
    }

    @Test
    void aStaticMemberAwayPastItsSessionTimeoutLeavesAndTheOthersTakeItsPartitions() throws Exception {
        List<Integer> owned = settleTwoMembersOneStatic();
        heartbeat(beat("s-1", 2, toArray(owned)).setInstanceId("a")
                .setMemberEpoch(ConsumerGroupHeartbeats.STATIC_LEAVE_EPOCH));
        shard = load();
        assertThat(shard.consumerGroup(GROUP, false).member("s-1").isAway()).as("kept over a restart").isTrue();

        for (int i = 0; i < 10; i++) {
            timer.advance(5_000);
            ConsumerGroupMember other = shard.consumerGroup(GROUP, false).member("m-2");
            heartbeat(beat("m-2", other.memberEpoch(), partitionsArray(other)));
        }

        assertThat(shard.consumerGroup(GROUP, false).member("s-1")).isNull();
        assertThat(shard.consumerGroup(GROUP, false).member("m-2").assigned().partitions(ORDERS)).hasSize(6);
        assertThat(heartbeat(join("s-1b").setInstanceId("a")).errorCode()).as("a new member, as any").isZero();
    }

    @Test
    void anInstanceIdNamesOneActiveMemberAtATime() {
        List<Integer> owned = settleTwoMembersOneStatic();

        assertThat(heartbeat(join("s-2").setInstanceId("a")).errorCode())
                .isEqualTo(Errors.UNRELEASED_INSTANCE_ID.code());
        assertThat(heartbeat(beat("x", 2).setInstanceId("a")).errorCode())
                .isEqualTo(Errors.FENCED_INSTANCE_ID.code());
        assertThat(heartbeat(beat("x", 2).setInstanceId("b")).errorCode()).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        assertThat(heartbeat(beat("x", ConsumerGroupHeartbeats.STATIC_LEAVE_EPOCH).setInstanceId("a")).errorCode())
                .isEqualTo(Errors.FENCED_INSTANCE_ID.code());
        assertThat(shard.consumerGroup(GROUP, false).member("s-1").assigned().partitions(ORDERS))
                .containsExactlyElementsOf(owned);

        assertThat(heartbeat(beat("s-1", ConsumerGroupHeartbeats.LEAVE_EPOCH).setInstanceId("a")).errorCode())
                .as("leaving for good").isZero();
        assertThat(shard.consumerGroup(GROUP, false).member("s-1")).isNull();
        assertThat(heartbeat(join("s-2").setInstanceId("a")).errorCode()).isZero();
    }

    /** Static member s-1 (instance a) and dynamic m-2 share orders at epoch 2; s-1's partitions. */
    private List<Integer> settleTwoMembersOneStatic() {
        heartbeat(join("s-1").setInstanceId("a"));
        heartbeat(join("m-2"));
        ConsumerGroupHeartbeatResponseData revoking = heartbeat(beat("s-1", 1, 0, 1, 2, 3, 4, 5).setInstanceId("a"));
        heartbeat(beat("s-1", 1, partitionsArray(revoking)).setInstanceId("a"));
        heartbeat(beat("m-2", 2));
        assertThat(shard.consumerGroup(GROUP, false).state()).isEqualTo(ConsumerGroupState.STABLE);
        return partitions(revoking);
    }

    private static int[] toArray(List<Integer> partitions) {
        return partitions.stream().mapToInt(Integer::intValue).toArray();
    }

    private static List<Integer> complement(List<Integer> partitions) {
        List<Integer> others = new ArrayList<>(List.of(0, 1, 2, 3, 4, 5));
        others.removeAll(partitions);
        return others;
    }

    /**
     * At the scale users run: ten members joining one after another on a topic of 3,000 partitions settle on 300
     * each, revoking before anything is given twice, in a few rounds of heartbeats, and a restart rebuilds it.
     */
    @Test
    void tenMembersShareThreeThousandPartitionsWithoutOneGivenTwice() throws Exception {
        Uuid big = Uuid.randomUuid();
        topics.put("big", topic("big", big, 3000));
        Map<String, List<Integer>> owned = new TreeMap<>();
        for (int i = 0; i < 10; i++) {
            String memberId = "m-" + i;
            ConsumerGroupHeartbeatResponseData joined = heartbeat(join(memberId).setSubscribedTopicNames(List.of("big")));
            owned.put(memberId, partitionsOf(joined, big));
            for (int round = 0; round < 3; round++) {
                for (Map.Entry<String, List<Integer>> member : owned.entrySet()) {
                    int epoch = shard.consumerGroup(GROUP, false).member(member.getKey()).memberEpoch();
                    ConsumerGroupHeartbeatResponseData answer = heartbeat(new ConsumerGroupHeartbeatRequestData()
                            .setGroupId(GROUP).setMemberId(member.getKey()).setMemberEpoch(epoch)
                            .setRebalanceTimeoutMs(-1).setTopicPartitions(List.of(new ConsumerGroupHeartbeatRequestData
                                    .TopicPartitions().setTopicId(big).setPartitions(member.getValue()))));
                    if (answer.assignment() != null) {
                        member.setValue(partitionsOf(answer, big)); // the client revokes and takes at once
                    }
                    assertNoPartitionTwice(owned);
                }
            }
        }
        assertThat(shard.consumerGroup(GROUP, false).state()).isEqualTo(ConsumerGroupState.STABLE);
        assertThat(owned.values()).allSatisfy(partitions -> assertThat(partitions).hasSize(300));
        assertThat(load().consumerGroup(GROUP, false).member("m-9").assigned().partitions(big)).hasSize(300);
    }

    private static List<Integer> partitionsOf(ConsumerGroupHeartbeatResponseData answer, Uuid topicId) {
        List<Integer> numbers = new ArrayList<>();
        answer.assignment().topicPartitions().stream().filter(owned -> owned.topicId().equals(topicId))
                .forEach(owned -> numbers.addAll(owned.partitions()));
        return numbers;
    }

    private static void assertNoPartitionTwice(Map<String, List<Integer>> owned) {
        Set<Integer> seen = new HashSet<>();
        owned.values().forEach(partitions -> partitions.forEach(partition ->
                assertThat(seen.add(partition)).as("partition %d held twice", partition).isTrue()));
    }

    private GroupCoordinatorShard load() throws Exception {
        GroupCoordinatorShard loaded = new GroupCoordinatorShard(0, log, timer, timer::nowMs,
                ShardFixture.settings(0, Integer.MAX_VALUE), topics::get);
        loaded.load();
        return loaded;
    }

    private ConsumerGroupHeartbeatResponseData heartbeat(ConsumerGroupHeartbeatRequestData request) {
        return shard.consumerHeartbeats().heartbeat(request, "client", "/127.0.0.1");
    }

    private Errors commitError(String memberId, int epoch, short version) {
        return commitError(memberId, epoch, version, 0);
    }

    private Errors commitError(String memberId, int epoch, short version, int partition) {
        OffsetCommitRequestData request = new OffsetCommitRequestData().setGroupId(GROUP).setMemberId(memberId)
                .setGenerationIdOrMemberEpoch(epoch).setTopics(List.of(new OffsetCommitRequestData
                        .OffsetCommitRequestTopic().setName("orders").setPartitions(List.of(new OffsetCommitRequestData
                        .OffsetCommitRequestPartition().setPartitionIndex(partition).setCommittedOffset(5)))));
        return Errors.forCode(shard.offsetCommits().commit(request, version).topics().get(0).partitions().get(0)
                .errorCode());
    }

    static ConsumerGroupHeartbeatRequestData join(String memberId) {
        return new ConsumerGroupHeartbeatRequestData().setGroupId(GROUP).setMemberId(memberId).setMemberEpoch(0)
                .setRebalanceTimeoutMs(300_000).setSubscribedTopicNames(List.of("orders")).setTopicPartitions(List.of());
    }

    /** A heartbeat at {@code epoch} saying the member owns {@code owned} of orders. */
    static ConsumerGroupHeartbeatRequestData beat(String memberId, int epoch, int... owned) {
        List<Integer> numbers = new ArrayList<>();
        for (int partition : owned) {
            numbers.add(partition);
        }
        return new ConsumerGroupHeartbeatRequestData().setGroupId(GROUP).setMemberId(memberId).setMemberEpoch(epoch)
                .setRebalanceTimeoutMs(-1).setSubscribedTopicNames(null).setTopicPartitions(List.of(
                        new ConsumerGroupHeartbeatRequestData.TopicPartitions().setTopicId(ORDERS)
                                .setPartitions(numbers)));
    }

    static List<Integer> partitions(ConsumerGroupHeartbeatResponseData answer) {
        List<Integer> numbers = new ArrayList<>();
        if (answer.assignment() != null) {
            answer.assignment().topicPartitions().forEach(owned -> numbers.addAll(owned.partitions()));
        }
        numbers.sort(Integer::compare);
        return numbers;
    }

    private static int[] partitionsArray(ConsumerGroupHeartbeatResponseData answer) {
        return partitions(answer).stream().mapToInt(Integer::intValue).toArray();
    }

    private static int[] partitionsArray(ConsumerGroupMember member) {
        return member.assigned().partitions(ORDERS).stream().mapToInt(Integer::intValue).toArray();
    }

    static TopicImage topic(String name, Uuid id, int partitions) {
        TreeMap<Integer, PartitionImage> images = new TreeMap<>();
        for (int partition = 0; partition < partitions; partition++) {
            images.put(partition, new PartitionImage(partition, List.of(1), List.of(1), 1, 0, 0));
        }
        return new TopicImage(name, id, images);
    }
}

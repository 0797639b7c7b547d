package dev.spool.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.protocol.types.Uuid;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The range assignor: consecutive ranges per topic, the first members one more, co-partitioned topics aligned, and
 * what members had kept up to their quota.
 */
class RangeAssignorTest {

    private static final Uuid ORDERS = new Uuid(1, 1);
    private static final Uuid PAYMENTS = new Uuid(2, 2);
    private static final Uuid AUDIT = new Uuid(3, 3);

    @Test
    void eachSubscriberGetsAConsecutiveRangeAndCoPartitionedTopicsLineUp() {
        List<AssignmentMember> members = List.of(member("b", ORDERS, PAYMENTS), member("a", ORDERS, PAYMENTS),
                member("c", ORDERS, PAYMENTS, AUDIT));

        Map<String, PartitionAssignment> target = RangeAssignor.assign(members,
                Map.of(ORDERS, 7, PAYMENTS, 7, AUDIT, 2));

        assertThat(target.get("a").partitions(ORDERS)).containsExactly(0, 1, 2);
        assertThat(target.get("b").partitions(ORDERS)).containsExactly(3, 4);
        assertThat(target.get("c").partitions(ORDERS)).containsExactly(5, 6);
        for (String memberId : List.of("a", "b", "c")) {
            assertThat(target.get(memberId).partitions(PAYMENTS)).as("co-partitioned with orders")
                    .isEqualTo(target.get(memberId).partitions(ORDERS));
        }
        assertThat(target.get("c").partitions(AUDIT)).as("its only subscriber").containsExactly(0, 1);
        assertThat(target.get("a").partitions(AUDIT)).isEmpty();
    }

    @Test
    void membersKeepWhatTheyHadUpToTheirQuotaAsMembershipChanges() {
        Map<Uuid, Integer> counts = Map.of(ORDERS, 6, PAYMENTS, 6);
        Map<String, PartitionAssignment> three = RangeAssignor.assign(List.of(member("a", ORDERS, PAYMENTS),
                member("b", ORDERS, PAYMENTS), member("c", ORDERS, PAYMENTS)), counts);

        Map<String, PartitionAssignment> two = RangeAssignor.assign(List.of(
                withCurrent("a", three.get("a")), withCurrent("c", three.get("c"))), counts);
        assertThat(two.get("a").partitions(ORDERS)).containsAll(three.get("a").partitions(ORDERS)).hasSize(3);
        assertThat(two.get("c").partitions(ORDERS)).containsAll(three.get("c").partitions(ORDERS)).hasSize(3);

        Map<String, PartitionAssignment> again = RangeAssignor.assign(List.of(withCurrent("a", two.get("a")),
                withCurrent("c", two.get("c")), member("d", ORDERS, PAYMENTS)), counts);
        for (String kept : List.of("a", "c")) {
            assertThat(two.get(kept).partitions(ORDERS)).as("%s gives up one, keeps the rest", kept)
                    .containsAll(again.get(kept).partitions(ORDERS));
            assertThat(again.get(kept).partitions(PAYMENTS)).as("still co-partitioned")
                    .isEqualTo(again.get(kept).partitions(ORDERS));
        }
        assertThat(again.get("d").partitions(ORDERS)).hasSize(2);
    }

    private static AssignmentMember withCurrent(String memberId, PartitionAssignment current) {
        return new AssignmentMember(memberId, Set.of(ORDERS, PAYMENTS), current);
    }

    @Test
    void theGroupUsesTheAssignorMostMembersAskForElseTheFirstEnabled() {
        ConsumerGroupMember plain = ConsumerGroupMember.unknown("m-1");
        ConsumerGroupMember ranged = new ConsumerGroupMember("m-2", null, null, "c", "h", List.of(), null, -1, "range",
                null, 0, 0, MemberState.STABLE, PartitionAssignment.EMPTY, PartitionAssignment.EMPTY,
                AssignmentEpochs.EMPTY);

        assertThat(ServerAssignor.chosenBy(List.of(plain), List.of("uniform", "range")))
                .isEqualTo(ServerAssignor.UNIFORM);
        assertThat(ServerAssignor.chosenBy(List.of(plain, ranged), List.of("uniform", "range")))
                .isEqualTo(ServerAssignor.RANGE);
        assertThat(ServerAssignor.chosenBy(List.of(plain), List.of("range"))).isEqualTo(ServerAssignor.RANGE);
    }

    private static AssignmentMember member(String memberId, Uuid... topics) {
        return new AssignmentMember(memberId, Set.of(topics), PartitionAssignment.EMPTY);
    }
}

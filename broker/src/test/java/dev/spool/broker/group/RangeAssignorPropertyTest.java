package dev.spool.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.protocol.types.Uuid;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The range assignor after any change of membership: every subscribed partition goes to one subscriber, each topic's
 * subscribers differ by one partition at most, and a member keeps what it had up to the fewest any subscriber gets.
 */
class RangeAssignorPropertyTest {

    private static final List<Uuid> TOPICS = List.of(new Uuid(1, 1), new Uuid(2, 2));

    @Provide
    Arbitrary<List<Integer>> subscriptions() {
        return Arbitraries.integers().between(1, 3).list().ofMinSize(1).ofMaxSize(7);
    }

    @Property(tries = 1000)
    void membersLeavingAndJoiningKeepWhatTheyCanAndTheRestIsSharedEvenly(
            @ForAll("subscriptions") List<Integer> before, @ForAll("subscriptions") List<Integer> after,
            @ForAll("counts") List<Integer> counts) {
        Map<Uuid, Integer> partitions = Map.of(TOPICS.get(0), counts.get(0), TOPICS.get(1), counts.get(1));
        Map<String, PartitionAssignment> first = RangeAssignor.assign(members(before, Map.of()), partitions);
        List<AssignmentMember> changed = members(after, first);

        Map<String, PartitionAssignment> second = RangeAssignor.assign(changed, partitions);

        for (Uuid topic : TOPICS) {
            List<AssignmentMember> subscribers = changed.stream().filter(m -> m.topicIds().contains(topic)).toList();
            Set<Integer> seen = new HashSet<>();
            int fewest = Integer.MAX_VALUE;
            int most = 0;
            for (AssignmentMember member : changed) {
                Set<Integer> owned = second.get(member.memberId()).partitions(topic);
                owned.forEach(p -> assertThat(seen.add(p)).as("partition %d of %s given twice", p, topic).isTrue());
                if (member.topicIds().contains(topic)) {
                    fewest = Math.min(fewest, owned.size());
                    most = Math.max(most, owned.size());
                } else {
                    assertThat(owned).as("%s does not subscribe to %s", member.memberId(), topic).isEmpty();
                }
            }
            assertThat(seen).hasSize(subscribers.isEmpty() ? 0 : partitions.get(topic));
            assertThat(most - fewest).as("balanced").isLessThanOrEqualTo(subscribers.isEmpty() ? 0 : 1);
            for (AssignmentMember member : subscribers) {
                Set<Integer> had = member.current().partitions(topic);
                Set<Integer> kept = new HashSet<>(second.get(member.memberId()).partitions(topic));
                kept.retainAll(had);
                assertThat(kept.size()).as("%s keeps what it had", member.memberId())
                        .isGreaterThanOrEqualTo(Math.min(had.size(), fewest));
            }
        }
    }

    @Provide
    Arbitrary<List<Integer>> counts() {
        return Arbitraries.integers().between(1, 12).list().ofSize(2);
    }

    private static List<AssignmentMember> members(List<Integer> subscriptions,
                                                  Map<String, PartitionAssignment> current) {
        return AssignorMembers.fromBits(TOPICS, subscriptions, current);
    }
}

package dev.spool.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.protocol.types.Uuid;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The uniform assignor: every subscribed partition once, balanced as subscriptions allow, and sticky. */
class UniformAssignorPropertyTest {

    private static final List<Uuid> TOPICS = List.of(new Uuid(1, 1), new Uuid(2, 2), new Uuid(3, 3));

    @Provide
    Arbitrary<List<Integer>> subscriptions() {
        return Arbitraries.integers().between(0, 7).list().ofMinSize(1).ofMaxSize(8);
    }

    @Provide
    Arbitrary<List<Integer>> counts() {
        return Arbitraries.integers().between(0, 12).list().ofSize(3);
    }

    @Property(tries = 1000)
    void everyPartitionGoesToOneSubscriberAndNoSubscriberHasTwoFewerThanAnOwner(
            @ForAll("subscriptions") List<Integer> subscriptions, @ForAll("counts") List<Integer> counts) {
        Map<Uuid, Integer> partitions = partitionCounts(counts);
        List<AssignmentMember> members = members(subscriptions, Map.of());

        Map<String, PartitionAssignment> target = UniformAssignor.assign(members, partitions);

        checkAssignment(members, partitions, target);
    }

    @Property(tries = 500)
    void aMemberJoiningMovesOnlyPartitionsTheNewMemberGets(@ForAll("counts") List<Integer> counts) {
        Map<Uuid, Integer> partitions = partitionCounts(counts);
        List<Integer> everything = List.of(7, 7, 7);
        Map<String, PartitionAssignment> before = UniformAssignor.assign(members(everything, Map.of()), partitions);

        List<AssignmentMember> grown = members(List.of(7, 7, 7, 7), before);
        Map<String, PartitionAssignment> after = UniformAssignor.assign(grown, partitions);

        checkAssignment(grown, partitions, after);
        for (int i = 0; i < 3; i++) {
            String memberId = "m-" + i;
            after.get(memberId).forEachPartition((topic, partition) -> assertThat(
                    before.get(memberId).contains(topic, partition)).as("%s kept, not given, %s-%d", memberId, topic,
                    partition).isTrue());
        }
    }

    @Test
    void partitionsOfTopicsThatNoLongerExistOrAreNoLongerSubscribedAreDropped() {
        PartitionAssignment had = PartitionAssignment.of(Map.of(TOPICS.get(0), List.of(0, 1), TOPICS.get(1), List.of(0),
                TOPICS.get(2), List.of(5)));
        Map<Uuid, Integer> partitions = Map.of(TOPICS.get(0), 1, TOPICS.get(2), 2);

        Map<String, PartitionAssignment> target = UniformAssignor.assign(List.of(new AssignmentMember("m",
                Set.of(TOPICS.get(0), TOPICS.get(1)), had)), partitions);

        assertThat(target.get("m")).isEqualTo(PartitionAssignment.of(Map.of(TOPICS.get(0), List.of(0))));
    }

    private static Map<Uuid, Integer> partitionCounts(List<Integer> counts) {
        Map<Uuid, Integer> partitions = new HashMap<>();
        for (int i = 0; i < TOPICS.size(); i++) {
            if (counts.get(i) > 0) {
                partitions.put(TOPICS.get(i), counts.get(i));
            }
        }
        return partitions;
    }


    private static void checkAssignment(List<AssignmentMember> members, Map<Uuid, Integer> partitions,
                                        Map<String, PartitionAssignment> target) {
        Map<String, String> owners = new HashMap<>();
        for (AssignmentMember member : members) {
            target.get(member.memberId()).forEachPartition((topic, partition) -> {
                assertThat(member.topicIds()).as("%s subscribes to %s", member.memberId(), topic).contains(topic);
                assertThat(owners.put(topic + "-" + partition, member.memberId())).as("%s-%d once", topic, partition)
                        .isNull();
            });
        }
        partitions.forEach((topic, count) -> {
            boolean subscribed = members.stream().anyMatch(member -> member.topicIds().contains(topic));
            for (int partition = 0; partition < count; partition++) {
                assertThat(owners.containsKey(topic + "-" + partition)).as("%s-%d assigned", topic, partition)
                        .isEqualTo(subscribed);
            }
        });
        for (AssignmentMember owner : members) {
            int ownerCount = target.get(owner.memberId()).size();
            target.get(owner.memberId()).forEachPartition((topic, partition) -> {
                for (AssignmentMember other : members) {
                    if (other.topicIds().contains(topic)) {
                        assertThat(ownerCount - target.get(other.memberId()).size())
                                .as("%s owns %s-%d; %s subscribes too", owner.memberId(), topic, partition,
                                        other.memberId()).isLessThanOrEqualTo(1);
                    }
                }
            });
        }
    }

    private static List<AssignmentMember> members(List<Integer> subscriptions,
                                                  Map<String, PartitionAssignment> current) {
        return AssignorMembers.fromBits(TOPICS, subscriptions, current);
    }
}

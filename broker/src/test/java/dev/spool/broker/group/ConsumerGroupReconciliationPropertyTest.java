package dev.spool.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Members joining, leaving and heartbeating in any order, with clients slow or quick to revoke: the target (of
 * either assignor)
 * and revoke-before-assign never let two members hold a partition at once (a {@link ConsumerGroup} refuses that, and
 * the test checks it too), and once the members stop changing and revoke what they are asked to, every member ends
 * up owning exactly its share of the target, at the target's epoch. Each client is modelled apart from the
 * coordinator: it holds what it was given until it revokes it.
 */
class ConsumerGroupReconciliationPropertyTest {

    private static final List<Uuid> TOPICS = List.of(new Uuid(1, 1), new Uuid(2, 2), new Uuid(3, 3));
    private static final Map<Uuid, Integer> PARTITIONS = Map.of(TOPICS.get(0), 6, TOPICS.get(1), 3, TOPICS.get(2), 1);

    /** One step: member {@code member} joins (subscribing to the topics in {@code topics}), leaves or heartbeats. */
    record Step(int kind, int member, int topics, boolean revokes) {
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        return Combinators.combine(Arbitraries.integers().between(0, 9), Arbitraries.integers().between(0, 4),
                Arbitraries.integers().between(1, 7), Arbitraries.of(true, false))
                .as((kind, member, topics, revokes) -> new Step(kind < 2 ? 0 : kind < 3 ? 1 : 2, member, topics, revokes))
                .list().ofMinSize(1).ofMaxSize(60);
    }

    @Property(tries = 500)
    void noPartitionIsEverHeldTwiceAndQuietMembersReachTheTarget(@ForAll("steps") List<Step> steps,
                                                                 @ForAll ServerAssignor assignor) {
        Simulation group = new Simulation(assignor);
        for (Step step : steps) {
            String memberId = "m-" + step.member();
            switch (step.kind()) {
                case 0 -> group.join(memberId, subscription(step.topics()));
                case 1 -> group.leave(memberId);
                default -> group.heartbeat(memberId, step.revokes());
            }
            group.checkNoPartitionHeldTwice();
        }
        for (int round = 0; round < 4; round++) {
            for (ConsumerGroupMember member : List.copyOf(group.group.members())) {
                group.heartbeat(member.memberId(), true);
                group.checkNoPartitionHeldTwice();
            }
        }
        for (ConsumerGroupMember member : group.group.members()) {
            assertThat(member.state()).as("%s", member).isEqualTo(MemberState.STABLE);
            assertThat(member.memberEpoch()).isEqualTo(group.group.assignmentEpoch());
            assertThat(member.assigned()).isEqualTo(group.group.target(member.memberId()));
            assertThat(Simulation.owned(group.clients.get(member.memberId()))).as("what %s's client consumes",
                    member.memberId()).isEqualTo(member.assigned());
        }
    }

    private static Set<Uuid> subscription(int bits) {
        Set<Uuid> topics = new HashSet<>();
        for (int i = 0; i < TOPICS.size(); i++) {
            if ((bits & (1 << i)) != 0) {
                topics.add(TOPICS.get(i));
            }
        }
        return topics;
    }

    /** A coordinator's view of one group and its members' clients, which own what they were last given. */
    private static final class Simulation {

        final ConsumerGroup group = new ConsumerGroup("g");
        final ServerAssignor assignor;
        final Map<String, Set<Uuid>> subscriptions = new HashMap<>();
        /** What each member's client holds: it consumes these partitions. */
        final Map<String, Set<String>> clients = new HashMap<>();

        Simulation(ServerAssignor assignor) {
            this.assignor = assignor;
        }

        void join(String memberId, Set<Uuid> topics) {
            if (group.member(memberId) == null) {
                group.putMember(ConsumerGroupMember.unknown(memberId));
            }
            subscriptions.put(memberId, topics);
            bumpEpoch();
        }

        void leave(String memberId) {
            if (group.member(memberId) != null) {
                group.removeMember(memberId);
                group.removeTarget(memberId);
                subscriptions.remove(memberId);
                clients.remove(memberId); // a client that leaves stops consuming first
                bumpEpoch();
            }
        }

        /**
         * The member's client heartbeats with what it owns, then takes what the answer gives it and, if
         * {@code revokes}, gives up at once what the answer no longer lists (else it holds it until a later one).
         */
        void heartbeat(String memberId, boolean revokes) {
            ConsumerGroupMember member = group.member(memberId);
            if (member == null) {
                return;
            }
            Set<String> holding = clients.computeIfAbsent(memberId, id -> new HashSet<>());
            ConsumerGroupMember answered = MemberReconciliation.reconcile(member, group.assignmentEpoch(),
                    group.target(memberId), owned(holding), group::partitionEpoch);
            group.putMember(answered);
            Set<String> given = new HashSet<>();
            answered.assigned().forEachPartition((topic, p) -> given.add(topic + "-" + p));
            holding.addAll(given);
            if (revokes) {
                holding.retainAll(given);
            }
        }

        private static PartitionAssignment owned(Set<String> holding) {
            Map<Uuid, List<Integer>> owned = new HashMap<>();
            for (String partition : holding) {
                int dash = partition.lastIndexOf('-');
                owned.computeIfAbsent(Uuid.fromString(partition.substring(0, dash)), t -> new ArrayList<>())
                        .add(Integer.parseInt(partition.substring(dash + 1)));
            }
            return PartitionAssignment.of(owned);
        }

        private void bumpEpoch() {
            int epoch = group.groupEpoch() + 1;
            group.setGroupEpoch(epoch, 0);
            List<AssignmentMember> members = new ArrayList<>();
            subscriptions.forEach((memberId, topics) -> members.add(
                    new AssignmentMember(memberId, topics, group.target(memberId))));
            assignor.assign(members, PARTITIONS).forEach(group::putTarget);
            group.setAssignmentEpoch(epoch, 0);
        }

        /** Neither two clients nor two members (assigned or revoking) hold a partition at once. */
        void checkNoPartitionHeldTwice() {
            Map<String, String> consumers = new HashMap<>();
            clients.forEach((memberId, holding) -> holding.forEach(partition -> assertThat(
                    consumers.put(partition, memberId)).as("partition %s consumed by two clients", partition).isNull()));
            Map<String, String> holders = new HashMap<>();
            for (ConsumerGroupMember member : group.members()) {
                PartitionAssignment.PartitionAction hold = (topic, p) -> assertThat(
                        holders.put(topic + "-" + p, member.memberId())).as("partition %s-%d held twice", topic, p)
                        .isNull();
                member.assigned().forEachPartition(hold);
                member.pendingRevocation().forEachPartition(hold);
            }
        }
    }
}

package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Three Java consumers (each in its own JVM) share a 6-partition topic: every partition has exactly
 * one owner; one member is killed with SIGKILL (no LeaveGroup) and its partitions move to the others
 * within the session timeout; a new member joins and the load spreads again. Throughout, each member reads and
 * commits synchronously, and an audit of what each read and committed finds every record read with a commit exactly
 * once. Range, round-robin and cooperative-sticky assignors, and KIP-848's consumer protocol.
 */
class GroupRebalanceIT {

    private static final int PARTITIONS = 6;
    /** Session timeout plus the rejoin and a little scheduling slack. */
    private static final long MOVE_DEADLINE_MS = GroupMemberMain.SESSION_TIMEOUT_MS + 7000;

    private static SpoolProcess spool;
    private static Admin admin;

    @BeforeAll
    static void start() throws Exception {
        spool = SpoolProcess.start("group.initial.rebalance.delay.ms=0", "group.min.session.timeout.ms=1000",
                "group.coordinator.rebalance.protocols=classic,consumer",
                "group.consumer.session.timeout.ms=" + GroupMemberMain.SESSION_TIMEOUT_MS,
                "group.consumer.heartbeat.interval.ms=300");
        admin = GroupClients.admin(spool.bootstrap());
    }

    @AfterAll
    static void stop() throws Exception {
        if (admin != null) {
            admin.close();
        }
        if (spool != null) {
            spool.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"org.apache.kafka.clients.consumer.RangeAssignor",
        "org.apache.kafka.clients.consumer.RoundRobinAssignor",
        "org.apache.kafka.clients.consumer.CooperativeStickyAssignor", GroupMemberMain.CONSUMER_PROTOCOL})
    void partitionsHaveOneOwnerAndMoveWhenAMemberDiesOrJoins(String assignor) throws Exception {
        String name = assignor.substring(assignor.lastIndexOf('.') + 1).toLowerCase();
        String topic = "rebalance-" + name;
        String group = "group-" + name;
        admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get();
        List<GroupMemberProcess> members = new ArrayList<>();
        try {
            List<String> produced = new ArrayList<>(produce(topic, "before", 300));
            for (int i = 0; i < 3; i++) {
                members.add(GroupMemberProcess.start(spool.bootstrap(), topic, group, assignor));
            }
            awaitAssignment(members, sizes -> sizes.equals(List.of(2, 2, 2)), 60_000);
            ConsumerGroupDescription described = admin.describeConsumerGroups(List.of(group)).all().get().get(group);
            assertThat(described.members()).hasSize(3);

            GroupMemberProcess victim = members.remove(0);
            victim.kill();
            long killedAtNanos = System.nanoTime();
            produced.addAll(produce(topic, "after-kill", 150));
            awaitAssignment(members, sizes -> sizes.equals(List.of(3, 3)), MOVE_DEADLINE_MS);
            assertThat((System.nanoTime() - killedAtNanos) / 1_000_000).isLessThan(MOVE_DEADLINE_MS);

            members.add(GroupMemberProcess.start(spool.bootstrap(), topic, group, assignor));
            produced.addAll(produce(topic, "after-join", 150));
            awaitAssignment(members, sizes -> sizes.equals(List.of(2, 2, 2)), 30_000);
            members.add(victim);
            awaitEveryRecordReadOnceWithCommit(members, produced);
        } finally {
            for (GroupMemberProcess member : members) {
                member.close();
            }
        }
    }

    private static List<String> produce(String topic, String prefix, int count) throws Exception {
        GroupClients.produce(spool.bootstrap(), topic, prefix, count);
        List<String> values = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            values.add(prefix + "-" + i);
        }
        return values;
    }

    /**
     * The audit: waits until every produced record was read in a poll whose synchronous commit succeeded, and fails
     * if one was read so twice (two owners at once, or a commit lost). A record read in a poll whose commit failed, or
     * by the killed member before it could commit, may be read again by the partition's next owner.
     */
    private static void awaitEveryRecordReadOnceWithCommit(List<GroupMemberProcess> members, List<String> produced)
            throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        Set<String> committed = new HashSet<>();
        while (true) {
            committed.clear();
            for (GroupMemberProcess member : members) {
                for (String value : member.reads(true)) {
                    assertThat(committed.add(value)).as("%s read twice with a commit; uncommitted reads: %s", value,
                            members.stream().map(each -> each.reads(false)).toList()).isTrue();
                }
            }
            if (committed.containsAll(produced) || System.nanoTime() > deadline) {
                break;
            }
            Thread.sleep(100);
        }
        assertThat(committed).as("every record read with a commit").containsAll(produced);
    }

    /**
     * Waits until the members' assignments are disjoint, cover every partition, and have the sizes
     * {@code expectedSizes} accepts (sorted descending).
     */
    private static void awaitAssignment(List<GroupMemberProcess> members, Predicate<List<Integer>> expectedSizes,
                                        long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000;
        String last = "";
        while (System.nanoTime() < deadline) {
            List<Integer> sizes = new ArrayList<>();
            Set<Integer> union = new HashSet<>();
            int total = 0;
            for (GroupMemberProcess member : members) {
                Set<Integer> owned = member.assignment();
                sizes.add(owned.size());
                union.addAll(owned);
                total += owned.size();
            }
            sizes.sort((a, b) -> b - a);
            if (total == PARTITIONS && union.size() == PARTITIONS && expectedSizes.test(sizes)) {
                return;
            }
            last = sizes + " " + union;
            Thread.sleep(50);
        }
        StringBuilder outputs = new StringBuilder();
        for (GroupMemberProcess member : members) {
            outputs.append("\n--- member:\n").append(member.output());
        }
        throw new AssertionError("assignments did not settle within " + timeoutMs + " ms; last " + last + outputs
                + "\n--- broker:\n" + String.join("\n", spool.output()));
    }
}

package dev.spool.broker.group;

import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Members for the assignors' property tests, drawn as numbers. Stateless. */
final class AssignorMembers {

    private AssignorMembers() {
    }

    /**
     * Member m-i subscribes to the topics whose bits are set in {@code subscriptions[i]} (bit t: {@code topics[t]}),
     * with its share of the last target {@code current}.
     */
    static List<AssignmentMember> fromBits(List<Uuid> topics, List<Integer> subscriptions,
                                           Map<String, PartitionAssignment> current) {
        List<AssignmentMember> members = new ArrayList<>();
        for (int i = 0; i < subscriptions.size(); i++) {
            Set<Uuid> subscribed = new HashSet<>();
            for (int t = 0; t < topics.size(); t++) {
                if ((subscriptions.get(i) & (1 << t)) != 0) {
                    subscribed.add(topics.get(t));
                }
            }
            String memberId = "m-" + i;
            members.add(new AssignmentMember(memberId, subscribed,
                    current.getOrDefault(memberId, PartitionAssignment.EMPTY)));
        }
        return members;
    }
}

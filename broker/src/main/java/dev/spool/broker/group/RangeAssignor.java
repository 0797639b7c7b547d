package dev.spool.broker.group;

import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code range} server-side assignor of the consumer protocol (KIP-848): for each topic, each subscriber gets its
 * quota of partitions (the partitions divided by the subscribers, the first ones in member id order one more when
 * they do not divide evenly). It is sticky, as Kafka's: a subscriber first keeps what its last target gave it, up to
 * its quota; the partitions left go, in order, to those under their quota, in member id order (the first of them
 * taking the extra partitions not kept). From nothing that is
 * consecutive ranges; topics with as many partitions and the same subscribers stay co-partitioned (the member given
 * partition p of one is given partition p of the others, which joins of keyed topics rely on), since every topic
 * goes through the same steps. Stateless and thread-safe.
 */
final class RangeAssignor {

    static final String NAME = "range";

    private RangeAssignor() {
    }

    static Map<String, PartitionAssignment> assign(List<AssignmentMember> members, Map<Uuid, Integer> partitionCounts) {
        Map<String, AssignmentMember> byId = new HashMap<>();
        Map<String, Map<Uuid, List<Integer>>> owned = new TreeMap<>();
        members.forEach(member -> {
            byId.put(member.memberId(), member);
            owned.put(member.memberId(), new HashMap<>());
        });
        AssignmentMember.subscribersByTopic(members, partitionCounts).forEach((topicId, ids) -> {
            Map<String, List<Integer>> shares = assignTopic(topicId, partitionCounts.get(topicId), ids, byId);
            shares.forEach((memberId, partitions) -> owned.get(memberId).put(topicId, partitions));
        });
        Map<String, PartitionAssignment> target = new HashMap<>();
        owned.forEach((memberId, partitions) -> target.put(memberId, PartitionAssignment.of(partitions)));
        return target;
    }

    /** One topic's partitions among its subscribers ({@code ids}, sorted): kept shares first, then the rest. */
    private static Map<String, List<Integer>> assignTopic(Uuid topicId, int partitions, List<String> ids,
                                                          Map<String, AssignmentMember> members) {
        int each = partitions / ids.size();
        int extras = partitions % ids.size();
        Map<String, List<Integer>> shares = new LinkedHashMap<>();
        boolean[] taken = new boolean[partitions];
        for (String id : ids) {
            List<Integer> kept = new ArrayList<>();
            int quota = each + (extras > 0 ? 1 : 0);
            for (int partition : members.get(id).current().partitions(topicId)) {
                if (kept.size() < quota && partition < partitions && !taken[partition]) {
                    kept.add(partition);
                    taken[partition] = true;
                }
            }
            if (kept.size() > each) {
                extras--;
            }
            shares.put(id, kept);
        }
        int next = nextFree(taken, 0);
        for (String id : ids) {
            List<Integer> share = shares.get(id);
            int quota = share.size() > each ? share.size() : each + (extras > 0 ? 1 : 0);
            if (share.size() <= each && quota > each) {
                extras--;
            }
            while (share.size() < quota) {
                share.add(next);
                taken[next] = true;
                next = nextFree(taken, next);
            }
        }
        return shares;
    }

    private static int nextFree(boolean[] taken, int from) {
        int next = from;
        while (next < taken.length && taken[next]) {
            next++;
        }
        return next;
    }
}

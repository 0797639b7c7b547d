package dev.spool.broker.group;

import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code range} server-side assignor of the consumer protocol (KIP-848): for each topic, its subscribers in
 * member id order take consecutive ranges of its partitions, the first ones one more when they do not divide evenly.
 * Topics with as many partitions and the same subscribers are co-partitioned: the member given partition p of one
 * is given partition p of the others, which joins of keyed topics rely on. Unlike Kafka's, it does not keep a
 * member's last ranges when membership changes. Stateless and thread-safe.
 */
final class RangeAssignor {

    static final String NAME = "range";

    private RangeAssignor() {
    }

    static Map<String, PartitionAssignment> assign(List<AssignmentMember> members, Map<Uuid, Integer> partitionCounts) {
        Map<String, Map<Uuid, List<Integer>>> owned = new TreeMap<>();
        members.forEach(member -> owned.put(member.memberId(), new HashMap<>()));
        AssignmentMember.subscribersByTopic(members, partitionCounts).forEach((topicId, ids) -> {
            int partitions = partitionCounts.get(topicId);
            int each = partitions / ids.size();
            int extra = partitions % ids.size();
            int next = 0;
            for (int i = 0; i < ids.size(); i++) {
                int count = each + (i < extra ? 1 : 0);
                List<Integer> range = new ArrayList<>(count);
                for (int p = next; p < next + count; p++) {
                    range.add(p);
                }
                next += count;
                owned.get(ids.get(i)).put(topicId, range);
            }
        });
        Map<String, PartitionAssignment> target = new HashMap<>();
        owned.forEach((memberId, partitions) -> target.put(memberId, PartitionAssignment.of(partitions)));
        return target;
    }
}

package dev.spool.broker.group;

import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A member as a server-side assignor sees it: the topics it subscribes to (by id) and its share of the last target
 * assignment (what a sticky assignor keeps). Immutable.
 */
record AssignmentMember(String memberId, Set<Uuid> topicIds, PartitionAssignment current) {

    /** For each existing topic (one of {@code partitionCounts}), the ids of the members subscribing to it, sorted. */
    static Map<Uuid, List<String>> subscribersByTopic(List<AssignmentMember> members, Map<Uuid, Integer> partitionCounts) {
        Map<Uuid, List<String>> subscribers = new HashMap<>();
        for (AssignmentMember member : members) {
            for (Uuid topicId : member.topicIds()) {
                if (partitionCounts.containsKey(topicId)) {
                    subscribers.computeIfAbsent(topicId, id -> new ArrayList<>()).add(member.memberId());
                }
            }
        }
        subscribers.values().forEach(ids -> ids.sort(String::compareTo));
        return subscribers;
    }
}

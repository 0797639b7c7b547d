package dev.spool.broker.group;

import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The {@code uniform} server-side assignor of the consumer protocol (KIP-848), Kafka's default: every partition of a
 * subscribed topic goes to one member subscribed to it, as evenly as the subscriptions allow, and a partition stays
 * with the member that had it whenever balance permits (so a rebalance moves as few partitions as it can).
 *
 * <p>What it guarantees, and what its property test checks: no member subscribed to a partition's topic has two or
 * more partitions fewer than that partition's owner. Stateless and thread-safe.
 */
final class UniformAssignor {

    static final String NAME = "uniform";

    /** One partition of a topic. */
    private record Partition(Uuid topicId, int partition) {
    }

    /**
     * The order members' partitions are kept in (the last ones move first), so that the same input gives the same
     * target without sorting at each move: by topic id, then number.
     */
    private static final Comparator<Partition> ORDER = Comparator.<Partition, Uuid>comparing(Partition::topicId,
            PartitionAssignment::compare).thenComparingInt(Partition::partition);

    private UniformAssignor() {
    }

    /**
     * The new target assignment of {@code members}, given each topic's partition count ({@code partitionCounts}; a
     * topic missing there does not exist, and its partitions are assigned to no one).
     */
    static Map<String, PartitionAssignment> assign(List<AssignmentMember> members, Map<Uuid, Integer> partitionCounts) {
        Map<String, NavigableSet<Partition>> owned = new TreeMap<>();
        members.forEach(member -> owned.put(member.memberId(), new TreeSet<>(ORDER)));
        Map<Uuid, List<String>> subscribers = AssignmentMember.subscribersByTopic(members, partitionCounts);
        Set<Partition> taken = keepCurrent(members, partitionCounts, owned);
        assignTheRest(partitionCounts, subscribers, owned, taken);
        balance(subscribers, owned);
        Map<String, PartitionAssignment> target = new HashMap<>();
        owned.forEach((memberId, partitions) -> target.put(memberId, toAssignment(partitions)));
        return target;
    }

    /** Each member keeps what it had that still exists and that it still subscribes to. */
    private static Set<Partition> keepCurrent(List<AssignmentMember> members, Map<Uuid, Integer> partitionCounts,
                                              Map<String, NavigableSet<Partition>> owned) {
        Set<Partition> taken = new HashSet<>();
        for (AssignmentMember member : members) {
            member.current().forEachPartition((topicId, partition) -> {
                Integer count = partitionCounts.get(topicId);
                Partition kept = new Partition(topicId, partition);
                if (count != null && partition < count && member.topicIds().contains(topicId) && taken.add(kept)) {
                    owned.get(member.memberId()).add(kept);
                }
            });
        }
        return taken;
    }

    /** Every partition no one keeps goes to its topic's subscriber with the fewest partitions. */
    private static void assignTheRest(Map<Uuid, Integer> partitionCounts, Map<Uuid, List<String>> subscribers,
                                      Map<String, NavigableSet<Partition>> owned, Set<Partition> taken) {
        List<Uuid> topics = new ArrayList<>(subscribers.keySet());
        topics.sort(Comparator.comparing(Uuid::toString));
        for (Uuid topicId : topics) {
            for (int partition = 0; partition < partitionCounts.get(topicId); partition++) {
                Partition free = new Partition(topicId, partition);
                if (!taken.contains(free)) {
                    owned.get(leastLoaded(subscribers.get(topicId), owned)).add(free);
                }
            }
        }
    }

    /**
     * Moves one partition at a time from the most loaded member that has one a subscriber of its topic with at least
     * two fewer could take, until none has: each move narrows the spread, so it ends, and taking from the most loaded
     * first moves no partition that a fair share would keep.
     */
    private static void balance(Map<Uuid, List<String>> subscribers, Map<String, NavigableSet<Partition>> owned) {
        while (moveOne(subscribers, owned)) {
            // until balanced
        }
    }

    private static boolean moveOne(Map<Uuid, List<String>> subscribers, Map<String, NavigableSet<Partition>> owned) {
        List<String> byLoad = new ArrayList<>(owned.keySet());
        byLoad.sort(Comparator.comparingInt((String id) -> owned.get(id).size()).reversed()
                .thenComparing(Comparator.naturalOrder()));
        for (String loaded : byLoad) {
            for (Partition partition : owned.get(loaded).descendingSet()) {
                String lighter = leastLoaded(subscribers.get(partition.topicId()), owned);
                if (owned.get(loaded).size() - owned.get(lighter).size() > 1) {
                    owned.get(loaded).remove(partition);
                    owned.get(lighter).add(partition);
                    return true;
                }
            }
        }
        return false;
    }

    private static String leastLoaded(List<String> candidates, Map<String, NavigableSet<Partition>> owned) {
        String least = candidates.get(0);
        for (String candidate : candidates) {
            if (owned.get(candidate).size() < owned.get(least).size()) {
                least = candidate;
            }
        }
        return least;
    }

    private static PartitionAssignment toAssignment(Set<Partition> partitions) {
        Map<Uuid, List<Integer>> byTopic = new HashMap<>();
        for (Partition partition : partitions) {
            byTopic.computeIfAbsent(partition.topicId(), id -> new ArrayList<>()).add(partition.partition());
        }
        return PartitionAssignment.of(byTopic);
    }
}

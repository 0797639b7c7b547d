package dev.spool.broker.group;

import dev.spool.protocol.types.Uuid;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The server-side assignors of the consumer protocol (KIP-848) by the names clients ask for in
 * {@code group.remote.assignor} and the broker lists in {@code group.consumer.assignors}. Immutable.
 */
enum ServerAssignor {
    UNIFORM(UniformAssignor.NAME) {
        @Override
        Map<String, PartitionAssignment> assign(List<AssignmentMember> members, Map<Uuid, Integer> partitionCounts) {
            return UniformAssignor.assign(members, partitionCounts);
        }
    },
    RANGE(RangeAssignor.NAME) {
        @Override
        Map<String, PartitionAssignment> assign(List<AssignmentMember> members, Map<Uuid, Integer> partitionCounts) {
            return RangeAssignor.assign(members, partitionCounts);
        }
    };

    private final String assignorName;

    ServerAssignor(String assignorName) {
        this.assignorName = assignorName;
    }

    String assignorName() {
        return assignorName;
    }

    /** The new target assignment of {@code members}, given each existing topic's partition count. */
    abstract Map<String, PartitionAssignment> assign(List<AssignmentMember> members, Map<Uuid, Integer> partitionCounts);

    /** The assignor of that name, or null. */
    static ServerAssignor named(String name) {
        for (ServerAssignor assignor : values()) {
            if (assignor.assignorName.equals(name)) {
                return assignor;
            }
        }
        return null;
    }

    /**
     * The assignor a group uses, as Kafka chooses it: the one most of its members ask for (the first of
     * {@code enabled} among equals), or the first of {@code enabled} when none asks.
     */
    static ServerAssignor chosenBy(Collection<ConsumerGroupMember> members, List<String> enabled) {
        Map<String, Integer> asks = new HashMap<>();
        for (ConsumerGroupMember member : members) {
            if (member.serverAssignor() != null && enabled.contains(member.serverAssignor())) {
                asks.merge(member.serverAssignor(), 1, Integer::sum);
            }
        }
        String chosen = enabled.get(0);
        int most = 0;
        for (String name : enabled) {
            if (asks.getOrDefault(name, 0) > most) {
                chosen = name;
                most = asks.get(name);
            }
        }
        return named(chosen);
    }
}

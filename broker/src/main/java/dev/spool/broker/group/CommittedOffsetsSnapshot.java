package dev.spool.broker.group;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Thread-safe (stateless): every committed offset of every loaded coordinator shard, copied on the coordinator
 * thread, for the consumer lag metric.
 */
public final class CommittedOffsetsSnapshot {

    /** One group's committed position on one partition. Immutable. */
    public record GroupOffset(String groupId, String topic, int partition, long offset) {
    }

    private CommittedOffsetsSnapshot() {
    }

    /** The committed offsets now, gathered on the coordinator thread. */
    public static CompletableFuture<List<GroupOffset>> take(GroupCoordinator coordinator) {
        return coordinator.callAll(CommittedOffsetsSnapshot::copy).thenApply(perShard -> {
            List<GroupOffset> all = new ArrayList<>();
            perShard.forEach(all::addAll);
            return all;
        });
    }

    private static List<GroupOffset> copy(GroupCoordinatorShard shard) {
        List<GroupOffset> offsets = new ArrayList<>();
        OffsetStore store = shard.offsets();
        for (String groupId : store.groupIds()) {
            for (Map.Entry<String, TreeMap<Integer, CommittedOffset>> topic : store.offsets(groupId).entrySet()) {
                for (Map.Entry<Integer, CommittedOffset> partition : topic.getValue().entrySet()) {
                    offsets.add(new GroupOffset(groupId, topic.getKey(), partition.getKey(),
                            partition.getValue().offset()));
                }
            }
        }
        return offsets;
    }
}

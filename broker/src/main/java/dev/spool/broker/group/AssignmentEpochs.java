package dev.spool.broker.group;

import dev.spool.protocol.types.Uuid;
import java.util.HashMap;
import java.util.Map;

/**
 * For each partition a consumer-protocol member owns, the member epoch at which it was given it (KIP-1251): a commit
 * sent at an older epoch than the member's current one is still the owner's if the partition was already its then.
 * Immutable.
 */
final class AssignmentEpochs {

    static final AssignmentEpochs EMPTY = new AssignmentEpochs(Map.of());

    private final Map<Uuid, Map<Integer, Integer>> epochs;

    private AssignmentEpochs(Map<Uuid, Map<Integer, Integer>> epochs) {
        this.epochs = epochs;
    }

    /** The epoch the partition was given at, or -1 if the member does not own it. */
    int epochOf(Uuid topicId, int partition) {
        Map<Integer, Integer> byPartition = epochs.get(topicId);
        Integer epoch = byPartition == null ? null : byPartition.get(partition);
        return epoch == null ? -1 : epoch;
    }

    /** The epochs of {@code owned}: those this one has, {@code newEpoch} for the others. */
    AssignmentEpochs forOwned(PartitionAssignment owned, int newEpoch) {
        Builder builder = new Builder();
        owned.forEachPartition((topicId, partition) -> {
            int epoch = epochOf(topicId, partition);
            builder.put(topicId, partition, epoch >= 0 ? epoch : newEpoch);
        });
        return builder.build();
    }

    /** Collects epochs, partition by partition. Not thread-safe. */
    static final class Builder {
        private final Map<Uuid, Map<Integer, Integer>> epochs = new HashMap<>();

        Builder put(Uuid topicId, int partition, int epoch) {
            epochs.computeIfAbsent(topicId, id -> new HashMap<>()).put(partition, epoch);
            return this;
        }

        AssignmentEpochs build() {
            if (epochs.isEmpty()) {
                return EMPTY;
            }
            Map<Uuid, Map<Integer, Integer>> frozen = new HashMap<>();
            epochs.forEach((topicId, byPartition) -> frozen.put(topicId, Map.copyOf(byPartition)));
            return new AssignmentEpochs(Map.copyOf(frozen));
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof AssignmentEpochs that && epochs.equals(that.epochs);
    }

    @Override
    public int hashCode() {
        return epochs.hashCode();
    }

    @Override
    public String toString() {
        return epochs.toString();
    }
}

package dev.spool.broker.metadata;

import java.util.ArrayList;
import java.util.List;

/**
 * One partition as the metadata log describes it: replicas, in-sync replicas, leader and epochs; (KIP-966) the
 * eligible leader replicas, which left the ISR while it was below min.insync.replicas and so hold every committed
 * record, and the last known leader of a partition whose ISR and ELR both emptied ({@code lastKnownElr}, as Kafka
 * keeps it); and (KIP-455) a reassignment under way: {@code replicas} then holds the target replicas followed by
 * those being removed, {@code addingReplicas} the target's new ones, {@code removingReplicas} those leaving. On one
 * broker the replica set is this broker, and it leads. Immutable.
 */
public record PartitionImage(int partition, List<Integer> replicas, List<Integer> isr, int leader, int leaderEpoch,
                             int partitionEpoch, List<Integer> elr, List<Integer> lastKnownElr,
                             List<Integer> addingReplicas, List<Integer> removingReplicas) {

    public PartitionImage {
        replicas = List.copyOf(replicas);
        isr = List.copyOf(isr);
        elr = List.copyOf(elr);
        lastKnownElr = List.copyOf(lastKnownElr);
        addingReplicas = List.copyOf(addingReplicas);
        removingReplicas = List.copyOf(removingReplicas);
    }

    /** A partition with no eligible leader replicas outside its ISR, and no reassignment. */
    public PartitionImage(int partition, List<Integer> replicas, List<Integer> isr, int leader, int leaderEpoch,
                          int partitionEpoch) {
        this(partition, replicas, isr, leader, leaderEpoch, partitionEpoch, List.of(), List.of(), List.of(), List.of());
    }

    /** Whether a reassignment is under way. */
    public boolean reassigning() {
        return !addingReplicas.isEmpty() || !removingReplicas.isEmpty();
    }

    /** The replicas a reassignment under way ends with (all of them when none is). */
    public List<Integer> targetReplicas() {
        List<Integer> target = new ArrayList<>(replicas);
        target.removeAll(removingReplicas);
        return target;
    }

    /** The replicas before a reassignment under way (all of them when none is). */
    public List<Integer> originalReplicas() {
        List<Integer> original = new ArrayList<>(replicas);
        original.removeAll(addingReplicas);
        return original;
    }
}

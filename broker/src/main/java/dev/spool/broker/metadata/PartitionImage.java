package dev.spool.broker.metadata;

import java.util.List;

/**
 * One partition as the metadata log describes it: replicas, in-sync replicas, leader and epochs, and (KIP-966) the
 * eligible leader replicas, which left the ISR while it was below min.insync.replicas and so hold every committed
 * record, and the last known leader of a partition whose ISR and ELR both emptied ({@code lastKnownElr}, as Kafka
 * keeps it). On one broker the replica set is this broker, and it leads. Immutable.
 */
public record PartitionImage(int partition, List<Integer> replicas, List<Integer> isr, int leader, int leaderEpoch,
                             int partitionEpoch, List<Integer> elr, List<Integer> lastKnownElr) {

    public PartitionImage {
        replicas = List.copyOf(replicas);
        isr = List.copyOf(isr);
        elr = List.copyOf(elr);
        lastKnownElr = List.copyOf(lastKnownElr);
    }

    /** A partition with no eligible leader replicas outside its ISR. */
    public PartitionImage(int partition, List<Integer> replicas, List<Integer> isr, int leader, int leaderEpoch,
                          int partitionEpoch) {
        this(partition, replicas, isr, leader, leaderEpoch, partitionEpoch, List.of(), List.of());
    }
}

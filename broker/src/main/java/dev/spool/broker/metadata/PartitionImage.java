package dev.spool.broker.metadata;

import java.util.List;

/**
 * One partition as the metadata log describes it: replicas, in-sync replicas, leader and epochs.
 * On one broker the replica set is this broker, and it leads. Immutable.
 */
public record PartitionImage(int partition, List<Integer> replicas, List<Integer> isr, int leader, int leaderEpoch,
                             int partitionEpoch) {

    public PartitionImage {
        replicas = List.copyOf(replicas);
        isr = List.copyOf(isr);
    }
}

package dev.spool.it.history;

import java.util.Objects;

/**
 * A position in one partition, as a seek or an offset commit names it; written
 * {@code topic-partition:offset}. Immutable, so thread-safe.
 */
public record PartitionOffset(LogPartition partition, long offset) {

    public PartitionOffset {
        Objects.requireNonNull(partition, "partition");
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset + " in " + partition);
        }
    }

    @Override
    public String toString() {
        return partition + ":" + offset;
    }
}

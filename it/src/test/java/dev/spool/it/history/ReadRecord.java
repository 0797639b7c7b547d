package dev.spool.it.history;

import java.util.Objects;

/**
 * One record a poll returned: where it was in the log and the value it held. Written
 * {@code topic-partition:offset:value} in a history file. Immutable, so thread-safe.
 */
public record ReadRecord(LogPartition partition, long offset, String value) {

    public ReadRecord {
        Objects.requireNonNull(partition, "partition");
        HistoryLineFormat.requireValue(value);
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset + " read in " + partition);
        }
    }

    public static ReadRecord of(String partition, long offset, String value) {
        return new ReadRecord(LogPartition.parse(partition), offset, value);
    }

    @Override
    public String toString() {
        return partition + ":" + offset + ":" + value;
    }
}

package dev.spool.broker.partition;

/**
 * Implementations are thread-safe. Told that records were appended to a partition and its high watermark may
 * have moved: parked fetches use it to answer as soon as there is data. Called on the appending thread, so
 * an implementation only hands the work on and never blocks.
 */
@FunctionalInterface
public interface AppendListener {

    void onAppend(Partition partition);
}

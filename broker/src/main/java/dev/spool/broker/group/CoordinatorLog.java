package dev.spool.broker.group;

import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;

/**
 * Where one coordinator shard's records live: a partition of {@code __consumer_offsets}. Appends
 * return once the records are in the log, so a caller acknowledges nothing before that; replay reads
 * every record from the log start. Not thread-safe: owned by the shard's coordinator thread.
 */
interface CoordinatorLog {

    /** Appends the records as one batch. */
    void append(List<CoordinatorRecord> records) throws IOException;

    /** Feeds every record, oldest first, to {@code consumer}. */
    void replay(Consumer<CoordinatorRecord> consumer) throws IOException;
}

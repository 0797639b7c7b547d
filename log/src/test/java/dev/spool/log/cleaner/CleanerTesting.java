package dev.spool.log.cleaner;

import dev.spool.log.LogClock;
import dev.spool.log.PartitionLog;
import dev.spool.log.TopicPartition;

import java.io.IOException;

/** Test helper for tests outside this package: one synchronous cleaning of a log with a 1 MiB offset map. */
public final class CleanerTesting {
    private CleanerTesting() {
    }

    /** Cleans {@code log} from {@code firstDirtyOffset} (-1: from its start); returns the next first dirty offset. */
    public static long cleanFully(PartitionLog log, LogClock clock, long firstDirtyOffset) throws IOException {
        LogToClean target = LogToClean.of(new TopicPartition("test", 0), log, firstDirtyOffset, clock.nowMs());
        return new Cleaner(1 << 20, clock).clean(target, () -> false).nextDirtyOffset();
    }
}

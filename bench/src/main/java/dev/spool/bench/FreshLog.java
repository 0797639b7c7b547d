package dev.spool.bench;

import dev.spool.fixtures.DaemonScheduler;
import dev.spool.log.FileTrees;
import dev.spool.log.LogClock;
import dev.spool.log.PartitionLog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.ScheduledExecutorService;

/** Not thread-safe (one benchmark thread): an empty partition log in a new scratch directory, and a 16 KiB batch. */
final class FreshLog {
    final ScheduledExecutorService scheduler = DaemonScheduler.start("bench-scheduler");
    final Path dir;
    final PartitionLog log;
    final ByteBuffer batch = BenchLogs.batch16KiB();

    FreshLog(String name, boolean fsyncEachAppend) throws IOException {
        dir = BenchLogs.newDir(name);
        log = PartitionLog.open(dir.resolve("bench-0"), BenchLogs.config(fsyncEachAppend), LogClock.SYSTEM, scheduler);
    }

    /** Closes the log and removes its directory. */
    void delete() throws IOException {
        log.close();
        scheduler.shutdownNow();
        FileTrees.deleteRecursively(dir);
    }
}

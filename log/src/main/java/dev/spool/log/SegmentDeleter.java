package dev.spool.log;

import dev.spool.log.segment.LogSegment;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Thread-safe (renames happen on the caller's thread, under the partition lock; removal on the
 * scheduler): Kafka's two-step segment deletion. Files are renamed {@code *.deleted} at once, so a
 * restart never brings them back, and are closed and removed after {@code file.delete.delay.ms}, so a
 * reader still sending from them is not cut off.
 */
final class SegmentDeleter {
    private final ScheduledExecutorService scheduler;
    private final Consumer<IOException> onDeleteError;

    /** {@code onDeleteError} is told of a failed removal (on the scheduler, where no caller waits for it). */
    SegmentDeleter(ScheduledExecutorService scheduler, Consumer<IOException> onDeleteError) {
        this.scheduler = scheduler;
        this.onDeleteError = onDeleteError;
    }

    void deleteAsync(List<LogSegment> removed, long fileDeleteDelayMs) throws IOException {
        if (removed.isEmpty()) {
            return;
        }
        for (LogSegment segment : removed) {
            segment.renameToDeleted();
        }
        List<LogSegment> toDelete = List.copyOf(removed);
        scheduler.schedule(() -> {
            for (LogSegment segment : toDelete) {
                try {
                    segment.deleteFiles();
                } catch (IOException e) {
                    onDeleteError.accept(new IOException("Cannot delete " + segment.logPath(), e));
                }
            }
        }, fileDeleteDelayMs, TimeUnit.MILLISECONDS);
    }
}

package dev.spool.log;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Called on the {@link LogManager}'s scheduler thread, once per log directory, after that directory was
 * taken offline: its logs no longer read or write, and every operation on them throws
 * {@link LogDirOfflineException}. {@code onlineDirs} are the directories still in service (empty when
 * every one has failed: Kafka then stops the broker).
 */
@FunctionalInterface
public interface LogDirFailureListener {
    void onLogDirFailure(Path logDir, IOException cause, List<Path> onlineDirs);
}

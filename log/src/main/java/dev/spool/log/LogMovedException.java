package dev.spool.log;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Immutable: a change asked of a partition log that has moved to another log dir (AlterReplicaLogDirs) since the
 * caller took it; the caller takes the partition's log again ({@link PartitionLog#movedTo()}). An
 * {@link IOException}, so a caller that does not look again answers KAFKA_STORAGE_ERROR, which clients retry.
 */
public final class LogMovedException extends IOException {
    private static final long serialVersionUID = 1L;

    public LogMovedException(Path from, Path to) {
        super("The log in " + from + " moved to " + to);
    }
}

package dev.spool.log;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Thread-safe: the log directories that failed (KIP-112, "Handle disk failure for JBOD"). Whoever hits
 * an I/O error in a directory reports it here; the first report of a directory marks it offline and is
 * logged at ERROR with its cause, later ones are not (the directory is already out of service).
 *
 * <p>Design note: an out-of-space error (ENOSPC, EDQUOT) does not take a directory offline, unlike
 * Kafka, where a full disk needs a restart: the append that hit it fails with KAFKA_STORAGE_ERROR (its
 * partial bytes are overwritten by the next append), and appends work again once space returns
 * (issue 8: "recovers when space returns"). Java gives no errno, so the kernel's message tells.
 */
public final class LogDirFailureChannel {
    private static final Logger LOG = LoggerFactory.getLogger(LogDirFailureChannel.class);
    private static final String[] OUT_OF_SPACE_MESSAGES = {"No space left on device", "Disk quota exceeded"};

    private final Set<Path> offline = ConcurrentHashMap.newKeySet();

    /**
     * Marks {@code logDir} offline because of {@code cause}; true only for the first report of that
     * directory, which the caller then takes out of service. False for an out-of-space error.
     */
    public boolean maybeMarkOffline(Path logDir, IOException cause) {
        if (isOutOfSpace(cause) || !offline.add(logDir)) {
            return false;
        }
        LOG.error("Log dir {} failed and is taken offline: its partitions now answer KAFKA_STORAGE_ERROR", logDir,
                cause);
        return true;
    }

    public boolean isOffline(Path logDir) {
        return offline.contains(logDir);
    }

    /** Whether the error, or one of its causes, is the file system's "no space left" (or over quota). */
    public static boolean isOutOfSpace(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            String message = t.getMessage();
            if (message != null) {
                for (String outOfSpace : OUT_OF_SPACE_MESSAGES) {
                    if (message.contains(outOfSpace)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}

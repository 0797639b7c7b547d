package dev.spool.log;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Immutable: an operation on a log whose directory was taken offline after an I/O error (KIP-112). An
 * {@link IOException}, so every caller that answers a failed disk operation with KAFKA_STORAGE_ERROR
 * answers this one the same way.
 */
public final class LogDirOfflineException extends IOException {
    private static final long serialVersionUID = 1L;

    public LogDirOfflineException(Path logDir, String what) {
        super(what + ": log dir " + logDir + " is offline after an I/O error");
    }

    public LogDirOfflineException(String message) {
        super(message);
    }
}

package dev.spool.log;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Thread-safe implementations only: told of every I/O error a log operation hit in {@code logDir}, on the
 * thread that hit it (maybe holding a partition's lock, so it must not block). The {@link LogManager}
 * takes the directory offline ({@link LogDirFailureChannel}); the error itself still reaches the caller.
 */
@FunctionalInterface
public interface IoErrorReporter {
    /** For logs opened outside a log manager (tools, tests): the error only reaches the caller. */
    IoErrorReporter NONE = (logDir, cause) -> { };

    void onIoError(Path logDir, IOException cause);
}

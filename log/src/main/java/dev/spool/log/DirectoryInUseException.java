package dev.spool.log;

import java.io.IOException;
import java.nio.file.Path;

/** Another broker holds the lock of a data directory; its message names the directory and the lock file. */
public final class DirectoryInUseException extends IOException {

    public DirectoryInUseException(Path dir, Path lockFile) {
        super("Data directory " + dir + " is in use by another broker: cannot lock " + lockFile
                + " (one directory serves one broker; stop the other one or give this one another log.dirs)");
    }
}

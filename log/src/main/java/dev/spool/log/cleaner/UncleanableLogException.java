package dev.spool.log.cleaner;

import java.io.IOException;

/**
 * Immutable: a log the cleaner cannot clean for a reason that is not the disk (an invalid batch, a dedupe
 * buffer too small for one batch). Unlike the other {@link IOException}s of a cleaning, it does not take
 * the log dir offline.
 */
public final class UncleanableLogException extends IOException {
    private static final long serialVersionUID = 1L;

    public UncleanableLogException(String message) {
        super(message);
    }
}

package dev.spool.log;

/** Immutable: a read or delete asked for an offset outside [logStartOffset, logEndOffset] (OFFSET_OUT_OF_RANGE). */
public final class OffsetOutOfRangeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public OffsetOutOfRangeException(String message) {
        super(message);
    }
}

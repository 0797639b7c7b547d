package dev.spool.log.record;

/**
 * Immutable: thrown when record bytes cannot be decoded (bad varint, lengths past the end, a
 * compressed stream that does not inflate). The message carries the offending values.
 */
public final class CorruptRecordException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CorruptRecordException(String message) {
        super(message);
    }

    public CorruptRecordException(String message, Throwable cause) {
        super(message, cause);
    }
}

package dev.spool.log.index;

/** Immutable: an index file that fails its sanity check; the message names the file and the values. */
public final class CorruptIndexException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CorruptIndexException(String message) {
        super(message);
    }
}

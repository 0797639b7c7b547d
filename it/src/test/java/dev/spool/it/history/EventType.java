package dev.spool.it.history;

import java.util.Locale;

/**
 * Whether an event starts an operation or says how it ended. Immutable, so thread-safe.
 *
 * <p>The four kinds are Jepsen's: an {@code info} ending is indeterminate (a timeout, a lost
 * connection), so the operation may or may not have taken effect; a {@code fail} ending is a
 * definite refusal, so the operation must have had no effect at all.
 */
public enum EventType {
    /** The client is about to call the operation. */
    INVOKE,
    /** The operation took effect, and the event carries its result. */
    OK,
    /** The operation definitely took no effect. */
    FAIL,
    /** Nobody knows whether the operation took effect. */
    INFO;

    /** The word used in a history line. */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static EventType fromWord(String word) {
        for (EventType type : values()) {
            if (type.word().equals(word)) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown event type '" + word + "' (invoke, ok, fail or info)");
    }
}

package dev.spool.it.history;

import java.util.Objects;

/**
 * One anomaly found, with the concrete value, partition and offset it is about (null or
 * {@link HistoryEvent#NO_OFFSET} when it has none, as a transaction cycle) and a sentence saying
 * exactly what went wrong. Immutable, so thread-safe.
 */
public record Anomaly(AnomalyKind kind, LogPartition partition, long offset, String value, String detail) {

    public Anomaly {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(detail, "detail");
    }

    @Override
    public String toString() {
        return kind.label() + ": " + detail;
    }
}

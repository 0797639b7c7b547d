package dev.spool.it.history;

import java.util.ArrayList;
import java.util.List;

/**
 * Not thread-safe: built by one {@link HistoryIndex}. The values the history saw at one offset of
 * one partition (acknowledged there, or read there), each with the first event that saw it;
 * normally exactly one. Kept small, since a long run has one per record written.
 */
public final class OffsetSlot {

    /** A value seen at this offset and the first event that saw it. */
    public record Claim(String value, int eventIndex) {
    }

    private final Claim first;
    private List<Claim> others;

    OffsetSlot(String value, int eventIndex) {
        this.first = new Claim(value, eventIndex);
    }

    void add(String value, int eventIndex) {
        if (first.value().equals(value)) {
            return;
        }
        if (others == null) {
            others = new ArrayList<>(1);
        }
        for (Claim claim : others) {
            if (claim.value().equals(value)) {
                return;
            }
        }
        others.add(new Claim(value, eventIndex));
    }

    /** Every distinct value seen here, the first seen first. */
    public List<Claim> claims() {
        if (others == null) {
            return List.of(first);
        }
        List<Claim> all = new ArrayList<>(1 + others.size());
        all.add(first);
        all.addAll(others);
        return all;
    }
}

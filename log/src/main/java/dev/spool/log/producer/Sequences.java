package dev.spool.log.producer;

/**
 * Stateless: arithmetic on producer sequence numbers, which run from 0 to {@link Integer#MAX_VALUE} and
 * then wrap to 0 (a batch may straddle the wrap).
 */
public final class Sequences {

    private Sequences() {
    }

    /** The sequence of the last record of a batch starting at {@code baseSequence} with {@code lastOffsetDelta}. */
    public static int lastSequence(int baseSequence, int lastOffsetDelta) {
        long last = (long) baseSequence + lastOffsetDelta;
        return (int) (last > Integer.MAX_VALUE ? last - Integer.MAX_VALUE - 1 : last);
    }

    /** The first sequence of a batch whose last sequence is {@code lastSequence} and which spans {@code delta} more. */
    public static int firstSequence(int lastSequence, int delta) {
        long first = (long) lastSequence - delta;
        return (int) (first < 0 ? first + Integer.MAX_VALUE + 1 : first);
    }

    /** Whether {@code next} directly follows {@code last}. */
    public static boolean follows(int last, int next) {
        return next == last + 1L || (last == Integer.MAX_VALUE && next == 0);
    }
}

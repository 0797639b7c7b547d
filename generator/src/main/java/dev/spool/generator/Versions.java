package dev.spool.generator;

/**
 * An inclusive range of message versions as written in a spec: {@code "3+"}, {@code "0-2"}, {@code "5"}
 * or {@code "none"}. Immutable.
 */
public record Versions(int lowest, int highest) {

    public static final Versions NONE = new Versions(1, 0);
    public static final int OPEN_END = Short.MAX_VALUE;

    public static Versions parse(String text, Versions ifAbsent) {
        if (text == null) {
            return ifAbsent;
        }
        String trimmed = text.trim();
        if (trimmed.equals("none")) {
            return NONE;
        }
        if (trimmed.endsWith("+")) {
            return new Versions(Integer.parseInt(trimmed.substring(0, trimmed.length() - 1)), OPEN_END);
        }
        int dash = trimmed.indexOf('-');
        if (dash > 0) {
            return new Versions(Integer.parseInt(trimmed.substring(0, dash)),
                    Integer.parseInt(trimmed.substring(dash + 1)));
        }
        int single = Integer.parseInt(trimmed);
        return new Versions(single, single);
    }

    public boolean isEmpty() {
        return lowest > highest;
    }

    public boolean contains(int version) {
        return version >= lowest && version <= highest;
    }

    public Versions intersect(Versions other) {
        return new Versions(Math.max(lowest, other.lowest), Math.min(highest, other.highest));
    }

    /** True if every version of {@code within} lies in this range. */
    public boolean covers(Versions within) {
        return within.isEmpty() || (lowest <= within.lowest && highest >= within.highest);
    }

    /**
     * A Java boolean expression testing {@code variable} against this range, simplified
     * against the versions the enclosing code can see ({@code context}).
     */
    public String javaTest(String variable, Versions context) {
        Versions effective = intersect(context);
        if (effective.isEmpty()) {
            return "false";
        }
        boolean checkLow = effective.lowest > context.lowest;
        boolean checkHigh = effective.highest < context.highest;
        if (!checkLow && !checkHigh) {
            return "true";
        }
        if (checkLow && checkHigh) {
            return "(" + variable + " >= " + effective.lowest + " && " + variable + " <= " + effective.highest + ")";
        }
        return checkLow ? variable + " >= " + effective.lowest : variable + " <= " + effective.highest;
    }

    @Override
    public String toString() {
        if (isEmpty()) {
            return "none";
        }
        return highest == OPEN_END ? lowest + "+" : lowest + "-" + highest;
    }
}

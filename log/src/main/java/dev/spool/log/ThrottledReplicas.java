package dev.spool.log;

import java.util.regex.Pattern;

/**
 * The form Kafka accepts for {@code leader.replication.throttled.replicas} and
 * {@code follower.replication.throttled.replicas}: {@code *} (every replica), or a comma-separated list
 * whose entries, once trimmed, are empty or {@code partition:brokerId} with two int numbers. Stateless.
 */
public final class ThrottledReplicas {

    private static final Pattern PAIR = Pattern.compile("(\\d+):(\\d+)");

    private ThrottledReplicas() {
    }

    /** What is wrong with {@code value} as the setting {@code name}, or null. */
    static String problemWith(String name, String value) {
        if (value.trim().equals("*")) {
            return null;
        }
        for (String entry : value.split(",", -1)) {
            String trimmed = entry.trim();
            if (!trimmed.isEmpty() && !isPair(trimmed)) {
                return name + " = '" + value + "': '" + trimmed + "' is not a partition:broker pair such as 0:1"
                        + " (the value is * or a comma-separated list of such pairs)";
            }
        }
        return null;
    }

    /** Whether {@code value} (a valid setting, maybe null) names replica {@code partition:brokerId}. */
    public static boolean names(String value, int partition, int brokerId) {
        if (value == null || value.isBlank()) {
            return false;
        }
        if (value.trim().equals("*")) {
            return true;
        }
        String wanted = partition + ":" + brokerId;
        for (String entry : value.split(",")) {
            if (entry.trim().equals(wanted)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isPair(String entry) {
        var match = PAIR.matcher(entry);
        if (!match.matches()) {
            return false;
        }
        try {
            Integer.parseInt(match.group(1));
            Integer.parseInt(match.group(2));
            return true;
        } catch (NumberFormatException tooLarge) {
            return false;
        }
    }
}

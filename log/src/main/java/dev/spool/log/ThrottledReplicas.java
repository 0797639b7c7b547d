package dev.spool.log;

import java.util.regex.Pattern;

/**
 * The form of Kafka's {@code leader.replication.throttled.replicas} and
 * {@code follower.replication.throttled.replicas}: empty, {@code *} (every replica), or a comma-separated
 * list of {@code partition:brokerId} pairs. Stateless.
 */
final class ThrottledReplicas {

    private static final Pattern PAIR = Pattern.compile("\\s*\\d+\\s*:\\s*\\d+\\s*");

    private ThrottledReplicas() {
    }

    static boolean isValid(String value) {
        String trimmed = value.trim();
        if (trimmed.isEmpty() || trimmed.equals("*")) {
            return true;
        }
        for (String pair : trimmed.split(",", -1)) {
            if (!PAIR.matcher(pair).matches()) {
                return false;
            }
        }
        return true;
    }
}

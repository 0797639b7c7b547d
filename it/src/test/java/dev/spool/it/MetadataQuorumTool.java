package dev.spool.it;

import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the cluster tests share: Kafka's {@code kafka-metadata-quorum} (its main class, and the leader its
 * {@code describe --status} names), and waiting for a condition that a cluster reaches in its own time.
 */
final class MetadataQuorumTool {

    static final String MAIN_CLASS = "org.apache.kafka.tools.MetadataQuorumCommand";
    private static final Pattern LEADER_ID = Pattern.compile("LeaderId:\\s+(\\d+)");
    static final long AWAIT_MS = 60_000;

    private MetadataQuorumTool() {
    }

    /** The LeaderId that {@code describe --status} printed, or -1. */
    static int leaderOf(String status) {
        Matcher matcher = LEADER_ID.matcher(status);
        return matcher.find() ? Integer.parseInt(matcher.group(1)) : -1;
    }

    /**
     * The failure's message on one line, cut at 1,000 characters: CI shows the summary line of a failed test, not
     * its cause.
     */
    private static String oneLine(Throwable failure) {
        String message = String.valueOf(failure.getMessage()).replaceAll("\\s+", " ");
        return message.length() <= 1000 ? message : message.substring(0, 1000) + "...";
    }

    /**
     * Waits up to {@link #AWAIT_MS} for {@code condition} to hold (a condition that throws counts as not yet); the
     * error names {@code what}, with the last failure as its cause.
     */
    static void awaitTrue(Callable<Boolean> condition, String what) throws Exception {
        long deadline = System.currentTimeMillis() + AWAIT_MS;
        Throwable last = null;
        while (System.currentTimeMillis() < deadline) {
            try {
                if (Boolean.TRUE.equals(condition.call())) {
                    return;
                }
            } catch (Exception | AssertionError e) {
                last = e;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("Timed out waiting for " + what + (last == null ? "" : "; last: " + oneLine(last)),
                last);
    }
}

package dev.spool.it;

import static dev.spool.it.MetadataQuorumTool.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kafka's {@code kafka-topics --describe} of one topic, read back the way a person reads it: per partition, the
 * Leader, Replicas, Isr, Elr and LastKnownElr columns as printed ("none" for no leader, "" for an empty list).
 * Thread-safe.
 */
final class TopicsDescribeTool {

    static final String MAIN_CLASS = "org.apache.kafka.tools.TopicCommand";
    private static final Pattern PARTITION_LINE = Pattern.compile("Partition: (\\d+)\\s+Leader: (\\S+)\\s+"
            + "Replicas: (\\S*)\\s+Isr: (\\S*)\\s+Elr: (\\S*)\\s+LastKnownElr: (\\S*)");

    private TopicsDescribeTool() {
    }

    /** Partition to its printed [leader, replicas, ISR, ELR, last known ELR], in partition order. */
    static Map<Integer, List<String>> described(String bootstrap, String topic) throws Exception {
        ExternalCommand.Result result = KafkaTool.run(MAIN_CLASS, "--bootstrap-server", bootstrap, "--describe",
                "--topic", topic);
        assertThat(result.exitCode()).as(result.output()).isZero();
        Map<Integer, List<String>> partitions = new TreeMap<>();
        Matcher matcher = PARTITION_LINE.matcher(result.output());
        while (matcher.find()) {
            partitions.put(Integer.parseInt(matcher.group(1)), List.of(matcher.group(2), matcher.group(3),
                    matcher.group(4), matcher.group(5), matcher.group(6)));
        }
        assertThat(partitions).as(result.output()).isNotEmpty();
        return partitions;
    }

    /** Waits until kafka-topics --describe prints {@code expected} (see {@link #described}). */
    static void awaitDescribed(String bootstrap, String topic, Map<Integer, List<String>> expected, String what)
            throws Exception {
        awaitTrue(() -> {
            Map<Integer, List<String>> now = described(bootstrap, topic);
            if (!now.equals(expected)) {
                throw new AssertionError("kafka-topics describes " + now + ", not " + expected);
            }
            return true;
        }, what);
    }
}

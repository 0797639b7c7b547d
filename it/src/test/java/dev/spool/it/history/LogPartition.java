package dev.spool.it.history;

import java.util.Objects;

/**
 * One partition of one topic, written {@code topic-partition} in a history file as Kafka's tools
 * write it. Immutable, so thread-safe.
 *
 * <p>Design note: the history model keeps its own type rather than Kafka's {@code TopicPartition}
 * so that the checker and its command line run on a history file with the JDK alone.
 */
public record LogPartition(String topic, int partition) implements Comparable<LogPartition> {

    public LogPartition {
        Objects.requireNonNull(topic, "topic");
        if (topic.isEmpty() || !HistoryLineFormat.isToken(topic) || topic.indexOf(',') >= 0 || topic.indexOf(':') >= 0) {
            throw new IllegalArgumentException("topic name not allowed in a history: '" + topic + "'");
        }
        if (partition < 0) {
            throw new IllegalArgumentException("negative partition " + partition + " of topic " + topic);
        }
    }

    /** Parses {@code topic-partition}; the topic may itself contain '-', the partition is after the last one. */
    public static LogPartition parse(String text) {
        int dash = text.lastIndexOf('-');
        if (dash <= 0 || dash == text.length() - 1) {
            throw new IllegalArgumentException("not a topic-partition: '" + text + "'");
        }
        try {
            return new LogPartition(text.substring(0, dash), Integer.parseInt(text.substring(dash + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a topic-partition: '" + text + "'", e);
        }
    }

    @Override
    public int compareTo(LogPartition other) {
        int byTopic = topic.compareTo(other.topic);
        return byTopic != 0 ? byTopic : Integer.compare(partition, other.partition);
    }

    @Override
    public String toString() {
        return topic + "-" + partition;
    }
}

package dev.spool.log;

/** Immutable: a topic name and partition number, and Kafka's directory name for it, {@code <topic>-<partition>}. */
public record TopicPartition(String topic, int partition) {

    public String dirName() {
        return topic + "-" + partition;
    }

    /** Parses "my-topic-3" (the partition follows the last dash); null if the name is not of that shape. */
    public static TopicPartition parseDirName(String dirName) {
        int dash = dirName.lastIndexOf('-');
        if (dash <= 0 || dash == dirName.length() - 1) {
            return null;
        }
        String digits = dirName.substring(dash + 1);
        if (digits.length() > 9) {
            return null;
        }
        for (int i = 0; i < digits.length(); i++) {
            if (!Character.isDigit(digits.charAt(i))) {
                return null;
            }
        }
        return new TopicPartition(dirName.substring(0, dash), Integer.parseInt(digits));
    }

    // equals and hashCode by hand: a record's generated ones link through method handles at their first call,
    // ~5-20 ms of a broker's start-up for each of the few records used as keys from the start.
    @Override
    public boolean equals(Object other) {
        return other instanceof TopicPartition that && partition == that.partition && topic.equals(that.topic);
    }

    @Override
    public int hashCode() {
        return 31 * topic.hashCode() + partition;
    }

    @Override
    public String toString() {
        return dirName();
    }
}

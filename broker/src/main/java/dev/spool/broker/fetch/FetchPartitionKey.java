package dev.spool.broker.fetch;

import dev.spool.protocol.types.Uuid;

/**
 * Immutable. Names one partition of a fetch: by topic id from Fetch v13 on, by topic name before (the other
 * part is then null).
 */
record FetchPartitionKey(Uuid topicId, String topic, int partition) {

    static FetchPartitionKey byId(Uuid topicId, int partition) {
        return new FetchPartitionKey(topicId, null, partition);
    }

    static FetchPartitionKey byName(String topic, int partition) {
        return new FetchPartitionKey(null, topic, partition);
    }

    boolean usesTopicId() {
        return topicId != null;
    }

    /** Whether both name the same topic (consecutive partitions of one topic share a topic entry in a response). */
    boolean sameTopic(FetchPartitionKey other) {
        return usesTopicId() ? topicId.equals(other.topicId) : topic.equals(other.topic);
    }

    @Override
    public String toString() {
        return (usesTopicId() ? topicId.toString() : topic) + "-" + partition;
    }
}

package dev.spool.broker.partition;

import dev.spool.log.PartitionLog;
import dev.spool.log.TopicPartition;
import dev.spool.protocol.types.Uuid;

/**
 * A partition this broker hosts: its log, the topic id, and the replica state of milestone 2
 * (leader epoch; the high watermark lives in the log). On one broker every partition is led here
 * and the in-sync replica set is this broker, so the high watermark follows the log end offset.
 * Thread-safe: the log serializes appends; the epoch is set by the metadata thread.
 */
public final class Partition {

    private final TopicPartition topicPartition;
    private final Uuid topicId;
    private final PartitionLog log;
    private volatile int leaderEpoch;

    public Partition(TopicPartition topicPartition, Uuid topicId, PartitionLog log, int leaderEpoch) {
        this.topicPartition = topicPartition;
        this.topicId = topicId;
        this.log = log;
        this.leaderEpoch = leaderEpoch;
    }

    public TopicPartition topicPartition() {
        return topicPartition;
    }

    public Uuid topicId() {
        return topicId;
    }

    public PartitionLog log() {
        return log;
    }

    public int leaderEpoch() {
        return leaderEpoch;
    }

    void setLeaderEpoch(int epoch) {
        this.leaderEpoch = epoch;
    }

    @Override
    public String toString() {
        return topicPartition + "@" + leaderEpoch;
    }
}

package dev.spool.broker.fetch;

import dev.spool.log.TopicPartition;

/**
 * What holds back a leader's reads for its followers: the leader's replication throttle. A read it concerns gets no
 * records while it is exceeded, and its bytes are counted. Thread-safe.
 */
public interface FollowerReadThrottle {

    /** No throttle. */
    FollowerReadThrottle NONE = new FollowerReadThrottle() {
        @Override
        public boolean concerns(TopicPartition partition, boolean replicaInSync) {
            return false;
        }

        @Override
        public boolean exceeded() {
            return false;
        }

        @Override
        public void record(long bytes) {
        }
    };

    /** Whether reads of {@code partition} for a follower in sync or not are throttled. */
    boolean concerns(TopicPartition partition, boolean replicaInSync);

    /** Whether the throttle holds such reads back now. */
    boolean exceeded();

    /** Counts the bytes of such a read. */
    void record(long bytes);
}

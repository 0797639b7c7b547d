package dev.spool.broker.fetch;

import dev.spool.log.TopicPartition;

/**
 * What holds back a leader's reads for its followers: the leader's replication throttle. The bytes read of the
 * partitions it names are counted; while it is exceeded, a read of one for an out-of-sync follower gets no records
 * (an in-sync follower is never held back). Thread-safe.
 */
public interface FollowerReadThrottle {

    /** No throttle. */
    FollowerReadThrottle NONE = new FollowerReadThrottle() {
        @Override
        public boolean names(TopicPartition partition) {
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

    /** Whether the throttle names this broker's replica of {@code partition}. */
    boolean names(TopicPartition partition);

    /** Whether the throttle holds back reads for out-of-sync replicas now. */
    boolean exceeded();

    /** Counts the bytes of a read of a partition it names. */
    void record(long bytes);
}

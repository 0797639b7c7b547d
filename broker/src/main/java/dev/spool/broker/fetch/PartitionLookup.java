package dev.spool.broker.fetch;

import dev.spool.broker.partition.Partition;
import dev.spool.protocol.types.Uuid;

/**
 * Implementations are thread-safe. Finds the hosted partition a read request names, by topic name (older
 * versions) or topic id (Fetch v13+).
 */
public interface PartitionLookup {

    /** The hosted partition, or null. */
    Partition byName(String topic, int partition);

    /** The hosted partition of the topic with this id, or null. */
    Partition byId(Uuid topicId, int partition);

    /** Whether a topic with this id exists (to tell UNKNOWN_TOPIC_ID from an unknown partition). */
    boolean topicExists(Uuid topicId);

    /**
     * Whether this broker leads {@code partition}, as clients must read from and write to the leader: a replica
     * that does not lead (a follower, or no leader at all) answers NOT_LEADER_OR_FOLLOWER.
     */
    boolean leads(Partition partition);

    /** This broker's id, which leads the partitions it {@link #leads}; -1 when unknown (tests). */
    default int localId() {
        return -1;
    }
}

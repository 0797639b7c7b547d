package dev.spool.broker.metadata;

/**
 * Whether a topic's partitions may elect a replica outside the ISR when no in-sync replica is left
 * ({@code unclean.leader.election.enable}: the topic's setting, else the cluster's default). Such a leader may lack
 * acknowledged records, so it is off by default, as in Kafka.
 */
@FunctionalInterface
public interface UncleanElectionPolicy {

    /** Never unclean: what the controller does unless told otherwise. */
    UncleanElectionPolicy NEVER = (image, topic) -> false;

    boolean allows(MetadataImage image, String topic);
}

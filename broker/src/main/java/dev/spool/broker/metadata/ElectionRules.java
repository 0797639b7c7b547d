package dev.spool.broker.metadata;

/**
 * A topic's settings that the controller's elections follow, resolved against the image (the topic's own setting,
 * else the cluster's default): {@code unclean.leader.election.enable}, whether a replica outside the ISR and the
 * ELR may lead when none of them is left (such a leader may lack acknowledged records, so it is off by default, as
 * in Kafka), and {@code min.insync.replicas}, below which replicas leaving the ISR become eligible leaders (KIP-966).
 */
public interface ElectionRules {

    /** Kafka's defaults: never unclean, a minimum ISR of one. */
    ElectionRules DEFAULTS = new ElectionRules() {
        @Override
        public boolean uncleanAllowed(MetadataImage image, String topic) {
            return false;
        }

        @Override
        public int minInsyncReplicas(MetadataImage image, String topic) {
            return 1;
        }
    };

    boolean uncleanAllowed(MetadataImage image, String topic);

    int minInsyncReplicas(MetadataImage image, String topic);
}

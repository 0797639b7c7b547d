package dev.spool.broker.metadata;

import java.util.Set;

/** Election rules for tests: one min ISR for every topic, unclean elections for the topics named. */
record FixedElectionRules(int minIsr, Set<String> uncleanTopics) implements ElectionRules {

    static FixedElectionRules minIsr(int minIsr) {
        return new FixedElectionRules(minIsr, Set.of());
    }

    static FixedElectionRules uncleanFor(String topic) {
        return new FixedElectionRules(1, Set.of(topic));
    }

    @Override
    public boolean uncleanAllowed(MetadataImage image, String topic) {
        return uncleanTopics.contains(topic);
    }

    @Override
    public int minInsyncReplicas(MetadataImage image, String topic) {
        return minIsr;
    }
}

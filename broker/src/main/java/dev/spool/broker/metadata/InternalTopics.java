package dev.spool.broker.metadata;

import java.util.Set;

/**
 * Stateless: Kafka's internal topics, the ones its brokers keep for themselves (group offsets, transaction and
 * share-group state). Metadata marks them internal, clients may not produce to them nor delete their records. Other
 * names starting with two underscores are ordinary topics, as in Kafka.
 */
public final class InternalTopics {

    public static final Set<String> NAMES = Set.of("__consumer_offsets", "__transaction_state", "__share_group_state");

    private InternalTopics() {
    }

    public static boolean isInternal(String topic) {
        return NAMES.contains(topic);
    }
}

package dev.spool.broker.metadata;

import java.util.Map;

/**
 * What a topic gets when its creator does not say: {@code num.partitions},
 * {@code default.replication.factor}, and the topic-level log defaults derived from the broker's
 * settings (log.retention.hours and friends), by topic config name. Immutable.
 */
public record TopicDefaults(int numPartitions, short replicationFactor, Map<String, String> logConfigDefaults) {

    public TopicDefaults {
        logConfigDefaults = Map.copyOf(logConfigDefaults);
    }
}

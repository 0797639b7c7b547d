package dev.spool.broker.metadata;

import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Called on the metadata thread only (its flag is volatile for tests): writes one INFO line for each
 * change an operator cares about in the metadata image: a topic created or deleted, partitions added,
 * config overrides (topic or broker) changed. The first image it is given is the state at start-up and
 * is not logged.
 */
public final class TopicEventLog implements MetadataListener {

    private static final Logger LOG = LoggerFactory.getLogger(TopicEventLog.class);

    private volatile boolean initialized;

    @Override
    public void onImage(MetadataImage previous, MetadataImage current) {
        if (!initialized) {
            initialized = true;
            return;
        }
        for (TopicImage topic : current.topics()) {
            TopicImage before = previous.topic(topic.name());
            if (before == null || !before.id().equals(topic.id())) {
                LOG.info("Topic {} created with {} partitions (id {})", topic.name(), topic.partitions().size(),
                        topic.id());
            } else if (before.partitions().size() != topic.partitions().size()) {
                LOG.info("Topic {} now has {} partitions (was {})", topic.name(), topic.partitions().size(),
                        before.partitions().size());
            }
        }
        for (TopicImage topic : previous.topics()) {
            TopicImage after = current.topic(topic.name());
            if (after == null || !after.id().equals(topic.id())) {
                LOG.info("Topic {} deleted (id {})", topic.name(), topic.id());
            }
        }
        for (Map.Entry<ConfigResource, Map<String, String>> configs : current.allConfigs().entrySet()) {
            if (!Objects.equals(previous.configs(configs.getKey()), configs.getValue())) {
                LOG.info("Config overrides of {} are now {}", describe(configs.getKey()), configs.getValue());
            }
        }
        for (ConfigResource resource : previous.allConfigs().keySet()) {
            boolean topicGone = resource.type() == ConfigResource.TOPIC && current.topic(resource.name()) == null;
            if (!current.allConfigs().containsKey(resource) && !previous.configs(resource).isEmpty() && !topicGone) {
                LOG.info("Config overrides of {} removed", describe(resource));
            }
        }
    }

    private static String describe(ConfigResource resource) {
        if (resource.type() == ConfigResource.TOPIC) {
            return "topic " + resource.name();
        }
        return resource.name().isEmpty() ? "every broker (cluster default)" : "broker " + resource.name();
    }
}

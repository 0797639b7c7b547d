package dev.spool.broker.metadata;

import dev.spool.protocol.message.CreateTopicsRequestData.CreatableTopic;
import dev.spool.protocol.message.CreateTopicsResponseData.CreatableTopicResult;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Creates topics on behalf of the broker itself (auto-creation, the internal topics), wherever the active
 * controller is: here it decides them, on another node of a cluster they go to it as a CreateTopics request.
 */
@FunctionalInterface
public interface TopicCreator {

    /** Creates {@code topics}; completes with each one's result (TOPIC_ALREADY_EXISTS for one that exists). */
    CompletableFuture<List<CreatableTopicResult>> create(List<CreatableTopic> topics);

    /** Topics decided by this node's controller. */
    static TopicCreator local(MetadataManager metadata, TopicController controller) {
        return topics -> metadata.submit(image -> controller.createTopics(image, topics, false));
    }
}

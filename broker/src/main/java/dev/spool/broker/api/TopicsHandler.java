package dev.spool.broker.api;

import dev.spool.broker.config.ConfigDescriber;
import dev.spool.broker.metadata.MetadataManager;
import dev.spool.broker.metadata.TopicController;
import dev.spool.broker.metadata.TopicController.TopicReference;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.CreatePartitionsRequestData;
import dev.spool.protocol.message.CreatePartitionsResponseData;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.CreateTopicsRequestData;
import dev.spool.protocol.message.CreateTopicsRequestData.CreatableTopic;
import dev.spool.protocol.message.CreateTopicsRequestData.CreatableTopicConfig;
import dev.spool.protocol.message.CreateTopicsResponseData;
import dev.spool.protocol.message.CreateTopicsResponseData.CreatableTopicResult;
import dev.spool.protocol.message.DeleteTopicsRequestData;
import dev.spool.protocol.message.DeleteTopicsResponseData;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * CreateTopics, DeleteTopics and CreatePartitions: each request becomes one command of the
 * {@link MetadataManager}, decided by the {@link TopicController}, and is answered once its records
 * are durable and the partitions exist (or are gone). Thread-safe.
 */
public final class TopicsHandler implements ApiFamily {

    private final MetadataManager metadata;
    private final TopicController controller;
    private final ConfigDescriber configs;

    public TopicsHandler(MetadataManager metadata, TopicController controller, ConfigDescriber configs) {
        this.metadata = metadata;
        this.controller = controller;
        this.configs = configs;
    }

    @Override
    public void registerIn(ApiRegistry registry) {
        registry.register(ApiKey.CREATE_TOPICS, 2, 7, CreateTopicsRequestData.class,
                        (context, request) -> createTopics(request))
                .register(ApiKey.DELETE_TOPICS, 1, 6, DeleteTopicsRequestData.class,
                        (context, request) -> deleteTopics(request))
                .register(ApiKey.CREATE_PARTITIONS, 0, 3, CreatePartitionsRequestData.class,
                        (context, request) -> createPartitions(request));
    }

    private CompletableFuture<Message> createTopics(CreateTopicsRequestData request) {
        return metadata.submit(image -> controller.createTopics(image, request.topics(), request.validateOnly()))
                .thenApply(results -> {
                    Map<String, Map<String, String>> overrides = overridesByTopic(request.topics());
                    for (CreatableTopicResult result : results) {
                        // CreateTopics v5+ returns the new topic's configs as DescribeConfigs would.
                        boolean created = result.errorCode() == Errors.NONE.code();
                        result.setConfigs(created ? configs.createdTopicConfigs(metadata.image(),
                                overrides.getOrDefault(result.name(), Map.of())) : new ArrayList<>());
                    }
                    return new CreateTopicsResponseData().setTopics(results);
                });
    }

    private static Map<String, Map<String, String>> overridesByTopic(List<CreatableTopic> topics) {
        Map<String, Map<String, String>> overrides = new HashMap<>();
        for (CreatableTopic topic : topics) {
            Map<String, String> values = new HashMap<>();
            for (CreatableTopicConfig config : topic.configs()) {
                if (config.value() != null) {
                    values.put(config.name(), config.value());
                }
            }
            overrides.putIfAbsent(topic.name(), values);
        }
        return overrides;
    }

    private CompletableFuture<Message> deleteTopics(DeleteTopicsRequestData request) {
        List<TopicReference> topics = new ArrayList<>();
        for (String name : request.topicNames()) {
            topics.add(new TopicReference(name, null));
        }
        for (DeleteTopicsRequestData.DeleteTopicState state : request.topics()) {
            boolean byId = state.name() == null && !Uuid.ZERO_UUID.equals(state.topicId());
            topics.add(new TopicReference(byId ? null : state.name(), byId ? state.topicId() : null));
        }
        return metadata.submit(image -> controller.deleteTopics(image, topics))
                .thenApply(results -> new DeleteTopicsResponseData().setResponses(results));
    }

    private CompletableFuture<Message> createPartitions(CreatePartitionsRequestData request) {
        return metadata.submit(image -> controller.createPartitions(image, request.topics(), request.validateOnly()))
                .thenApply(results -> new CreatePartitionsResponseData().setResults(results));
    }
}

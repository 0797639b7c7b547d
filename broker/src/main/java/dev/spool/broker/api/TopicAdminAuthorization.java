package dev.spool.broker.api;

import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.TopicImage;
import dev.spool.broker.security.acl.AclOperation;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.CreateTopicsRequestData.CreatableTopic;
import dev.spool.protocol.message.CreateTopicsRequestData;
import dev.spool.protocol.message.CreateTopicsResponseData.CreatableTopicResult;
import dev.spool.protocol.message.CreateTopicsResponseData;
import dev.spool.protocol.message.DeleteTopicsRequestData.DeleteTopicState;
import dev.spool.protocol.message.DeleteTopicsRequestData;
import dev.spool.protocol.message.DeleteTopicsResponseData.DeletableTopicResult;
import dev.spool.protocol.message.DeleteTopicsResponseData;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * CreateTopics and DeleteTopics authorized topic by topic where the client sent them, before the request is
 * forwarded to the active controller (which sees only the node that forwarded it): the topics the sender may not
 * create (CREATE on the cluster or the topic) or delete (DELETE on the topic) are taken out of the request and
 * answered TOPIC_AUTHORIZATION_FAILED; the rest go on. Thread-safe.
 */
final class TopicAdminAuthorization {

    private final Supplier<MetadataImage> image;

    TopicAdminAuthorization(Supplier<MetadataImage> image) {
        this.image = image;
    }

    CompletableFuture<Message> createTopics(RequestContext context, Access access, Message message, ApiHandler next) {
        CreateTopicsRequestData request = (CreateTopicsRequestData) message;
        boolean onCluster = access.allowsOnCluster(AclOperation.CREATE);
        List<CreatableTopic> allowed = new ArrayList<>();
        List<CreatableTopicResult> refused = new ArrayList<>();
        for (CreatableTopic topic : request.topics()) {
            if (onCluster || access.allowsTopic(AclOperation.CREATE, topic.name())) {
                allowed.add(topic);
            } else {
                refused.add(new CreatableTopicResult().setName(topic.name()).setTopicId(Uuid.ZERO_UUID)
                        .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                        .setErrorMessage("Authorization failed.").setNumPartitions(-1).setReplicationFactor((short) -1)
                        .setConfigs(new ArrayList<>()));
            }
        }
        if (refused.isEmpty()) {
            return next.handle(context, request);
        }
        CreateTopicsRequestData rest = new CreateTopicsRequestData().setTopics(allowed)
                .setTimeoutMs(request.timeoutMs()).setValidateOnly(request.validateOnly());
        CompletableFuture<Message> answer = allowed.isEmpty()
                ? CompletableFuture.completedFuture(new CreateTopicsResponseData()) : next.handle(context, rest);
        return answer.thenApply(response -> {
            CreateTopicsResponseData created = (CreateTopicsResponseData) response;
            List<CreatableTopicResult> all = new ArrayList<>(created.topics());
            all.addAll(refused);
            return created.setTopics(all);
        });
    }

    CompletableFuture<Message> deleteTopics(RequestContext context, Access access, Message message, ApiHandler next) {
        DeleteTopicsRequestData request = (DeleteTopicsRequestData) message;
        MetadataImage current = image.get();
        List<String> allowedNames = new ArrayList<>();
        List<DeleteTopicState> allowedStates = new ArrayList<>();
        List<DeletableTopicResult> refused = new ArrayList<>();
        for (String name : request.topicNames()) {
            if (access.allowsTopic(AclOperation.DELETE, name)) {
                allowedNames.add(name);
            } else {
                refused.add(refusedDeletion(name, Uuid.ZERO_UUID));
            }
        }
        for (DeleteTopicState state : request.topics()) {
            TopicImage topic = state.name() != null ? null : current.topic(state.topicId());
            String name = state.name() != null ? state.name() : topic != null ? topic.name() : null;
            // An id no topic has is answered UNKNOWN_TOPIC_ID by the controller; it tells nothing.
            if (name == null || access.allowsTopic(AclOperation.DELETE, name)) {
                allowedStates.add(state);
            } else {
                refused.add(refusedDeletion(state.name(), state.topicId()));
            }
        }
        if (refused.isEmpty()) {
            return next.handle(context, request);
        }
        DeleteTopicsRequestData rest = new DeleteTopicsRequestData().setTopicNames(allowedNames)
                .setTopics(allowedStates).setTimeoutMs(request.timeoutMs());
        CompletableFuture<Message> answer = allowedNames.isEmpty() && allowedStates.isEmpty()
                ? CompletableFuture.completedFuture(new DeleteTopicsResponseData()) : next.handle(context, rest);
        return answer.thenApply(response -> {
            DeleteTopicsResponseData deleted = (DeleteTopicsResponseData) response;
            List<DeletableTopicResult> all = new ArrayList<>(deleted.responses());
            all.addAll(refused);
            return deleted.setResponses(all);
        });
    }

    private static DeletableTopicResult refusedDeletion(String name, Uuid topicId) {
        return new DeletableTopicResult().setName(name).setTopicId(topicId)
                .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()).setErrorMessage("Authorization failed.");
    }
}

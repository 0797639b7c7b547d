package dev.spool.broker.api;

import static dev.spool.broker.api.PartialForwarding.concat;
import static dev.spool.broker.api.PartialForwarding.forward;

import dev.spool.broker.metadata.ConfigResource;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.TopicImage;
import dev.spool.broker.security.acl.AclOperation;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.AlterConfigsRequestData;
import dev.spool.protocol.message.AlterConfigsResponseData;
import dev.spool.protocol.message.AlterConfigsResponseData.AlterConfigsResourceResponse;
import dev.spool.protocol.message.CreatePartitionsRequestData;
import dev.spool.protocol.message.CreatePartitionsRequestData.CreatePartitionsTopic;
import dev.spool.protocol.message.CreatePartitionsResponseData;
import dev.spool.protocol.message.CreatePartitionsResponseData.CreatePartitionsTopicResult;
import dev.spool.protocol.message.CreateTopicsRequestData;
import dev.spool.protocol.message.CreateTopicsRequestData.CreatableTopic;
import dev.spool.protocol.message.CreateTopicsResponseData;
import dev.spool.protocol.message.CreateTopicsResponseData.CreatableTopicResult;
import dev.spool.protocol.message.DeleteTopicsRequestData;
import dev.spool.protocol.message.DeleteTopicsRequestData.DeleteTopicState;
import dev.spool.protocol.message.DeleteTopicsResponseData;
import dev.spool.protocol.message.DeleteTopicsResponseData.DeletableTopicResult;
import dev.spool.protocol.message.IncrementalAlterConfigsRequestData;
import dev.spool.protocol.message.IncrementalAlterConfigsResponseData;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The metadata-changing APIs a node forwards to the active controller (which sees only the node that forwarded
 * them), authorized item by item where the client sent them, as Kafka authorizes them: CreateTopics (CREATE on the
 * cluster or the topic), DeleteTopics (DELETE on the topic), CreatePartitions (ALTER on the topic), AlterConfigs and
 * IncrementalAlterConfigs (ALTER_CONFIGS on the topic, or on the cluster for a broker or its loggers). The items
 * refused are taken out of the request and answered with the authorization error; the rest go on. Thread-safe.
 */
final class ForwardedAdminAuthorization {

    private static final String REFUSED = "Authorization failed.";

    private final Supplier<MetadataImage> image;

    ForwardedAdminAuthorization(Supplier<MetadataImage> image) {
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
                        .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()).setErrorMessage(REFUSED)
                        .setNumPartitions(-1).setReplicationFactor((short) -1).setConfigs(new ArrayList<>()));
            }
        }
        CreateTopicsRequestData rest = new CreateTopicsRequestData().setTopics(allowed)
                .setTimeoutMs(request.timeoutMs()).setValidateOnly(request.validateOnly());
        return forward(context, next, request, rest, allowed.isEmpty(), refused.size(), CreateTopicsResponseData::new,
                response -> response.setTopics(concat(response.topics(), refused)))
                .thenApply(response -> withoutConfigsUndescribable((CreateTopicsResponseData) response, access));
    }

    /** As Kafka: a created topic's configs are told only to who may DESCRIBE_CONFIGS it. */
    private static Message withoutConfigsUndescribable(CreateTopicsResponseData response, Access access) {
        for (CreatableTopicResult topic : response.topics()) {
            if (topic.errorCode() == Errors.NONE.code()
                    && !access.allowsTopic(AclOperation.DESCRIBE_CONFIGS, topic.name())) {
                topic.setConfigs(new ArrayList<>()).setTopicConfigErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code());
            }
        }
        return response;
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
            if (name == null) {
                // An id this node does not know is answered here: the controller, further ahead, might know it,
                // and would delete it unchecked.
                refused.add(new DeletableTopicResult().setName(null).setTopicId(state.topicId())
                        .setErrorCode(Errors.UNKNOWN_TOPIC_ID.code()).setErrorMessage("Unknown topic id."));
            } else if (access.allowsTopic(AclOperation.DELETE, name)) {
                allowedStates.add(state);
            } else {
                refused.add(refusedDeletion(state.name(), state.topicId()));
            }
        }
        DeleteTopicsRequestData rest = new DeleteTopicsRequestData().setTopicNames(allowedNames)
                .setTopics(allowedStates).setTimeoutMs(request.timeoutMs());
        return forward(context, next, request, rest, allowedNames.isEmpty() && allowedStates.isEmpty(),
                refused.size(), DeleteTopicsResponseData::new,
                response -> response.setResponses(concat(response.responses(), refused)));
    }

    private static DeletableTopicResult refusedDeletion(String name, Uuid topicId) {
        return new DeletableTopicResult().setName(name).setTopicId(topicId)
                .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()).setErrorMessage(REFUSED);
    }

    CompletableFuture<Message> createPartitions(RequestContext context, Access access, Message message,
                                                ApiHandler next) {
        CreatePartitionsRequestData request = (CreatePartitionsRequestData) message;
        List<CreatePartitionsTopic> allowed = new ArrayList<>();
        List<CreatePartitionsTopicResult> refused = new ArrayList<>();
        for (CreatePartitionsTopic topic : request.topics()) {
            if (access.allowsTopic(AclOperation.ALTER, topic.name())) {
                allowed.add(topic);
            } else {
                refused.add(new CreatePartitionsTopicResult().setName(topic.name())
                        .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()).setErrorMessage(REFUSED));
            }
        }
        CreatePartitionsRequestData rest = new CreatePartitionsRequestData().setTopics(allowed)
                .setTimeoutMs(request.timeoutMs()).setValidateOnly(request.validateOnly());
        return forward(context, next, request, rest, allowed.isEmpty(), refused.size(),
                CreatePartitionsResponseData::new,
                response -> response.setResults(concat(response.results(), refused)));
    }

    /** Altering a topic's configs takes ALTER_CONFIGS on it; a broker's or its loggers', on the cluster. */
    private static Errors configRefusal(Access access, byte resourceType, String resourceName) {
        if (resourceType == ConfigResource.TOPIC) {
            return access.allowsTopic(AclOperation.ALTER_CONFIGS, resourceName)
                    ? null : Errors.TOPIC_AUTHORIZATION_FAILED;
        }
        return access.allowsOnCluster(AclOperation.ALTER_CONFIGS) ? null : Errors.CLUSTER_AUTHORIZATION_FAILED;
    }

    CompletableFuture<Message> alterConfigs(RequestContext context, Access access, Message message, ApiHandler next) {
        AlterConfigsRequestData request = (AlterConfigsRequestData) message;
        List<AlterConfigsRequestData.AlterConfigsResource> allowed = new ArrayList<>();
        List<AlterConfigsResourceResponse> refused = new ArrayList<>();
        for (AlterConfigsRequestData.AlterConfigsResource resource : request.resources()) {
            Errors refusal = configRefusal(access, resource.resourceType(), resource.resourceName());
            if (refusal == null) {
                allowed.add(resource);
            } else {
                refused.add(new AlterConfigsResourceResponse().setResourceType(resource.resourceType())
                        .setResourceName(resource.resourceName()).setErrorCode(refusal.code())
                        .setErrorMessage(REFUSED));
            }
        }
        AlterConfigsRequestData rest = new AlterConfigsRequestData().setResources(allowed)
                .setValidateOnly(request.validateOnly());
        return forward(context, next, request, rest, allowed.isEmpty(), refused.size(), AlterConfigsResponseData::new,
                response -> response.setResponses(concat(response.responses(), refused)));
    }

    CompletableFuture<Message> incrementalAlterConfigs(RequestContext context, Access access, Message message,
                                                       ApiHandler next) {
        IncrementalAlterConfigsRequestData request = (IncrementalAlterConfigsRequestData) message;
        List<IncrementalAlterConfigsRequestData.AlterConfigsResource> allowed = new ArrayList<>();
        List<IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse> refused = new ArrayList<>();
        for (IncrementalAlterConfigsRequestData.AlterConfigsResource resource : request.resources()) {
            Errors refusal = configRefusal(access, resource.resourceType(), resource.resourceName());
            if (refusal == null) {
                allowed.add(resource);
            } else {
                refused.add(new IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse()
                        .setResourceType(resource.resourceType()).setResourceName(resource.resourceName())
                        .setErrorCode(refusal.code()).setErrorMessage(REFUSED));
            }
        }
        IncrementalAlterConfigsRequestData rest = new IncrementalAlterConfigsRequestData().setResources(allowed)
                .setValidateOnly(request.validateOnly());
        return forward(context, next, request, rest, allowed.isEmpty(), refused.size(),
                IncrementalAlterConfigsResponseData::new,
                response -> response.setResponses(concat(response.responses(), refused)));
    }
}

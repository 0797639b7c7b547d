package dev.spool.broker.api;

import dev.spool.broker.metadata.NotControllerException;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.AddRaftVoterResponseData;
import dev.spool.protocol.message.AlterConfigsRequestData;
import dev.spool.protocol.message.AlterConfigsResponseData;
import dev.spool.protocol.message.AlterPartitionReassignmentsResponseData;
import dev.spool.protocol.message.AlterClientQuotasRequestData;
import dev.spool.protocol.message.AlterClientQuotasResponseData;
import dev.spool.protocol.message.AlterUserScramCredentialsRequestData;
import dev.spool.protocol.message.AlterUserScramCredentialsResponseData;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.CreateAclsRequestData;
import dev.spool.protocol.message.CreateAclsResponseData;
import dev.spool.protocol.message.CreatePartitionsRequestData;
import dev.spool.protocol.message.CreatePartitionsResponseData;
import dev.spool.protocol.message.CreateTopicsRequestData;
import dev.spool.protocol.message.CreateTopicsResponseData;
import dev.spool.protocol.message.DeleteAclsRequestData;
import dev.spool.protocol.message.DeleteAclsResponseData;
import dev.spool.protocol.message.DeleteTopicsRequestData;
import dev.spool.protocol.message.DeleteTopicsResponseData;
import dev.spool.protocol.message.DescribeQuorumResponseData;
import dev.spool.protocol.message.IncrementalAlterConfigsRequestData;
import dev.spool.protocol.message.IncrementalAlterConfigsResponseData;
import dev.spool.protocol.message.ListPartitionReassignmentsResponseData;
import dev.spool.protocol.message.RemoveRaftVoterResponseData;
import dev.spool.protocol.message.UnregisterBrokerResponseData;
import dev.spool.protocol.types.Message;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;

/**
 * What a controller API answers when the metadata change failed as a whole: the error code (NOT_CONTROLLER when
 * this node is not, or stopped being, the active controller; REQUEST_TIMED_OUT when the quorum did not commit in
 * time) in the response of that API, for every item the request named, so that the client retries at the active
 * controller rather than losing its connection. Stateless.
 */
public final class ControllerErrors {

    private ControllerErrors() {
    }

    /** The error code of a failed metadata change. */
    public static short codeOf(Throwable failure) {
        Throwable cause = causeOf(failure);
        if (cause instanceof NotControllerException) {
            return Errors.NOT_CONTROLLER.code();
        }
        return (cause instanceof TimeoutException ? Errors.REQUEST_TIMED_OUT : Errors.UNKNOWN_SERVER_ERROR).code();
    }

    /** The failure inside a future's CompletionException wrapping. */
    static Throwable causeOf(Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** The response of {@code api} to {@code request} with {@code error} for each item; null for another API. */
    public static Message responseFor(ApiKey api, Message request, short error) {
        String message = Errors.nameOf(error);
        return switch (api) {
            case CREATE_TOPICS -> {
                List<CreateTopicsResponseData.CreatableTopicResult> topics = new ArrayList<>();
                for (CreateTopicsRequestData.CreatableTopic topic : ((CreateTopicsRequestData) request).topics()) {
                    topics.add(new CreateTopicsResponseData.CreatableTopicResult().setName(topic.name())
                            .setErrorCode(error).setErrorMessage(message));
                }
                yield new CreateTopicsResponseData().setTopics(topics);
            }
            case DELETE_TOPICS -> {
                DeleteTopicsRequestData delete = (DeleteTopicsRequestData) request;
                List<DeleteTopicsResponseData.DeletableTopicResult> topics = new ArrayList<>();
                for (String name : delete.topicNames()) {
                    topics.add(new DeleteTopicsResponseData.DeletableTopicResult().setName(name).setErrorCode(error));
                }
                for (DeleteTopicsRequestData.DeleteTopicState topic : delete.topics()) {
                    topics.add(new DeleteTopicsResponseData.DeletableTopicResult().setName(topic.name())
                            .setTopicId(topic.topicId()).setErrorCode(error));
                }
                yield new DeleteTopicsResponseData().setResponses(topics);
            }
            case CREATE_PARTITIONS -> {
                List<CreatePartitionsResponseData.CreatePartitionsTopicResult> results = new ArrayList<>();
                for (CreatePartitionsRequestData.CreatePartitionsTopic topic
                        : ((CreatePartitionsRequestData) request).topics()) {
                    results.add(new CreatePartitionsResponseData.CreatePartitionsTopicResult().setName(topic.name())
                            .setErrorCode(error).setErrorMessage(message));
                }
                yield new CreatePartitionsResponseData().setResults(results);
            }
            case ALTER_CONFIGS -> {
                List<AlterConfigsResponseData.AlterConfigsResourceResponse> resources = new ArrayList<>();
                for (AlterConfigsRequestData.AlterConfigsResource resource
                        : ((AlterConfigsRequestData) request).resources()) {
                    resources.add(new AlterConfigsResponseData.AlterConfigsResourceResponse().setErrorCode(error)
                            .setErrorMessage(message).setResourceType(resource.resourceType())
                            .setResourceName(resource.resourceName()));
                }
                yield new AlterConfigsResponseData().setResponses(resources);
            }
            case INCREMENTAL_ALTER_CONFIGS -> {
                List<IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse> resources = new ArrayList<>();
                for (IncrementalAlterConfigsRequestData.AlterConfigsResource resource
                        : ((IncrementalAlterConfigsRequestData) request).resources()) {
                    resources.add(new IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse()
                            .setErrorCode(error).setErrorMessage(message).setResourceType(resource.resourceType())
                            .setResourceName(resource.resourceName()));
                }
                yield new IncrementalAlterConfigsResponseData().setResponses(resources);
            }
            case DESCRIBE_QUORUM -> new DescribeQuorumResponseData().setErrorCode(error).setErrorMessage(message);
            case UNREGISTER_BROKER -> new UnregisterBrokerResponseData().setErrorCode(error).setErrorMessage(message);
            case ADD_RAFT_VOTER -> new AddRaftVoterResponseData().setErrorCode(error).setErrorMessage(message);
            case REMOVE_RAFT_VOTER -> new RemoveRaftVoterResponseData().setErrorCode(error).setErrorMessage(message);
            case ALTER_PARTITION_REASSIGNMENTS -> new AlterPartitionReassignmentsResponseData().setErrorCode(error)
                    .setErrorMessage(message);
            case LIST_PARTITION_REASSIGNMENTS -> new ListPartitionReassignmentsResponseData().setErrorCode(error)
                    .setErrorMessage(message);
            case CREATE_ACLS -> {
                List<CreateAclsResponseData.AclCreationResult> results = new ArrayList<>();
                ((CreateAclsRequestData) request).creations().forEach(creation -> results.add(
                        new CreateAclsResponseData.AclCreationResult().setErrorCode(error).setErrorMessage(message)));
                yield new CreateAclsResponseData().setResults(results);
            }
            case DELETE_ACLS -> {
                List<DeleteAclsResponseData.DeleteAclsFilterResult> results = new ArrayList<>();
                ((DeleteAclsRequestData) request).filters().forEach(filter -> results.add(
                        new DeleteAclsResponseData.DeleteAclsFilterResult().setErrorCode(error)
                                .setErrorMessage(message).setMatchingAcls(new ArrayList<>())));
                yield new DeleteAclsResponseData().setFilterResults(results);
            }
            case ALTER_USER_SCRAM_CREDENTIALS -> {
                AlterUserScramCredentialsRequestData alter = (AlterUserScramCredentialsRequestData) request;
                Set<String> users = new LinkedHashSet<>();
                alter.deletions().forEach(deletion -> users.add(deletion.name()));
                alter.upsertions().forEach(upsertion -> users.add(upsertion.name()));
                List<AlterUserScramCredentialsResponseData.AlterUserScramCredentialsResult> results = new ArrayList<>();
                users.forEach(user -> results.add(new AlterUserScramCredentialsResponseData
                        .AlterUserScramCredentialsResult().setUser(user).setErrorCode(error).setErrorMessage(message)));
                yield new AlterUserScramCredentialsResponseData().setResults(results);
            }
            case ALTER_CLIENT_QUOTAS -> new AlterClientQuotasResponseData().setEntries(ClientQuotasHandler
                    .failedEntries((AlterClientQuotasRequestData) request, error, message));
            default -> null;
        };
    }
}

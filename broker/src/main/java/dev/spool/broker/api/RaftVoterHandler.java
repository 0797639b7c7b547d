package dev.spool.broker.api;

import dev.spool.broker.metadata.NotControllerException;
import dev.spool.broker.quorum.QuorumMembership;
import dev.spool.broker.quorum.QuorumVoter;
import dev.spool.broker.quorum.VoterChangeRefused;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.AddRaftVoterRequestData;
import dev.spool.protocol.message.AddRaftVoterResponseData;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.RemoveRaftVoterRequestData;
import dev.spool.protocol.message.RemoveRaftVoterResponseData;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.Uuid;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;

/**
 * AddRaftVoter and RemoveRaftVoter (KIP-853; what {@code kafka-metadata-quorum add-controller} and
 * {@code remove-controller} send), answered by the active controller once the quorum has committed the change, with
 * the checks and errors of Kafka's controller: INCONSISTENT_CLUSTER_ID, INVALID_REQUEST for a voter without a
 * directory id or without an endpoint on the controller listener, DUPLICATE_VOTER, VOTER_NOT_FOUND,
 * UNSUPPORTED_VERSION on a static quorum, REQUEST_TIMED_OUT when the new voter does not catch up in time, and
 * NOT_CONTROLLER elsewhere (the client retries at the active controller). Other nodes forward both. Thread-safe.
 */
public final class RaftVoterHandler {

    private final String clusterId;
    private final QuorumMembership membership;
    private final String controllerListener;

    /** {@code membership} is null on a node that is no voter: it answers NOT_CONTROLLER (it forwards instead). */
    public RaftVoterHandler(String clusterId, QuorumMembership membership, String controllerListener) {
        this.clusterId = clusterId;
        this.membership = membership;
        this.controllerListener = controllerListener;
    }

    public void registerIn(ApiRegistry registry) {
        registry.register(ApiKey.ADD_RAFT_VOTER, 0, ApiKey.ADD_RAFT_VOTER.highestVersion,
                        AddRaftVoterRequestData.class, (context, request) -> add(request))
                .register(ApiKey.REMOVE_RAFT_VOTER, 0, ApiKey.REMOVE_RAFT_VOTER.highestVersion,
                        RemoveRaftVoterRequestData.class, (context, request) -> remove(request));
    }

    private CompletableFuture<Message> add(AddRaftVoterRequestData request) {
        BiFunction<Errors, String, Message> answer = (error, message) -> new AddRaftVoterResponseData()
                .setErrorCode(error.code()).setErrorMessage(message);
        Refusal refused = refusal(request.clusterId(), request.voterId(), request.voterDirectoryId(), "Add");
        if (refused != null) {
            return CompletableFuture.completedFuture(answer.apply(refused.error(), refused.message()));
        }
        if (membership == null) {
            return CompletableFuture.completedFuture(answer.apply(Errors.NOT_CONTROLLER, null));
        }
        AddRaftVoterRequestData.Listener endpoint = request.findListeners(controllerListener);
        if (endpoint == null) {
            return CompletableFuture.completedFuture(answer.apply(Errors.INVALID_REQUEST, "Add voter request didn't "
                    + "include the endpoint for the default listener " + controllerListener));
        }
        QuorumVoter voter = new QuorumVoter(request.voterId(), endpoint.host(), endpoint.port(),
                request.voterDirectoryId());
        return membership.addVoter(voter).handle((done, failure) -> failure == null
                ? new AddRaftVoterResponseData() : answer.apply(errorOf(failure), messageOf(failure)));
    }

    private CompletableFuture<Message> remove(RemoveRaftVoterRequestData request) {
        BiFunction<Errors, String, Message> answer = (error, message) -> new RemoveRaftVoterResponseData()
                .setErrorCode(error.code()).setErrorMessage(message);
        Refusal refused = refusal(request.clusterId(), request.voterId(), request.voterDirectoryId(), "Remove");
        if (refused != null) {
            return CompletableFuture.completedFuture(answer.apply(refused.error(), refused.message()));
        }
        if (membership == null) {
            return CompletableFuture.completedFuture(answer.apply(Errors.NOT_CONTROLLER, null));
        }
        return membership.removeVoter(request.voterId(), request.voterDirectoryId()).handle((done, failure) ->
                failure == null ? new RemoveRaftVoterResponseData() : answer.apply(errorOf(failure), messageOf(failure)));
    }

    private record Refusal(Errors error, String message) {
    }

    /** Why the request names no voter of this cluster (Kafka's errors and messages), or null when it does. */
    private Refusal refusal(String requestClusterId, int voterId, Uuid directoryId, String verb) {
        if (requestClusterId != null && !requestClusterId.equals(clusterId)) {
            return new Refusal(Errors.INCONSISTENT_CLUSTER_ID, "The given id \"" + requestClusterId
                    + "\" doesn't match the cluster id \"" + clusterId + "\"");
        }
        if (voterId < 0 || Uuid.ZERO_UUID.equals(directoryId)) {
            return new Refusal(Errors.INVALID_REQUEST, verb + " voter request didn't include a valid voter");
        }
        return null;
    }

    private static Errors errorOf(Throwable failure) {
        Throwable cause = ControllerErrors.causeOf(failure);
        if (cause instanceof VoterChangeRefused refused) {
            return refused.error();
        }
        if (cause instanceof NotControllerException) {
            return Errors.NOT_CONTROLLER;
        }
        return Errors.UNKNOWN_SERVER_ERROR;
    }

    private static String messageOf(Throwable failure) {
        Throwable cause = ControllerErrors.causeOf(failure);
        return cause instanceof NotControllerException ? null : cause.getMessage();
    }
}

package dev.spool.broker.api;

import dev.spool.broker.cluster.ControllerChannel;
import dev.spool.broker.config.ClusterSettings;
import dev.spool.broker.metadata.MetadataQuorum;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.Errors;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A request that changes the metadata (CreateTopics, AlterConfigs, ...) reaching a node of a cluster that is not
 * the active controller: forwarded to the active controller as it came, its answer returned as the active
 * controller gave it, as Kafka's brokers forward to theirs. A request that came in on a controller listener is
 * never forwarded again (two nodes with stale views would pass it back and forth): it is answered here. A request
 * that only reads (ListPartitionReassignments) is answered here too while no other node is known as the active
 * controller (an election, a quorum without its majority), from what this node has committed: Kafka's last active
 * controller still answers it then, and {@code kafka-topics --describe}, which sends it, prints the partitions.
 * Thread-safe.
 */
public final class ControllerForwarding implements ApiHandler {

    private final ApiHandler local;
    private final MetadataQuorum quorum;
    private final ClusterSettings cluster;
    private final ControllerChannel channel;
    private final boolean readOnly;

    /** {@code readOnly}: the request changes nothing, so this node may answer it while no controller is known. */
    public ControllerForwarding(ApiHandler local, MetadataQuorum quorum, ClusterSettings cluster,
                                ControllerChannel channel, boolean readOnly) {
        this.local = local;
        this.quorum = quorum;
        this.cluster = cluster;
        this.channel = channel;
        this.readOnly = readOnly;
    }

    /**
     * Answered here or by the active controller; a failure of either (this node stopped being the active
     * controller, none is known, the connection to it broke, the quorum did not commit in time) is answered with
     * the error in the API's response, never by closing the client's connection.
     */
    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message request) {
        boolean here = quorum.isActiveController() || cluster.isControllerListener(context.connection().listenerName())
                || (readOnly && !channel.knowsOtherController());
        CompletableFuture<Message> answer = here ? local.handle(context, request)
                : channel.sendToOtherNode(context.apiKey(), context.apiVersion(), request);
        return answer.exceptionally(failure -> {
            short error = here ? ControllerErrors.codeOf(failure) : Errors.NOT_CONTROLLER.code();
            Message response = ControllerErrors.responseFor(context.apiKey(), request, error);
            if (response == null) {
                throw failure instanceof CompletionException completion ? completion : new CompletionException(failure);
            }
            return response;
        });
    }
}

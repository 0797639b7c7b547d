package dev.spool.broker.cluster;

import dev.spool.broker.api.ApiRegistry;
import dev.spool.broker.api.ConnectionIdentity;
import dev.spool.broker.api.Principal;
import dev.spool.broker.api.RequestContext;
import dev.spool.broker.client.NodeAddress;
import dev.spool.broker.client.NodeClients;
import dev.spool.broker.config.ClusterSettings;
import dev.spool.broker.metadata.MetadataQuorum;
import dev.spool.broker.metadata.NotControllerException;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.types.Message;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;

/**
 * How a node of a cluster reaches the active controller, with Kafka's requests: answered here when this node is
 * the active controller, else sent to the active controller's controller listener. A request sent while no active controller is known fails with
 * {@link NotControllerException}, one that reaches a node that stopped being it is answered NOT_CONTROLLER: the
 * caller retries. Thread-safe.
 */
public final class ControllerChannel {

    private final int nodeId;
    private final ClusterSettings cluster;
    private final MetadataQuorum quorum;
    private final NodeClients clients;
    private final IntFunction<NodeAddress> controllerAddresses;
    private volatile ApiRegistry localApis;

    /** {@code controllerAddresses} gives a controller's controller listener by its id (null if unknown). */
    public ControllerChannel(int nodeId, ClusterSettings cluster, MetadataQuorum quorum, NodeClients clients,
                             IntFunction<NodeAddress> controllerAddresses) {
        this.nodeId = nodeId;
        this.cluster = cluster;
        this.quorum = quorum;
        this.clients = clients;
        this.controllerAddresses = controllerAddresses;
    }

    /** The APIs this node answers, which serve the requests while this node is the active controller. */
    public void answerLocallyWith(ApiRegistry apis) {
        this.localApis = apis;
    }

    /** Sends {@code request} as {@code api} v{@code version} to the active controller. */
    public CompletableFuture<Message> send(ApiKey api, short version, Message request) {
        ApiRegistry local = localApis;
        if (quorum.isActiveController() && local != null) {
            String listener = cluster.controllerListenerNames().get(0);
            RequestContext context = new RequestContext(api, version, 0, "spool-node-" + nodeId, null,
                    new ConnectionIdentity(listener, "PLAINTEXT", Principal.THIS_NODE));
            return local.get(api).handler().handle(context, request);
        }
        return sendToOtherNode(api, version, request);
    }

    /** Whether another node is known as the active controller, at an address this node has. */
    public boolean knowsOtherController() {
        return otherController() != null;
    }

    /** Sends {@code request} to the active controller as another node knows it, never handling it here. */
    public CompletableFuture<Message> sendToOtherNode(ApiKey api, short version, Message request) {
        NodeAddress controller = otherController();
        if (controller == null) {
            return CompletableFuture.failedFuture(new NotControllerException(nodeId));
        }
        return clients.connection(controller).send(api, version, request);
    }

    private NodeAddress otherController() {
        int controllerId = quorum.activeControllerId();
        return controllerId < 0 || controllerId == nodeId ? null : controllerAddresses.apply(controllerId);
    }
}

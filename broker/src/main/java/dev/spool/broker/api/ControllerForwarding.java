package dev.spool.broker.api;

import dev.spool.broker.cluster.ControllerChannel;
import dev.spool.broker.config.ClusterSettings;
import dev.spool.broker.metadata.MetadataQuorum;
import dev.spool.protocol.types.Message;
import java.util.concurrent.CompletableFuture;

/**
 * A request that changes the metadata (CreateTopics, AlterConfigs, ...) reaching a node of a cluster that is not
 * the active controller: forwarded to the active controller as it came, its answer returned as the active
 * controller gave it, as Kafka's brokers forward to theirs. A request that came in on a controller listener is
 * never forwarded again (two nodes with stale views would pass it back and forth): it is answered here. Thread-safe.
 */
public final class ControllerForwarding implements ApiHandler {

    private final ApiHandler local;
    private final MetadataQuorum quorum;
    private final ClusterSettings cluster;
    private final ControllerChannel channel;

    public ControllerForwarding(ApiHandler local, MetadataQuorum quorum, ClusterSettings cluster,
                                ControllerChannel channel) {
        this.local = local;
        this.quorum = quorum;
        this.cluster = cluster;
        this.channel = channel;
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message request) {
        if (quorum.isActiveController() || cluster.isControllerListener(context.connection().listenerName())) {
            return local.handle(context, request);
        }
        return channel.sendToOtherNode(context.apiKey(), context.apiVersion(), request);
    }
}

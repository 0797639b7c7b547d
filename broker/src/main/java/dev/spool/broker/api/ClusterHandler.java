package dev.spool.broker.api;

import dev.spool.broker.cluster.ClusterView;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.DescribeClusterRequestData;
import dev.spool.protocol.message.DescribeClusterResponseData;
import dev.spool.protocol.message.DescribeClusterResponseData.DescribeClusterBroker;
import dev.spool.protocol.types.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * DescribeCluster: the cluster id, the controller and the brokers (KIP-700); on a controller listener of a
 * cluster's node, the controllers instead (KIP-919: what {@code --bootstrap-controller} tools ask). Thread-safe.
 */
public final class ClusterHandler implements ApiHandler {

    private static final byte BROKER_ENDPOINTS = 1;
    private static final byte CONTROLLER_ENDPOINTS = 2;

    private final Supplier<ClusterView> cluster;
    private final Supplier<ClusterView> controllers;
    private final Predicate<String> isControllerListener;

    /** A node with no controller listener: it describes brokers only. */
    public ClusterHandler(Supplier<ClusterView> cluster) {
        this(cluster, null, listener -> false);
    }

    /** A node that answers on its controller listeners (those {@code isControllerListener} names) as a controller. */
    public ClusterHandler(Supplier<ClusterView> cluster, Supplier<ClusterView> controllers,
                          Predicate<String> isControllerListener) {
        this.cluster = cluster;
        this.controllers = controllers;
        this.isControllerListener = isControllerListener;
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message message) {
        DescribeClusterRequestData request = (DescribeClusterRequestData) message;
        boolean asController = isControllerListener.test(context.connection().listenerName());
        byte served = asController ? CONTROLLER_ENDPOINTS : BROKER_ENDPOINTS;
        if (request.endpointType() != served) {
            return CompletableFuture.completedFuture(new DescribeClusterResponseData()
                    .setErrorCode(Errors.MISMATCHED_ENDPOINT_TYPE.code())
                    .setErrorMessage(asController
                            ? "The request was sent to a controller, which describes controllers only."
                            : "The request was sent to a broker, which describes brokers only.")
                    .setEndpointType(request.endpointType()));
        }
        ClusterView view = asController ? controllers.get() : cluster.get();
        List<DescribeClusterBroker> brokers = new ArrayList<>();
        for (ClusterView.BrokerNode node : view.brokers()) {
            brokers.add(new DescribeClusterBroker()
                    .setBrokerId(node.nodeId())
                    .setHost(node.endpoint().host())
                    .setPort(node.endpoint().port())
                    .setRack(node.rack()));
        }
        return CompletableFuture.completedFuture(new DescribeClusterResponseData()
                .setErrorCode(Errors.NONE.code())
                .setClusterId(view.clusterId())
                .setControllerId(view.controllerId())
                .setEndpointType(served)
                .setBrokers(brokers));
    }
}

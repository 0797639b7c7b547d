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
import java.util.function.Supplier;

/** DescribeCluster: the cluster id, the controller and the brokers (KIP-700). Thread-safe. */
public final class ClusterHandler implements ApiHandler {

    private static final byte BROKER_ENDPOINTS = 1;

    private final Supplier<ClusterView> cluster;

    public ClusterHandler(Supplier<ClusterView> cluster) {
        this.cluster = cluster;
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message message) {
        DescribeClusterRequestData request = (DescribeClusterRequestData) message;
        if (request.endpointType() != BROKER_ENDPOINTS) {
            // This is a broker: controller endpoints are asked of a controller (KIP-919).
            return CompletableFuture.completedFuture(new DescribeClusterResponseData()
                    .setErrorCode(Errors.MISMATCHED_ENDPOINT_TYPE.code())
                    .setErrorMessage("The request was sent to a broker, which describes brokers only.")
                    .setEndpointType(request.endpointType()));
        }
        ClusterView view = cluster.get();
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
                .setBrokers(brokers));
    }
}

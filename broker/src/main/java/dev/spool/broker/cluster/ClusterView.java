package dev.spool.broker.cluster;

import dev.spool.broker.config.Endpoint;
import dev.spool.broker.metadata.BrokerRegistration;
import dev.spool.broker.metadata.MetadataImage;
import java.util.ArrayList;
import java.util.List;

/**
 * What clients are told about the cluster: its id, the controller, and the live brokers with their
 * advertised endpoint. Derived from the metadata image's broker registrations ({@link #of}). Immutable.
 */
public record ClusterView(String clusterId, int controllerId, List<BrokerNode> brokers) {

    /** One broker as clients reach it. */
    public record BrokerNode(int nodeId, Endpoint endpoint, String rack) {
    }

    /** The registered, unfenced brokers of {@code image}, each by its first advertised listener. */
    public static ClusterView of(String clusterId, int controllerId, MetadataImage image) {
        List<BrokerNode> nodes = new ArrayList<>(image.brokers().size());
        for (BrokerRegistration broker : image.brokers().values()) {
            if (broker.fenced() || broker.listeners().isEmpty()) {
                continue;
            }
            BrokerRegistration.Listener listener = broker.listeners().get(0);
            nodes.add(new BrokerNode(broker.brokerId(),
                    new Endpoint(listener.name(), listener.host(), listener.port()), broker.rack()));
        }
        return new ClusterView(clusterId, controllerId, List.copyOf(nodes));
    }

    /** The live broker of this id, or null. */
    public BrokerNode broker(int nodeId) {
        for (BrokerNode node : brokers) {
            if (node.nodeId() == nodeId) {
                return node;
            }
        }
        return null;
    }
}

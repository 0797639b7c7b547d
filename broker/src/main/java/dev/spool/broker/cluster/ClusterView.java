package dev.spool.broker.cluster;

import dev.spool.broker.client.NodeAddress;
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

    /**
     * One broker as clients reach it: {@code endpoint} on its first advertised listener (where other brokers reach
     * it), and its endpoint on each of its listeners by name.
     */
    public record BrokerNode(int nodeId, Endpoint endpoint, String rack, List<Endpoint> endpoints) {

        /** A broker with one listener. */
        public BrokerNode(int nodeId, Endpoint endpoint, String rack) {
            this(nodeId, endpoint, rack, List.of(endpoint));
        }

        /**
         * Where another broker reaches it: its endpoint on the inter-broker listener {@code listenerName}, as Kafka's
         * brokers look each other up, or its first one when it has none of that name (or the name is null).
         */
        public NodeAddress addressOn(String listenerName) {
            Endpoint named = listenerName == null ? null : endpointOn(listenerName);
            Endpoint chosen = named != null ? named : endpoint;
            return new NodeAddress(chosen.host(), chosen.port());
        }

        /** Its endpoint on the listener named {@code listenerName} (case-insensitive), or null when it has none. */
        Endpoint endpointOn(String listenerName) {
            for (Endpoint candidate : endpoints) {
                if (candidate.listenerName().equalsIgnoreCase(listenerName)) {
                    return candidate;
                }
            }
            return null;
        }
    }

    /** The registered, unfenced brokers of {@code image}, each by its first advertised listener. */
    public static ClusterView of(String clusterId, int controllerId, MetadataImage image) {
        List<BrokerNode> nodes = new ArrayList<>(image.brokers().size());
        for (BrokerRegistration broker : image.brokers().values()) {
            if (broker.fenced() || broker.listeners().isEmpty()) {
                continue;
            }
            List<Endpoint> endpoints = new ArrayList<>(broker.listeners().size());
            for (BrokerRegistration.Listener listener : broker.listeners()) {
                endpoints.add(new Endpoint(listener.name(), listener.host(), listener.port()));
            }
            nodes.add(new BrokerNode(broker.brokerId(), endpoints.get(0), broker.rack(), List.copyOf(endpoints)));
        }
        return new ClusterView(clusterId, controllerId, List.copyOf(nodes));
    }

    /**
     * The cluster as a client connected on the listener named {@code listenerName} is told of it, as Kafka does:
     * each broker by its endpoint on that listener (so a TLS client is sent on to TLS ports), a broker without one
     * left out. A listener no broker has (a controller's) leaves the view as it is.
     */
    public ClusterView onListener(String listenerName) {
        List<BrokerNode> nodes = new ArrayList<>(brokers.size());
        boolean anyHasIt = false;
        for (BrokerNode node : brokers) {
            Endpoint endpoint = node.endpointOn(listenerName);
            if (endpoint != null) {
                anyHasIt = true;
                nodes.add(new BrokerNode(node.nodeId(), endpoint, node.rack(), node.endpoints()));
            }
        }
        return anyHasIt ? new ClusterView(clusterId, controllerId, List.copyOf(nodes)) : this;
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

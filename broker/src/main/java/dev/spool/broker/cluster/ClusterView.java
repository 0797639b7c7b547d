package dev.spool.broker.cluster;

import dev.spool.broker.config.Endpoint;
import java.util.List;

/**
 * What clients are told about the cluster: its id, the controller, and the live brokers with their
 * advertised endpoint. On one broker this broker is all of them. Immutable.
 */
public record ClusterView(String clusterId, int controllerId, List<BrokerNode> brokers) {

    /** One broker as clients reach it. */
    public record BrokerNode(int nodeId, Endpoint endpoint, String rack) {
    }
}

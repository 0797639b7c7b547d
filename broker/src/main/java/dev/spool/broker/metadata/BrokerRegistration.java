package dev.spool.broker.metadata;

import dev.spool.protocol.types.Uuid;
import java.util.List;

/**
 * One broker as the metadata knows it (Kafka's RegisterBrokerRecord, fenced and unfenced by their records):
 * its id, the epoch of this registration, the incarnation (one per process start), the listeners clients and
 * brokers reach it on, its rack, and whether it is fenced (not to be given leadership or clients). Immutable.
 */
public record BrokerRegistration(int brokerId, long brokerEpoch, Uuid incarnationId, List<Listener> listeners,
                                 String rack, boolean fenced) {

    /** An advertised listener: its name, where it is reached, and its security protocol's Kafka id. */
    public record Listener(String name, String host, int port, short securityProtocol) {
    }

    public BrokerRegistration {
        listeners = List.copyOf(listeners);
    }

    BrokerRegistration withFenced(boolean fenced) {
        return new BrokerRegistration(brokerId, brokerEpoch, incarnationId, listeners, rack, fenced);
    }
}

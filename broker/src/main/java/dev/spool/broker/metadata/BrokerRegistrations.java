package dev.spool.broker.metadata;

import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.metadata.RegisterBrokerRecordData;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.List;

/**
 * The controller's decisions about brokers, against an image: a broker that starts registers with a new
 * incarnation and its advertised listeners (Kafka's RegisterBrokerRecord), unfenced at once while this node is
 * the whole cluster. Stateless.
 */
public final class BrokerRegistrations {

    /** RegisterBrokerRecord v3: Kafka 3.7 and later (and their tools) read it. */
    static final short REGISTER_BROKER_RECORD_VERSION = 3;

    private BrokerRegistrations() {
    }

    /**
     * The record registering {@code brokerId}; the result is its broker epoch, the offset the record will have
     * (Kafka's rule). The local log assigns offsets one batch after another on the controller thread, so the
     * next offset is the image's plus one; a Raft quorum will hand the offset to the controller instead.
     */
    public static MetadataChange<Long> register(MetadataImage image, int brokerId, Uuid incarnationId,
                                                List<BrokerRegistration.Listener> listeners) {
        long brokerEpoch = image.offset() + 1;
        BrokerRegistration registration = new BrokerRegistration(brokerId, brokerEpoch, incarnationId, listeners,
                null, false);
        return new MetadataChange<>(List.of(recordOf(registration)), brokerEpoch);
    }

    /** The record of a registration (a new one, or one a snapshot keeps). */
    static VersionedRecord recordOf(BrokerRegistration broker) {
        List<RegisterBrokerRecordData.BrokerEndpoint> endpoints = new ArrayList<>();
        for (BrokerRegistration.Listener listener : broker.listeners()) {
            endpoints.add(new RegisterBrokerRecordData.BrokerEndpoint().setName(listener.name())
                    .setHost(listener.host()).setPort(listener.port()).setSecurityProtocol(listener.securityProtocol()));
        }
        return new VersionedRecord(MetadataRecordType.REGISTER_BROKER_RECORD, REGISTER_BROKER_RECORD_VERSION,
                new RegisterBrokerRecordData().setBrokerId(broker.brokerId()).setIncarnationId(broker.incarnationId())
                        .setBrokerEpoch(broker.brokerEpoch()).setEndPoints(endpoints).setRack(broker.rack())
                        .setFenced(broker.fenced()));
    }
}

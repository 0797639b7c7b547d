package dev.spool.broker.metadata;

import dev.spool.protocol.metadata.FenceBrokerRecordData;
import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.metadata.RegisterBrokerRecordData;
import dev.spool.protocol.metadata.UnfenceBrokerRecordData;
import dev.spool.protocol.metadata.UnregisterBrokerRecordData;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The controller's decisions about brokers, against an image: a broker that starts registers with a new
 * incarnation and its advertised listeners (Kafka's RegisterBrokerRecord), unfenced at once while this node is
 * the whole cluster; in a cluster a broker is fenced until its heartbeats show it caught up, and again when they
 * stop. Stateless.
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
        return register(image, brokerId, incarnationId, listeners, null, false);
    }

    /**
     * As {@link #register(MetadataImage, int, Uuid, List)}, with the broker's rack, and {@code fenced} for a
     * broker of a cluster, which is unfenced once its heartbeats show it caught up with the metadata.
     */
    public static MetadataChange<Long> register(MetadataImage image, int brokerId, Uuid incarnationId,
                                                List<BrokerRegistration.Listener> listeners, String rack,
                                                boolean fenced) {
        long brokerEpoch = image.offset() + 1;
        BrokerRegistration registration = new BrokerRegistration(brokerId, brokerEpoch, incarnationId, listeners,
                rack, fenced);
        return new MetadataChange<>(List.of(recordOf(registration)), brokerEpoch);
    }

    /**
     * A cluster's broker registering (fenced, see {@link #register}) after a restart: when {@code previousBrokerEpoch}
     * is not the epoch of its registration (its last process did not shut down cleanly, so it may have lost records
     * it had not flushed), its replicas leave every ISR and ELR (KIP-966, and Kafka since KAFKA-18106) and lead
     * nowhere, as a fence would have had them: a broker restarted before its session ended (or before a new active
     * controller ended it) would otherwise still be in sync with a log that lost its tail, and could be elected. A
     * broker never registered before has none.
     */
    public static MetadataChange<Long> reregister(MetadataImage image, int brokerId, Uuid incarnationId,
                                                  List<BrokerRegistration.Listener> listeners, String rack,
                                                  long previousBrokerEpoch, ElectionRules rules) {
        MetadataChange<Long> registration = register(image, brokerId, incarnationId, listeners, rack, true);
        BrokerRegistration before = image.brokers().get(brokerId);
        if (before == null || before.brokerEpoch() == previousBrokerEpoch) {
            return registration;
        }
        // The registration first: the broker epoch is its offset.
        List<VersionedRecord> records = new ArrayList<>(registration.records());
        records.addAll(partitionChanges(image, rules, partition -> partition.leader() == brokerId
                        || partition.isr().contains(brokerId) || partition.elr().contains(brokerId),
                change -> change.without(brokerId).forgetting(brokerId)));
        return new MetadataChange<>(records, registration.result());
    }

    /**
     * Fences {@code brokerId} (Kafka's FenceBrokerRecord) and moves away the leadership of the partitions it
     * leads (see {@link #leadershipMovedAwayFrom}). Nothing when it is unknown or already fenced.
     */
    public static MetadataChange<Boolean> fence(MetadataImage image, int brokerId) {
        return fence(image, brokerId, ElectionRules.DEFAULTS);
    }

    /** As {@link #fence(MetadataImage, int)}, under the topics' {@code rules} (min ISR, unclean elections). */
    public static MetadataChange<Boolean> fence(MetadataImage image, int brokerId, ElectionRules rules) {
        BrokerRegistration broker = image.brokers().get(brokerId);
        if (broker == null || broker.fenced()) {
            return new MetadataChange<>(List.of(), false);
        }
        List<VersionedRecord> records = new ArrayList<>();
        records.add(VersionedRecord.of(MetadataRecordType.FENCE_BROKER_RECORD,
                new FenceBrokerRecordData().setId(brokerId).setEpoch(broker.brokerEpoch())));
        records.addAll(leadershipMovedAwayFrom(image, brokerId, rules, false));
        return new MetadataChange<>(records, true);
    }

    /**
     * Removes {@code brokerId}'s registration (Kafka's UnregisterBrokerRecord), its partitions' leadership moved away
     * first as for a fence; null when it is not registered.
     */
    public static MetadataChange<Boolean> unregister(MetadataImage image, int brokerId, ElectionRules rules) {
        BrokerRegistration broker = image.brokers().get(brokerId);
        if (broker == null) {
            return new MetadataChange<>(List.of(), false);
        }
        List<VersionedRecord> records = new ArrayList<>(leadershipMovedAwayFrom(image, brokerId, rules, true));
        records.add(VersionedRecord.of(MetadataRecordType.UNREGISTER_BROKER_RECORD,
                new UnregisterBrokerRecordData().setBrokerId(brokerId).setBrokerEpoch(broker.brokerEpoch())));
        return new MetadataChange<>(records, true);
    }

    /**
     * The partition changes that take {@code brokerId} out of the partitions it is in sync for (see
     * {@link PartitionChange}): it leaves each ISR, even as its last member (it then stays an eligible leader while the
     * ISR is below min ISR), and where it led, another replica is elected, or none; an unregistered broker
     * ({@code gone}) also leaves the eligible leaders.
     */
    private static List<VersionedRecord> leadershipMovedAwayFrom(MetadataImage image, int brokerId,
                                                                 ElectionRules rules, boolean gone) {
        return partitionChanges(image, rules, partition -> partition.leader() == brokerId
                        || partition.isr().contains(brokerId) || gone && partition.elr().contains(brokerId),
                change -> gone ? change.without(brokerId).forgetting(brokerId) : change.without(brokerId));
    }

    /**
     * The records of {@code how} applied to each partition {@code concerned} selects (see {@link PartitionChange});
     * a partition the change leaves as it was has none.
     */
    private static List<VersionedRecord> partitionChanges(MetadataImage image, ElectionRules rules,
                                                          Predicate<PartitionImage> concerned,
                                                          UnaryOperator<PartitionChange> how) {
        List<VersionedRecord> records = new ArrayList<>();
        for (TopicImage topic : image.topics()) {
            for (PartitionImage partition : topic.partitions().values()) {
                if (concerned.test(partition)) {
                    VersionedRecord record = how.apply(new PartitionChange(image, topic, partition, rules)).record();
                    if (record != null) {
                        records.add(record);
                    }
                }
            }
        }
        return records;
    }

    /**
     * Unfences {@code brokerId} and elects a leader where a partition of its has none and now may (it is in the ISR,
     * or in the ELR of an empty ISR, or was the last leader; see {@link PartitionChange}). Nothing when it is unknown
     * or not fenced.
     */
    public static MetadataChange<Boolean> unfence(MetadataImage image, int brokerId) {
        return unfence(image, brokerId, ElectionRules.DEFAULTS);
    }

    /**
     * As {@link #unfence(MetadataImage, int)}, under the topics' {@code rules}: where unclean elections are allowed,
     * a partition with no eligible replica left is led by any unfenced one, which becomes the whole ISR.
     */
    public static MetadataChange<Boolean> unfence(MetadataImage image, int brokerId, ElectionRules rules) {
        BrokerRegistration broker = image.brokers().get(brokerId);
        if (broker == null || !broker.fenced()) {
            return new MetadataChange<>(List.of(), false);
        }
        List<VersionedRecord> records = new ArrayList<>();
        records.add(VersionedRecord.of(MetadataRecordType.UNFENCE_BROKER_RECORD,
                new UnfenceBrokerRecordData().setId(brokerId).setEpoch(broker.brokerEpoch())));
        records.addAll(partitionChanges(image, rules,
                partition -> partition.leader() == -1 && partition.replicas().contains(brokerId),
                change -> change.unfencing(brokerId)));
        return new MetadataChange<>(records, true);
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

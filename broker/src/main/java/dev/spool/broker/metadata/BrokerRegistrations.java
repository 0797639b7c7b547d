package dev.spool.broker.metadata;

import dev.spool.protocol.metadata.FenceBrokerRecordData;
import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.metadata.PartitionChangeRecordData;
import dev.spool.protocol.metadata.RegisterBrokerRecordData;
import dev.spool.protocol.metadata.UnfenceBrokerRecordData;
import dev.spool.protocol.metadata.UnregisterBrokerRecordData;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.List;

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
     * Fences {@code brokerId} (Kafka's FenceBrokerRecord) and moves away the leadership of the partitions it
     * leads (see {@link #leadershipMovedAwayFrom}). Nothing when it is unknown or already fenced.
     */
    public static MetadataChange<Boolean> fence(MetadataImage image, int brokerId) {
        return fence(image, brokerId, UncleanElectionPolicy.NEVER);
    }

    /** As {@link #fence(MetadataImage, int)}, electing out of sync where {@code unclean} allows it. */
    public static MetadataChange<Boolean> fence(MetadataImage image, int brokerId, UncleanElectionPolicy unclean) {
        BrokerRegistration broker = image.brokers().get(brokerId);
        if (broker == null || broker.fenced()) {
            return new MetadataChange<>(List.of(), false);
        }
        List<VersionedRecord> records = new ArrayList<>();
        records.add(VersionedRecord.of(MetadataRecordType.FENCE_BROKER_RECORD,
                new FenceBrokerRecordData().setId(brokerId).setEpoch(broker.brokerEpoch())));
        records.addAll(leadershipMovedAwayFrom(image, brokerId, unclean));
        return new MetadataChange<>(records, true);
    }

    /**
     * Removes {@code brokerId}'s registration (Kafka's UnregisterBrokerRecord), its partitions' leadership moved away
     * first as for a fence; null when it is not registered.
     */
    public static MetadataChange<Boolean> unregister(MetadataImage image, int brokerId, UncleanElectionPolicy unclean) {
        BrokerRegistration broker = image.brokers().get(brokerId);
        if (broker == null) {
            return new MetadataChange<>(List.of(), false);
        }
        List<VersionedRecord> records = new ArrayList<>(leadershipMovedAwayFrom(image, brokerId, unclean));
        records.add(VersionedRecord.of(MetadataRecordType.UNREGISTER_BROKER_RECORD,
                new UnregisterBrokerRecordData().setBrokerId(brokerId).setBrokerEpoch(broker.brokerEpoch())));
        return new MetadataChange<>(records, true);
    }

    /**
     * The partition changes that take {@code brokerId} out of the partitions it is in sync for, as Kafka's
     * controller does: it leaves each ISR unless it is the last member, which stays (the one replica known to hold
     * every acknowledged record), and where it led, leadership goes to another in-sync replica that is not fenced,
     * or to none (-1); with none, and {@code unclean} allowing it for the topic, to another unfenced replica, which
     * becomes the whole ISR.
     */
    private static List<VersionedRecord> leadershipMovedAwayFrom(MetadataImage image, int brokerId,
                                                                 UncleanElectionPolicy unclean) {
        List<VersionedRecord> records = new ArrayList<>();
        for (TopicImage topic : image.topics()) {
            for (PartitionImage partition : topic.partitions().values()) {
                boolean leads = partition.leader() == brokerId;
                if (!leads && !(partition.isr().contains(brokerId) && partition.isr().size() > 1)) {
                    continue;
                }
                List<Integer> isr = new ArrayList<>(partition.isr());
                if (isr.size() > 1) {
                    isr.remove(Integer.valueOf(brokerId));
                }
                PartitionChangeRecordData change = new PartitionChangeRecordData().setTopicId(topic.id())
                        .setPartitionId(partition.partition()).setIsr(isr.equals(partition.isr()) ? null : isr);
                if (leads) {
                    int leader = firstLiveOtherThan(image, isr, brokerId);
                    if (leader < 0 && unclean.allows(image, topic.name())) {
                        leader = firstLiveOtherThan(image, partition.replicas(), brokerId);
                        if (leader >= 0) {
                            change.setIsr(List.of(leader));
                        }
                    }
                    change.setLeader(leader);
                }
                records.add(VersionedRecord.of(MetadataRecordType.PARTITION_CHANGE_RECORD, change));
            }
        }
        return records;
    }

    /**
     * The first of {@code candidates} registered, unfenced and not {@code brokerId} (-1 excludes none); -1 when there
     * is none.
     */
    static int firstLiveOtherThan(MetadataImage image, List<Integer> candidates, int brokerId) {
        for (int candidate : candidates) {
            if (candidate != brokerId && image.isUnfenced(candidate)) {
                return candidate;
            }
        }
        return -1;
    }

    /**
     * Unfences {@code brokerId} and gives it the leadership of the partitions that have none and hold it in their
     * ISR. Nothing when it is unknown or not fenced.
     */
    public static MetadataChange<Boolean> unfence(MetadataImage image, int brokerId) {
        return unfence(image, brokerId, UncleanElectionPolicy.NEVER);
    }

    /**
     * As {@link #unfence(MetadataImage, int)}; where {@code unclean} allows it, the broker also leads the partitions
     * without a leader whose replica it is though not in their ISR (it becomes the whole ISR).
     */
    public static MetadataChange<Boolean> unfence(MetadataImage image, int brokerId, UncleanElectionPolicy unclean) {
        BrokerRegistration broker = image.brokers().get(brokerId);
        if (broker == null || !broker.fenced()) {
            return new MetadataChange<>(List.of(), false);
        }
        List<VersionedRecord> records = new ArrayList<>();
        records.add(VersionedRecord.of(MetadataRecordType.UNFENCE_BROKER_RECORD,
                new UnfenceBrokerRecordData().setId(brokerId).setEpoch(broker.brokerEpoch())));
        for (TopicImage topic : image.topics()) {
            for (PartitionImage partition : topic.partitions().values()) {
                if (partition.leader() != -1 || !partition.replicas().contains(brokerId)) {
                    continue;
                }
                PartitionChangeRecordData change = new PartitionChangeRecordData().setTopicId(topic.id())
                        .setPartitionId(partition.partition()).setLeader(brokerId);
                if (partition.isr().contains(brokerId)) {
                    records.add(VersionedRecord.of(MetadataRecordType.PARTITION_CHANGE_RECORD, change));
                } else if (firstLiveOtherThan(image, partition.isr(), brokerId) < 0
                        && unclean.allows(image, topic.name())) {
                    records.add(VersionedRecord.of(MetadataRecordType.PARTITION_CHANGE_RECORD,
                            change.setIsr(List.of(brokerId))));
                }
            }
        }
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

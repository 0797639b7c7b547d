package dev.spool.broker.metadata;

import dev.spool.broker.quota.QuotaEntity;
import dev.spool.broker.security.acl.AclBinding;
import dev.spool.broker.security.acl.AclRecords;
import dev.spool.protocol.metadata.AccessControlEntryRecordData;
import dev.spool.protocol.metadata.ClientQuotaRecordData;
import dev.spool.protocol.metadata.ConfigRecordData;
import dev.spool.protocol.metadata.FenceBrokerRecordData;
import dev.spool.protocol.metadata.PartitionChangeRecordData;
import dev.spool.protocol.metadata.PartitionRecordData;
import dev.spool.protocol.metadata.ProducerIdsRecordData;
import dev.spool.protocol.metadata.RegisterBrokerRecordData;
import dev.spool.protocol.metadata.RemoveAccessControlEntryRecordData;
import dev.spool.protocol.metadata.RemoveTopicRecordData;
import dev.spool.protocol.metadata.RemoveUserScramCredentialRecordData;
import dev.spool.protocol.metadata.TopicRecordData;
import dev.spool.protocol.metadata.UnfenceBrokerRecordData;
import dev.spool.protocol.metadata.UnregisterBrokerRecordData;
import dev.spool.protocol.metadata.UserScramCredentialRecordData;
import dev.spool.protocol.types.Uuid;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The cluster as the metadata log says it is after applying every record up to {@link #offset()}:
 * topics by name and id, config overrides by resource, the registered brokers, users' SCRAM credentials, the ACLs,
 * the client quotas and the next free producer id. Built only
 * by applying records (restart = replay). Immutable: readers on any thread share an image while the
 * metadata thread builds the next one.
 */
public final class MetadataImage {

    public static final MetadataImage EMPTY = new MetadataImage(new TreeMap<>(), new HashMap<>(), new HashMap<>(),
            new TreeMap<>(), new TreeMap<>(), Map.of(), Map.of(), 0L, -1L);

    private final Map<String, TopicImage> topicsByName;
    private final Map<Uuid, TopicImage> topicsById;
    private final Map<ConfigResource, Map<String, String>> configs;
    private final Map<Integer, BrokerRegistration> brokers;
    /** SCRAM credentials by user, then mechanism id. */
    private final Map<String, Map<Byte, ScramCredential>> scramCredentials;
    /** The ACLs by the id their AccessControlEntryRecord gave them; the same map while no ACL changes. */
    private final Map<Uuid, AclBinding> acls;
    /** The client quotas by entity, then key; the same map while no quota changes. */
    private final Map<QuotaEntity, Map<String, Double>> clientQuotas;
    private final long nextProducerId;
    private final long offset;

    private MetadataImage(Map<String, TopicImage> topicsByName, Map<Uuid, TopicImage> topicsById,
                          Map<ConfigResource, Map<String, String>> configs, Map<Integer, BrokerRegistration> brokers,
                          Map<String, Map<Byte, ScramCredential>> scramCredentials, Map<Uuid, AclBinding> acls,
                          Map<QuotaEntity, Map<String, Double>> clientQuotas, long nextProducerId, long offset) {
        this.topicsByName = Collections.unmodifiableMap(topicsByName);
        this.scramCredentials = Collections.unmodifiableMap(scramCredentials);
        this.acls = acls;
        this.clientQuotas = clientQuotas;
        this.topicsById = Collections.unmodifiableMap(topicsById);
        this.configs = Collections.unmodifiableMap(configs);
        this.brokers = Collections.unmodifiableMap(brokers);
        this.nextProducerId = nextProducerId;
        this.offset = offset;
    }

    /** The registered brokers by id, fenced ones included. */
    public Map<Integer, BrokerRegistration> brokers() {
        return brokers;
    }

    /** Whether broker {@code brokerId} is registered and not fenced: it may lead and be in sync. */
    public boolean isUnfenced(int brokerId) {
        BrokerRegistration broker = brokers.get(brokerId);
        return broker != null && !broker.fenced();
    }

    /** The topic of this name, or null. */
    public TopicImage topic(String name) {
        return topicsByName.get(name);
    }

    /** The topic of this id, or null. */
    public TopicImage topic(Uuid id) {
        return topicsById.get(id);
    }

    /** Every topic, sorted by name. */
    public Collection<TopicImage> topics() {
        return topicsByName.values();
    }

    /** The overrides set on a resource (a topic's configs, a broker's dynamic configs); never null. */
    public Map<String, String> configs(ConfigResource resource) {
        return configs.getOrDefault(resource, Map.of());
    }

    /** Every resource's overrides. */
    public Map<ConfigResource, Map<String, String>> allConfigs() {
        return configs;
    }

    /** Every user's SCRAM credentials, by user (sorted), then mechanism id. */
    public Map<String, Map<Byte, ScramCredential>> scramCredentials() {
        return scramCredentials;
    }

    /** A user's credential for a SCRAM mechanism (its id), or null. */
    public ScramCredential scramCredential(String user, byte mechanism) {
        return scramCredentials.getOrDefault(user, Map.of()).get(mechanism);
    }

    /**
     * Every ACL, by its id. The same instance from image to image until an ACL is added or removed, so what is built
     * from the ACLs (the authorizer's index) is rebuilt only then.
     */
    public Map<Uuid, AclBinding> acls() {
        return acls;
    }

    /**
     * Every client quota, by entity, then key. The same instance from image to image until a quota changes, so what
     * is built from the quotas is rebuilt only then.
     */
    public Map<QuotaEntity, Map<String, Double>> clientQuotas() {
        return clientQuotas;
    }

    /** The first producer id not yet handed out (ProducerIdsRecord). */
    public long nextProducerId() {
        return nextProducerId;
    }

    /** The offset of the last metadata record applied, -1 for none. */
    public long offset() {
        return offset;
    }

    /** A new image: this one with {@code records} applied, the last of them at {@code lastOffset}. */
    public MetadataImage apply(List<VersionedRecord> records, long lastOffset) {
        TreeMap<String, TopicImage> byName = new TreeMap<>(topicsByName);
        HashMap<Uuid, TopicImage> byId = new HashMap<>(topicsById);
        HashMap<ConfigResource, Map<String, String>> newConfigs = new HashMap<>(configs);
        TreeMap<Integer, BrokerRegistration> newBrokers = new TreeMap<>(brokers);
        TreeMap<String, Map<Byte, ScramCredential>> newScram = new TreeMap<>(scramCredentials);
        // Copied on the first ACL record only: batches of partition changes are frequent, ACLs may be thousands.
        HashMap<Uuid, AclBinding> newAcls = null;
        HashMap<QuotaEntity, Map<String, Double>> newQuotas = null;
        // The partitions of the topics these records touch, changed in place and made immutable once at the end:
        // a topic created with N partitions is N records, and copying its partitions per record cost O(N^2).
        HashMap<Uuid, TreeMap<Integer, PartitionImage>> changedPartitions = new HashMap<>();
        long producerId = nextProducerId;
        for (VersionedRecord record : records) {
            switch (record.type()) {
                case TOPIC_RECORD -> {
                    TopicRecordData topic = (TopicRecordData) record.data();
                    TopicImage image = new TopicImage(topic.name(), topic.topicId(), new TreeMap<>());
                    byName.put(topic.name(), image);
                    byId.put(topic.topicId(), image);
                    changedPartitions.remove(topic.topicId());
                }
                case PARTITION_RECORD -> applyPartition(partitionsOf(byId, changedPartitions,
                        ((PartitionRecordData) record.data()).topicId()), (PartitionRecordData) record.data());
                case PARTITION_CHANGE_RECORD -> applyPartitionChange(partitionsOf(byId, changedPartitions,
                        ((PartitionChangeRecordData) record.data()).topicId()), (PartitionChangeRecordData) record.data());
                case REMOVE_TOPIC_RECORD -> {
                    Uuid topicId = ((RemoveTopicRecordData) record.data()).topicId();
                    changedPartitions.remove(topicId);
                    TopicImage removed = byId.remove(topicId);
                    if (removed != null) {
                        byName.remove(removed.name());
                        newConfigs.remove(ConfigResource.topic(removed.name()));
                    }
                }
                case CONFIG_RECORD -> applyConfig(newConfigs, (ConfigRecordData) record.data());
                case REGISTER_BROKER_RECORD -> {
                    BrokerRegistration registration = registration((RegisterBrokerRecordData) record.data());
                    newBrokers.put(registration.brokerId(), registration);
                }
                case UNREGISTER_BROKER_RECORD -> newBrokers.remove(((UnregisterBrokerRecordData) record.data()).brokerId());
                case FENCE_BROKER_RECORD -> newBrokers.computeIfPresent(((FenceBrokerRecordData) record.data()).id(),
                        (id, broker) -> broker.withFenced(true));
                case UNFENCE_BROKER_RECORD -> newBrokers.computeIfPresent(((UnfenceBrokerRecordData) record.data()).id(),
                        (id, broker) -> broker.withFenced(false));
                case PRODUCER_IDS_RECORD -> producerId = Math.max(producerId,
                        ((ProducerIdsRecordData) record.data()).nextProducerId());
                case USER_SCRAM_CREDENTIAL_RECORD -> {
                    UserScramCredentialRecordData scram = (UserScramCredentialRecordData) record.data();
                    Map<Byte, ScramCredential> ofUser = new TreeMap<>(newScram.getOrDefault(scram.name(), Map.of()));
                    ofUser.put(scram.mechanism(), new ScramCredential(scram.mechanism(), scram.salt(),
                            scram.storedKey(), scram.serverKey(), scram.iterations()));
                    newScram.put(scram.name(), Collections.unmodifiableMap(ofUser));
                }
                case REMOVE_USER_SCRAM_CREDENTIAL_RECORD -> {
                    RemoveUserScramCredentialRecordData removed = (RemoveUserScramCredentialRecordData) record.data();
                    Map<Byte, ScramCredential> ofUser = new TreeMap<>(newScram.getOrDefault(removed.name(), Map.of()));
                    ofUser.remove(removed.mechanism());
                    if (ofUser.isEmpty()) {
                        newScram.remove(removed.name());
                    } else {
                        newScram.put(removed.name(), Collections.unmodifiableMap(ofUser));
                    }
                }
                case ACCESS_CONTROL_ENTRY_RECORD -> {
                    newAcls = newAcls != null ? newAcls : new HashMap<>(acls);
                    AccessControlEntryRecordData acl = (AccessControlEntryRecordData) record.data();
                    newAcls.put(acl.id(), AclRecords.bindingOf(acl));
                }
                case REMOVE_ACCESS_CONTROL_ENTRY_RECORD -> {
                    newAcls = newAcls != null ? newAcls : new HashMap<>(acls);
                    newAcls.remove(((RemoveAccessControlEntryRecordData) record.data()).id());
                }
                case CLIENT_QUOTA_RECORD -> {
                    newQuotas = newQuotas != null ? newQuotas : new HashMap<>(clientQuotas);
                    applyClientQuota(newQuotas, (ClientQuotaRecordData) record.data());
                }
                default -> {
                    // Records of features Spool does not have yet (brokers of a quorum) change nothing.
                }
            }
        }
        changedPartitions.forEach((topicId, partitions) -> {
            TopicImage topic = byId.get(topicId);
            TopicImage updated = new TopicImage(topic.name(), topicId, partitions);
            byName.put(updated.name(), updated);
            byId.put(topicId, updated);
        });
        return new MetadataImage(byName, byId, newConfigs, newBrokers, newScram,
                newAcls == null ? acls : Collections.unmodifiableMap(newAcls),
                newQuotas == null ? clientQuotas : Collections.unmodifiableMap(newQuotas), producerId, lastOffset);
    }


    private static BrokerRegistration registration(RegisterBrokerRecordData record) {
        List<BrokerRegistration.Listener> listeners = new java.util.ArrayList<>();
        for (RegisterBrokerRecordData.BrokerEndpoint endpoint : record.endPoints()) {
            listeners.add(new BrokerRegistration.Listener(endpoint.name(), endpoint.host(), endpoint.port(),
                    endpoint.securityProtocol()));
        }
        return new BrokerRegistration(record.brokerId(), record.brokerEpoch(), record.incarnationId(), listeners,
                record.rack(), record.fenced());
    }

    /** The working copy of a topic's partitions, made on its first change in this batch. */
    private static TreeMap<Integer, PartitionImage> partitionsOf(Map<Uuid, TopicImage> byId,
                                                                 Map<Uuid, TreeMap<Integer, PartitionImage>> changed,
                                                                 Uuid topicId) {
        TreeMap<Integer, PartitionImage> partitions = changed.get(topicId);
        if (partitions == null) {
            TopicImage topic = byId.get(topicId);
            if (topic == null) {
                throw new IllegalStateException("Partition record for unknown topic id " + topicId);
            }
            partitions = new TreeMap<>(topic.partitions());
            changed.put(topicId, partitions);
        }
        return partitions;
    }

    private static void applyPartition(TreeMap<Integer, PartitionImage> partitions, PartitionRecordData record) {
        partitions.put(record.partitionId(), new PartitionImage(record.partitionId(), record.replicas(), record.isr(),
                record.leader(), record.leaderEpoch(), record.partitionEpoch(), orNone(record.eligibleLeaderReplicas()),
                orNone(record.lastKnownElr()), orNone(record.addingReplicas()), orNone(record.removingReplicas())));
    }

    private static void applyPartitionChange(TreeMap<Integer, PartitionImage> partitions,
                                             PartitionChangeRecordData change) {
        PartitionImage current = partitions.get(change.partitionId());
        if (current == null) {
            throw new IllegalStateException("PartitionChangeRecord for unknown partition " + change.topicId() + "-"
                    + change.partitionId());
        }
        // Leader -2 means "unchanged"; a new leader starts a new leader epoch.
        boolean newLeader = change.leader() != -2;
        partitions.put(current.partition(), new PartitionImage(current.partition(),
                change.replicas() != null ? change.replicas() : current.replicas(),
                change.isr() != null ? change.isr() : current.isr(),
                newLeader ? change.leader() : current.leader(),
                newLeader ? current.leaderEpoch() + 1 : current.leaderEpoch(),
                current.partitionEpoch() + 1,
                change.eligibleLeaderReplicas() != null ? change.eligibleLeaderReplicas() : current.elr(),
                change.lastKnownElr() != null ? change.lastKnownElr() : current.lastKnownElr(),
                change.addingReplicas() != null ? change.addingReplicas() : current.addingReplicas(),
                change.removingReplicas() != null ? change.removingReplicas() : current.removingReplicas()));
    }

    /** A list field a record may leave null (versions before it, or "none"). */
    private static List<Integer> orNone(List<Integer> replicas) {
        return replicas == null ? List.of() : replicas;
    }

    private static void applyClientQuota(Map<QuotaEntity, Map<String, Double>> quotas, ClientQuotaRecordData record) {
        QuotaEntity entity = QuotaEntity.of(record);
        TreeMap<String, Double> values = new TreeMap<>(quotas.getOrDefault(entity, Map.of()));
        if (record.remove()) {
            values.remove(record.key());
        } else {
            values.put(record.key(), record.value());
        }
        if (values.isEmpty()) {
            quotas.remove(entity);
        } else {
            quotas.put(entity, Collections.unmodifiableMap(values));
        }
    }

    private static void applyConfig(Map<ConfigResource, Map<String, String>> configs, ConfigRecordData record) {
        ConfigResource resource = new ConfigResource(record.resourceType(), record.resourceName());
        TreeMap<String, String> values = new TreeMap<>(configs.getOrDefault(resource, Map.of()));
        if (record.value() == null) {
            values.remove(record.name());
        } else {
            values.put(record.name(), record.value());
        }
        if (values.isEmpty()) {
            configs.remove(resource);
        } else {
            configs.put(resource, Collections.unmodifiableMap(values));
        }
    }
}

package dev.spool.broker;

import dev.spool.broker.api.AclsHandler;
import dev.spool.broker.api.AlterPartitionHandler;
import dev.spool.broker.api.ApiAuthorization;
import dev.spool.broker.api.ApiRegistry;
import dev.spool.broker.api.ApiVersionsHandler;
import dev.spool.broker.api.BrokerLifecycleHandler;
import dev.spool.broker.api.ClientQuotasHandler;
import dev.spool.broker.api.ClusterHandler;
import dev.spool.broker.api.ConfigsHandler;
import dev.spool.broker.api.ControllerForwarding;
import dev.spool.broker.api.DeleteRecordsHandler;
import dev.spool.broker.api.DescribeQuorumHandler;
import dev.spool.broker.api.DescribeTopicPartitionsHandler;
import dev.spool.broker.api.ElectLeadersHandler;
import dev.spool.broker.api.FetchSnapshotHandler;
import dev.spool.broker.api.LogDirsHandler;
import dev.spool.broker.api.MetadataHandler;
import dev.spool.broker.api.RaftVoterHandler;
import dev.spool.broker.api.ReassignmentsHandler;
import dev.spool.broker.api.SaslApis;
import dev.spool.broker.api.ScramCredentialsHandler;
import dev.spool.broker.api.TopicsHandler;
import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.config.ClusterSettings;
import dev.spool.broker.config.ConfigController;
import dev.spool.broker.config.ConfigDescriber;
import dev.spool.broker.fetch.ListOffsetsHandler;
import dev.spool.broker.fetch.MetadataSnapshotPointer;
import dev.spool.broker.fetch.OffsetForLeaderEpochHandler;
import dev.spool.broker.group.FindCoordinatorHandler;
import dev.spool.broker.group.GroupHandler;
import dev.spool.broker.group.OffsetHandler;
import dev.spool.broker.metadata.MetadataManager;
import dev.spool.broker.metadata.MetadataQuorum;
import dev.spool.broker.metadata.TopicController;
import dev.spool.broker.produce.AllocateProducerIdsHandler;
import dev.spool.broker.produce.DescribeProducersHandler;
import dev.spool.broker.produce.ProduceHandler;
import dev.spool.broker.produce.ProducerIdBlocks;
import dev.spool.broker.produce.WriteTxnMarkersHandler;
import dev.spool.broker.quorum.QuorumMembership;
import dev.spool.broker.security.acl.Authorizer;
import dev.spool.broker.txn.InitProducerIdHandler;
import dev.spool.broker.txn.TransactionHandler;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.types.Uuid;
import java.util.List;

/**
 * The broker's fifth layer: every API it answers, each registered with the versions it serves (what
 * ApiVersions advertises), its handler built over the layers below. Handlers hold no resources of their
 * own (the fetch handler's parking belongs to the partition layer), so nothing here is closed. A new
 * API family registers here; with an authorizer, {@link ApiAuthorization} wraps every handler, last. Immutable once
 * built.
 */
final class ApiLayer {

    /** What changes the metadata: decided by the active controller only, forwarded to it from other nodes. */
    private static final List<ApiKey> FORWARDED_TO_CONTROLLER = List.of(ApiKey.CREATE_TOPICS, ApiKey.DELETE_TOPICS,
            ApiKey.CREATE_PARTITIONS, ApiKey.ALTER_CONFIGS, ApiKey.INCREMENTAL_ALTER_CONFIGS, ApiKey.DESCRIBE_QUORUM,
            ApiKey.UNREGISTER_BROKER, ApiKey.ADD_RAFT_VOTER, ApiKey.REMOVE_RAFT_VOTER, ApiKey.ELECT_LEADERS,
            ApiKey.ALTER_PARTITION_REASSIGNMENTS, ApiKey.LIST_PARTITION_REASSIGNMENTS,
            ApiKey.ALTER_USER_SCRAM_CREDENTIALS, ApiKey.CREATE_ACLS, ApiKey.DELETE_ACLS,
            ApiKey.ALTER_CLIENT_QUOTAS);
    /** Of those, what only reads the metadata: answered here while no active controller is known. */
    private static final List<ApiKey> READ_ONLY = List.of(ApiKey.LIST_PARTITION_REASSIGNMENTS);

    final ApiRegistry registry;
    final ApiVersionsHandler apiVersions;

    private ApiLayer(ApiRegistry registry, ApiVersionsHandler apiVersions) {
        this.registry = registry;
        this.apiVersions = apiVersions;
    }

    static ApiLayer build(BrokerConfig config, StorageLayer storage, MetadataLayer metadataLayer,
                          PartitionLayer partitionLayer, CoordinatorLayer coordinators) {
        MetadataManager metadata = metadataLayer.metadata;
        TopicController topics = metadataLayer.topics;
        ApiRegistry registry = new ApiRegistry();
        QuorumMembership membership = metadataLayer.membership;
        // A dynamic quorum is at kraft.version 1 (KIP-853); brokers only follow it, and learn nothing of it here.
        ApiVersionsHandler apiVersions = new ApiVersionsHandler(registry,
                membership != null && membership.isDynamic() ? (short) 1 : (short) 0);
        registry.register(ApiKey.API_VERSIONS, 0, ApiKey.API_VERSIONS.highestVersion, apiVersions);

        ConfigDescriber configDescriber = new ConfigDescriber(metadataLayer.configLayers);
        new TopicsHandler(metadata, topics, configDescriber).registerIn(registry);
        new ConfigsHandler(metadata, configDescriber, new ConfigController(config.nodeId(),
                storage::invalidTopicConfig)).registerIn(registry);
        registry.register(ApiKey.METADATA, 0, ApiKey.METADATA.highestVersion,
                        new MetadataHandler(metadataLayer::cluster, metadata::image, !config.autoCreateTopics() ? null
                                : metadataLayer.topicCreator()::create,
                                partitionLayer.partitions))
                .register(ApiKey.DESCRIBE_CLUSTER, 0, ApiKey.DESCRIBE_CLUSTER.highestVersion,
                        metadataLayer.isCluster() ? new ClusterHandler(metadataLayer::cluster,
                                metadataLayer::controllers, config.cluster()::isControllerListener, storage.scheduler)
                                : new ClusterHandler(metadataLayer::cluster))
                .register(ApiKey.DESCRIBE_QUORUM, 0, ApiKey.DESCRIBE_QUORUM.highestVersion,
                        describeQuorum(config, storage, metadataLayer))
                .register(ApiKey.DESCRIBE_TOPIC_PARTITIONS, 0, 0,
                        new DescribeTopicPartitionsHandler(metadata::image, partitionLayer.partitions))
                .register(ApiKey.DELETE_RECORDS, 0, 2,
                        new DeleteRecordsHandler(partitionLayer.partitions, storage.scheduler, partitionLayer.purgatory,
                                broker -> metadata.image().isUnfenced(broker)));

        registry.register(ApiKey.FETCH, 4, ApiKey.FETCH.highestVersion, partitionLayer.fetchHandler)
                .register(ApiKey.LIST_OFFSETS, 1, ApiKey.LIST_OFFSETS.highestVersion,
                        new ListOffsetsHandler(partitionLayer.hosted))
                .register(ApiKey.OFFSET_FOR_LEADER_EPOCH, 2, ApiKey.OFFSET_FOR_LEADER_EPOCH.highestVersion,
                        new OffsetForLeaderEpochHandler(partitionLayer.hosted));
        registry.registerAdvertisingFrom(ApiKey.PRODUCE, 0, 3, ApiKey.PRODUCE.highestVersion,
                        new ProduceHandler(metadata::image, partitionLayer.partitions, partitionLayer.appenders,
                                coordinators.transactionPartitions,
                                config.get(BrokerConfig.TRANSACTION_PARTITION_VERIFICATION_ENABLE)))
                .register(ApiKey.INIT_PRODUCER_ID, 0, ApiKey.INIT_PRODUCER_ID.highestVersion,
                        new InitProducerIdHandler(coordinators.producerIds, coordinators.transactions))
                .register(ApiKey.DESCRIBE_PRODUCERS, 0, ApiKey.DESCRIBE_PRODUCERS.highestVersion,
                        new DescribeProducersHandler(partitionLayer.partitions, partitionLayer.appenders))
                .register(ApiKey.WRITE_TXN_MARKERS, 1, ApiKey.WRITE_TXN_MARKERS.highestVersion,
                        new WriteTxnMarkersHandler(partitionLayer.partitions, partitionLayer.appenders));

        registry.register(ApiKey.FIND_COORDINATOR, 0, ApiKey.FIND_COORDINATOR.highestVersion,
                new FindCoordinatorHandler(coordinators.groups, coordinators.transactions, metadata::image,
                        metadataLayer::cluster));
        new TransactionHandler(coordinators.transactions, metadata::image, coordinators.groups::partitionFor)
                .registerIn(registry);
        new LogDirsHandler(partitionLayer.partitions, storage.scheduler).registerIn(registry);
        new ElectLeadersHandler(metadata, metadataLayer.configLayers).registerIn(registry);
        new ReassignmentsHandler(metadata, metadataLayer.configLayers).registerIn(registry);
        new GroupHandler(coordinators.groups).registerIn(registry);
        new SaslApis().registerIn(registry);
        new ScramCredentialsHandler(metadata).registerIn(registry);
        Authorizer authorizer = authorizer(config, metadata);
        new AclsHandler(metadata, authorizer).registerIn(registry);
        new ClientQuotasHandler(metadata).registerIn(registry);
        new OffsetHandler(coordinators.groups, metadata::image, coordinators.transactionPartitions)
                .registerIn(registry);
        if (metadataLayer.isCluster()) {
            serveAsClusterNode(config, storage, metadataLayer, registry);
        }
        partitionLayer.quotas.install(registry, metadata::image, () -> config.get(BrokerConfig.NUM_PARTITIONS));
        ApiAuthorization.install(registry, authorizer, metadata::image);
        return new ApiLayer(registry, apiVersions);
    }

    /** Kafka's StandardAuthorizer over the metadata image's ACLs when {@code authorizer.class.name} names it. */
    private static Authorizer authorizer(BrokerConfig config, MetadataManager metadata) {
        if (config.get(BrokerConfig.AUTHORIZER_CLASS_NAME).isBlank()) {
            return Authorizer.DISABLED;
        }
        return Authorizer.standard(metadata::image, config.superUsers(),
                config.get(BrokerConfig.ALLOW_EVERYONE_IF_NO_ACL_FOUND));
    }

    /**
     * A node of a cluster also answers, as the active controller, brokers' registrations and heartbeats, and
     * forwards what changes the metadata to the active controller when it is not that.
     */
    private static void serveAsClusterNode(BrokerConfig config, StorageLayer storage, MetadataLayer metadataLayer,
                                           ApiRegistry registry) {
        // On every node: a broker-only node forwards what it cannot answer (UnregisterBroker) to the controller.
        new BrokerLifecycleHandler(storage.meta.clusterId(), metadataLayer.metadata, metadataLayer.sessions,
                storage.clock::nowMs, metadataLayer.configLayers).registerIn(registry);
        new RaftVoterHandler(storage.meta.clusterId(), metadataLayer.membership,
                config.cluster().controllerListenerNames().isEmpty() ? null
                        : config.cluster().controllerListenerNames().get(0)).registerIn(registry);
        for (ApiKey forwarded : FORWARDED_TO_CONTROLLER) {
            registry.wrap(forwarded, local -> new ControllerForwarding(local, metadataLayer.metadata.quorum(),
                    config.cluster(), metadataLayer.controller, READ_ONLY.contains(forwarded)));
        }
        if (config.cluster().isVoter()) {
            new AlterPartitionHandler(metadataLayer.metadata, metadataLayer.configLayers).registerIn(registry);
            registry.register(ApiKey.ALLOCATE_PRODUCER_IDS, 0, 0,
                    new AllocateProducerIdsHandler(ProducerIdBlocks.local(metadataLayer.metadata)));
            MetadataQuorum quorum = metadataLayer.metadata.quorum();
            registry.register(ApiKey.FETCH_SNAPSHOT, 0, ApiKey.FETCH_SNAPSHOT.highestVersion,
                    new FetchSnapshotHandler(quorum::snapshotDir, storage.scheduler));
            registry.wrap(ApiKey.FETCH, fetch -> new MetadataSnapshotPointer(fetch, quorum::newestSnapshotFile,
                    storage.metadataPartition::logStartOffset));
            metadataLayer.controller.answerLocallyWith(registry);
        }
    }

    private static DescribeQuorumHandler describeQuorum(BrokerConfig config, StorageLayer storage,
                                                        MetadataLayer metadataLayer) {
        MetadataManager metadata = metadataLayer.metadata;
        ClusterSettings cluster = config.cluster();
        if (!cluster.isVoter()) {
            return new DescribeQuorumHandler(config.nodeId(), directoryId(storage), metadata::image,
                    metadataLayer::cluster, storage.clock::nowMs);
        }
        return new DescribeQuorumHandler(config.nodeId(), directoryId(storage), metadata::image,
                metadataLayer::cluster, storage.clock::nowMs, metadataLayer::controllerId, metadata.quorum()::epoch,
                metadata.quorum()::voterProgress, metadataLayer.membership::currentVoters,
                cluster.controllerListenerNames().get(0));
    }

    /** The metadata log dir's {@code directory.id}, or the zero id if meta.properties has none. */
    private static Uuid directoryId(StorageLayer storage) {
        String id = storage.meta.directoryId();
        return id == null ? Uuid.ZERO_UUID : Uuid.fromString(id);
    }
}

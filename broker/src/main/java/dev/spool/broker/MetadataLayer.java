package dev.spool.broker;

import dev.spool.broker.client.ChannelSecurity;
import dev.spool.broker.client.ClientEventLoops;
import dev.spool.broker.client.ClientSettings;
import dev.spool.broker.client.NodeAddress;
import dev.spool.broker.client.NodeClients;
import dev.spool.broker.cluster.BrokerFencer;
import dev.spool.broker.cluster.BrokerLifecycle;
import dev.spool.broker.cluster.BrokerSessions;
import dev.spool.broker.cluster.ClusterView;
import dev.spool.broker.cluster.ControllerChannel;
import dev.spool.broker.cluster.FetchingMetadataQuorum;
import dev.spool.broker.cluster.PeriodicElections;
import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.config.BrokerConfigLayers;
import dev.spool.broker.config.ClusterSettings;
import dev.spool.broker.config.Endpoint;
import dev.spool.broker.config.ListenerSecurity;
import dev.spool.broker.config.NodeListenerSecurity;
import dev.spool.broker.config.PrincipalMappingRules;
import dev.spool.broker.network.TlsContexts;
import dev.spool.broker.metadata.BrokerRegistration;
import dev.spool.broker.metadata.BrokerRegistrations;
import dev.spool.broker.metadata.MetadataLog;
import dev.spool.broker.metadata.LocalMetadataQuorum;
import dev.spool.broker.metadata.MetadataManager;
import dev.spool.broker.metadata.MetadataQuorum;
import dev.spool.broker.metadata.PartitionImage;
import dev.spool.broker.fetch.MetadataPartitionLookup;
import dev.spool.broker.partition.Partition;
import dev.spool.log.TopicPartition;
import dev.spool.broker.metadata.TopicController;
import dev.spool.broker.metadata.TopicCreator;
import dev.spool.broker.produce.ProducerIdBlocks;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.AllocateProducerIdsRequestData;
import dev.spool.protocol.message.AllocateProducerIdsResponseData;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.CreateTopicsRequestData;
import dev.spool.protocol.message.CreateTopicsResponseData;
import dev.spool.broker.metadata.TopicDefaults;
import dev.spool.broker.metadata.TopicEventLog;
import dev.spool.broker.config.ConfigException;
import dev.spool.broker.quorum.QuorumBootstrap;
import dev.spool.broker.quorum.QuorumMembership;
import dev.spool.broker.quorum.QuorumVoter;
import dev.spool.broker.quorum.VoterSet;
import java.nio.file.Path;
import dev.spool.broker.quorum.RaftMetadataQuorum;
import dev.spool.protocol.types.Uuid;
import java.io.IOException;
import java.security.GeneralSecurityException;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;

/**
 * The broker's second layer: the cluster metadata (loaded from the metadata log before anything reads
 * it), the config layers every topic's settings resolve through, the topic controller that decides
 * creations and deletions, and the cluster view derived from the image's broker registrations. On one node the
 * metadata is a local log; in a cluster the Raft quorum replicates it, and this layer also holds the way to the
 * active controller and the controller's watch over the brokers' sessions. Immutable once loaded.
 */
final class MetadataLayer implements AutoCloseable {

    /** How often the active controller looks for brokers whose sessions expired. */
    private static final long SESSION_CHECK_INTERVAL_MS = 500;
    /** The CreateTopics version a node sends the active controller: the newest Spool serves. */
    private static final short CREATE_TOPICS_VERSION = 7;
    private static final int CREATE_TOPICS_TIMEOUT_MS = 30_000;
    /**
     * How long a broker of a cluster tries to register: the quorum may still be electing its first leader, and
     * the active controller's listener opens only once its own logs are recovered.
     */
    private static final long REGISTRATION_TIMEOUT_MS = 300_000;

    final MetadataManager metadata;
    final BrokerConfigLayers configLayers;
    final TopicController topics;
    /** Only in a cluster: how this node reaches the active controller, and the controller's broker sessions. */
    final ControllerChannel controller;
    final BrokerSessions sessions;
    /** Only on a voter: the quorum's voters, and (a dynamic quorum's) how they change. */
    final QuorumMembership membership;
    /** Only in a cluster: this node's clients of the controllers' listener. */
    final NodeClients controllerClients;
    /** Only on a broker of a cluster: its clients of the other brokers' inter-broker listener (leaders it follows). */
    final NodeClients brokerClients;
    private final MetadataLog metadataLog;
    private final BrokerConfig config;
    private final String clusterId;
    private final ScheduledExecutorService scheduler;
    private final Closer closer;

    private MetadataLayer(MetadataManager metadata, BrokerConfigLayers configLayers, TopicController topics,
                          ControllerChannel controller, BrokerSessions sessions, QuorumMembership membership,
                          NodeClients controllerClients, NodeClients brokerClients, MetadataLog metadataLog,
                          BrokerConfig config, String clusterId, ScheduledExecutorService scheduler, Closer closer) {
        this.membership = membership;
        this.controllerClients = controllerClients;
        this.brokerClients = brokerClients;
        this.metadataLog = metadataLog;
        this.metadata = metadata;
        this.configLayers = configLayers;
        this.topics = topics;
        this.controller = controller;
        this.sessions = sessions;
        this.config = config;
        this.clusterId = clusterId;
        this.scheduler = scheduler;
        this.closer = closer;
    }

    /** {@code onFatal} hears when this node can no longer take part in the cluster (its Raft server closed). */
    static MetadataLayer load(BrokerConfig config, StorageLayer storage, FatalErrorHandler onFatal) throws IOException {
        ClusterSettings cluster = config.cluster();
        Closer closer = new Closer();
        try {
            MetadataLog log = new MetadataLog(storage.metadataPartition);
            NodeClients clients = null;
            NodeClients brokerClients = null;
            if (cluster.isCluster()) {
                // Registered before the metadata, so closed after it: a broker-only node fetches with them.
                ClientEventLoops loops = closer.register(ClientEventLoops.ownThreads(1, "spool-node-client"));
                ClientSettings settings = ClientSettings.of("spool-node-" + config.nodeId());
                clients = closer.register(new NodeClients(settings, config.controllerSecurity().listenerName(),
                        channelSecurity(config.controllerSecurity()), loops));
                if (cluster.isBroker()) {
                    brokerClients = closer.register(new NodeClients(settings, config.interBrokerListenerName(),
                            channelSecurity(config.interBrokerSecurity()), loops));
                }
            }
            MetadataQuorum quorum = quorumOf(config, storage, log, clients, onFatal);
            MetadataManager metadata = closer.register(new MetadataManager(config.nodeId(), quorum, storage.clock,
                    config.metadataSnapshotIntervalRecords()));
            metadata.load();
            metadata.addListener(new TopicEventLog());
            TopicController topics = new TopicController(new TopicDefaults(config.numPartitions(),
                    config.defaultReplicationFactor(), config.logConfigDefaults()), storage::invalidTopicConfig);
            BrokerSessions sessions = new BrokerSessions(cluster.sessionTimeoutMs());
            QuorumMembership membership = quorum instanceof QuorumMembership voters ? voters : null;
            ControllerChannel controller = null;
            if (cluster.isCluster()) {
                controller = new ControllerChannel(config.nodeId(), cluster, quorum, clients,
                        controllerAddresses(quorum, membership));
            }
            // Heartbeats and the fencer on a thread of their own: behind retention or a flush on the storage's
            // scheduler, a heartbeat could miss its session.
            BrokerConfigLayers configLayers = new BrokerConfigLayers(config);
            ScheduledExecutorService lifecycle = null;
            if (cluster.isCluster()) {
                lifecycle = Executors.newSingleThreadScheduledExecutor(runnable -> {
                    Thread thread = new Thread(runnable, "spool-broker-lifecycle");
                    thread.setDaemon(true);
                    return thread;
                });
                closer.register(lifecycle::shutdownNow);
            }
            if (cluster.isVoter()) {
                closer.register(new BrokerFencer(metadata, sessions, storage.clock::nowMs, lifecycle,
                        SESSION_CHECK_INTERVAL_MS, configLayers));
                if (config.get(BrokerConfig.AUTO_LEADER_REBALANCE_ENABLE)) {
                    closer.register(PeriodicElections.preferred(metadata, lifecycle,
                            TimeUnit.SECONDS.toMillis(config.get(BrokerConfig.LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS)),
                            configLayers));
                }
                closer.register(PeriodicElections.unclean(metadata, lifecycle,
                        config.get(BrokerConfig.UNCLEAN_LEADER_ELECTION_INTERVAL_MS), configLayers));
            }
            return new MetadataLayer(metadata, configLayers, topics, controller, sessions, membership,
                    clients, brokerClients, log, config, storage.meta.clusterId(), lifecycle, closer);
        } catch (IOException | RuntimeException | Error e) {
            closer.close();
            throw e;
        }
    }

    /** The client side of a listener's security: its TLS context for clients, and its SASL login. */
    private static ChannelSecurity channelSecurity(NodeListenerSecurity security) {
        if (security.isPlaintext()) {
            return ChannelSecurity.PLAINTEXT;
        }
        return new ChannelSecurity(security.tls() == null ? null
                : TlsContexts.client(security.tls(), security.verifyHostname()), security.sasl());
    }

    /**
     * The Raft port speaks mutual TLS when the controller listener speaks TLS (BrokerConfig checked it can); with
     * ACLs on, only super users' certificates are peers.
     */
    private static void useTlsIfSecured(RaftMetadataQuorum raft, BrokerConfig config) {
        NodeListenerSecurity controller = config.controllerSecurity();
        if (controller.tls() == null) {
            return;
        }
        try {
            X509ExtendedTrustManager trust = null;
            for (TrustManager manager : TlsContexts.trustManagers(controller.tls()).getTrustManagers()) {
                if (manager instanceof X509ExtendedTrustManager x509) {
                    trust = x509;
                }
            }
            if (trust == null) {
                throw new GeneralSecurityException("the trust store gives no X.509 trust manager");
            }
            raft.useMutualTls(TlsContexts.keyManagers(controller.tls()).getKeyManagers()[0], trust,
                    PrincipalMappingRules.parse(controller.tls().principalMappingRules()),
                    config.get(BrokerConfig.AUTHORIZER_CLASS_NAME).isBlank() ? null : config.superUsers());
        } catch (GeneralSecurityException | IOException e) {
            throw new ConfigException("Cannot set up TLS on the quorum's Raft port with the key store and trust store "
                    + "of controller listener " + controller.listenerName() + ": " + e.getMessage());
        }
    }

    /**
     * The local log on one node; a Raft voter on a cluster's combined node (Ratis' classes load only then, so one
     * node keeps its start-up and memory); a follower fetching from the controllers on a broker-only node.
     */
    private static MetadataQuorum quorumOf(BrokerConfig config, StorageLayer storage, MetadataLog log,
                                           NodeClients clients, FatalErrorHandler onFatal) throws IOException {
        ClusterSettings cluster = config.cluster();
        if (cluster.isVoter()) {
            requireRatis();
            VoterSet members = cluster.dynamicQuorum() ? dynamicMembers(config, storage)
                    : VoterSet.ofStatic(config.nodeId(), cluster.voters(), cluster.raftPortOffset());
            RaftMetadataQuorum raft = new RaftMetadataQuorum(members, storage.meta.clusterId(), log.dir(), log,
                    config.metadataSnapshotIntervalRecords());
            useTlsIfSecured(raft, config);
            raft.onShutdown(() -> onFatal.stopOnOwnThread("this node's Raft server shut down: it was removed from the "
                    + "metadata quorum's voters, or Ratis closed it (see its log above)"));
            return raft;
        }
        if (cluster.isCluster()) {
            List<NodeAddress> bootstrap = new ArrayList<>();
            for (QuorumVoter controller : cluster.controllerBootstrap()) {
                bootstrap.add(new NodeAddress(controller.host(), controller.port()));
            }
            return new FetchingMetadataQuorum(config.nodeId(), bootstrap, log, clients,
                    () -> onFatal.stopOnOwnThread("this broker cannot apply the metadata it fetched"));
        }
        return new LocalMetadataQuorum(log);
    }

    /**
     * This controller of a dynamic quorum, at its controller listener with its metadata dir's id, and the voters
     * {@code bin/spool format} named (read on the first start only; afterwards the Raft log holds them).
     */
    private static VoterSet dynamicMembers(BrokerConfig config, StorageLayer storage) throws IOException {
        Path logDir = config.logDirs().get(0);
        if (!QuorumBootstrap.existsIn(logDir)) {
            throw new ConfigException("This controller of a dynamic quorum (" + BrokerConfig
                    .CONTROLLER_QUORUM_BOOTSTRAP_SERVERS.name() + " without " + BrokerConfig.CONTROLLER_QUORUM_VOTERS
                    .name() + ") is not formatted: run bin/spool format with --standalone (the first controller), "
                    + "--initial-controllers, or --no-initial-controllers (a controller to be added later)");
        }
        Endpoint listener = config.cluster().controllerEndpoint();
        QuorumVoter self = new QuorumVoter(config.nodeId(), listener.host(), listener.port(),
                Uuid.fromString(storage.meta.directoryId()));
        return new VoterSet(self, QuorumBootstrap.readFrom(logDir).initialVoters(), true,
                config.cluster().raftPortOffset());
    }

    /**
     * Apache Ratis must be on the class path of a voter: bin/spool puts it there for a server whose settings name
     * several voters (or with SPOOL_RAFT=on), and leaves it off a single node, which it would cost memory.
     */
    private static void requireRatis() throws IOException {
        try {
            Class.forName("org.apache.ratis.server.RaftServer", false, MetadataLayer.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IOException("This node is a voter of a cluster but Apache Ratis is not on the class path: "
                    + "start it with bin/spool server and controller.quorum.voters in --config or --override, or "
                    + "set SPOOL_RAFT=on", e);
        }
    }


    /** Where each controller is reached: a voter knows the voters, a broker-only node asks the controllers. */
    private static IntFunction<NodeAddress> controllerAddresses(MetadataQuorum quorum, QuorumMembership membership) {
        if (quorum instanceof FetchingMetadataQuorum fetching) {
            return fetching::controllerAddress;
        }
        return controllerId -> {
            for (QuorumVoter voter : membership.currentVoters()) {
                if (voter.nodeId() == controllerId) {
                    return new NodeAddress(voter.host(), voter.port());
                }
            }
            return null;
        };
    }

    /**
     * The {@code __cluster_metadata} partition a voter serves brokers' fetches from, woken at every commit; null
     * elsewhere (one node has no one to serve, a broker-only node fetches itself).
     */
    Partition servedMetadataPartition() {
        if (!config.cluster().isVoter()) {
            return null;
        }
        List<Integer> voters = membership.currentVoters().stream().map(QuorumVoter::nodeId).toList();
        Partition served = new Partition(new TopicPartition(MetadataLog.TOPIC, 0),
                MetadataPartitionLookup.METADATA_TOPIC_ID, metadataLog.partitionLog(),
                new PartitionImage(0, voters, voters, config.nodeId(), 0, 0));
        metadata.addListener((previous, current) -> served.notifyAppended());
        return served;
    }

    /** Whether this node is one of a cluster's, its metadata replicated by the Raft quorum. */
    boolean isCluster() {
        return controller != null;
    }

    /** The id of the active controller as this node knows it: itself on one node, -1 during an election. */
    int controllerId() {
        return metadata.quorum().isActiveController() ? config.nodeId() : metadata.quorum().activeControllerId();
    }

    /**
     * The cluster as the image shows it now; this broker is in it once it has {@link #register}ed. Clients send
     * admin requests to the controller it names, so that must be a broker they can reach: while the active
     * controller is a controller-only node, this broker is named, and forwards them (Kafka's brokers name a live
     * broker likewise). So is it while no active controller is known (an election, or a quorum that lost its
     * majority): a client given no controller waits for one and fails the calls it could have had answered here,
     * such as ListPartitionReassignments, which {@code kafka-topics --describe} sends; Kafka's brokers, which never
     * name none, answer {@code --describe} then.
     */
    ClusterView cluster() {
        int controllerId = controllerId();
        ClusterView view = ClusterView.of(clusterId, controllerId, metadata.image());
        if (config.cluster().isBroker() && (controllerId < 0 || view.broker(controllerId) == null)) {
            return new ClusterView(clusterId, config.nodeId(), view.brokers());
        }
        return view;
    }

    /** The controllers (the quorum's voters) at their controller listeners, as --bootstrap-controller tools see them. */
    ClusterView controllers() {
        List<ClusterView.BrokerNode> voters = new ArrayList<>();
        String listener = config.cluster().controllerListenerNames().get(0);
        for (QuorumVoter voter : membership != null ? membership.currentVoters() : config.cluster().voters()) {
            voters.add(new ClusterView.BrokerNode(voter.nodeId(), new Endpoint(listener, voter.host(), voter.port()),
                    null));
        }
        return new ClusterView(clusterId, controllerId(), List.copyOf(voters));
    }

    /**
     * Registers this broker (a RegisterBrokerRecord with a new incarnation and its advertised listeners, the
     * controller listeners left out: clients never reach them) and returns its broker epoch; clients learn of the
     * broker from the image from then on. In a cluster, the active controller registers it (fenced until its
     * heartbeats show it caught up), and the returned lifecycle keeps sending them until closed.
     * {@code previousBrokerEpoch}: see {@link BrokerLifecycle#register}.
     */
    Registration register(List<Endpoint> advertised, long previousBrokerEpoch)
            throws IOException, InterruptedException {
        List<BrokerRegistration.Listener> listeners = new ArrayList<>(advertised.size());
        for (Endpoint endpoint : advertised) {
            if (!config.cluster().isControllerListener(endpoint.listenerName())) {
                listeners.add(listenerOf(endpoint));
            }
        }
        if (listeners.isEmpty()) {
            for (Endpoint endpoint : advertised) { // a node with controller listeners only: reachable there
                listeners.add(listenerOf(endpoint));
            }
        }
        if (isCluster()) {
            BrokerLifecycle lifecycle = new BrokerLifecycle(config.nodeId(), clusterId, controller, metadata::image);
            long brokerEpoch = lifecycle.register(listeners, config.rack(), previousBrokerEpoch,
                    REGISTRATION_TIMEOUT_MS);
            lifecycle.startHeartbeats(scheduler, config.cluster().heartbeatIntervalMs());
            try {
                lifecycle.awaitUnfenced(REGISTRATION_TIMEOUT_MS);
            } catch (IOException | InterruptedException e) {
                lifecycle.close();
                throw e;
            }
            return new Registration(brokerEpoch, lifecycle);
        }
        try {
            return new Registration(metadata.submit(image -> BrokerRegistrations.register(image, config.nodeId(),
                    Uuid.randomUuid(), listeners, config.rack(), false)).get(30, TimeUnit.SECONDS), () -> { });
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("Cannot register broker " + config.nodeId() + " in the metadata", e);
        }
    }

    private BrokerRegistration.Listener listenerOf(Endpoint endpoint) {
        return new BrokerRegistration.Listener(endpoint.listenerName(), endpoint.host(), endpoint.port(),
                ListenerSecurity.protocolId(config.securityProtocolOf(endpoint)));
    }

    /** Creates topics for the broker itself (auto-creation, internal topics), at the active controller. */
    TopicCreator topicCreator() {
        if (!isCluster()) {
            return TopicCreator.local(metadata, topics);
        }
        return newTopics -> controller.send(ApiKey.CREATE_TOPICS, CREATE_TOPICS_VERSION, new CreateTopicsRequestData()
                        .setTopics(newTopics).setTimeoutMs(CREATE_TOPICS_TIMEOUT_MS))
                .thenApply(response -> ((CreateTopicsResponseData) response).topics());
    }

    /** Reserves blocks of producer ids at the active controller (AllocateProducerIds from another node). */
    ProducerIdBlocks producerIdBlocks() {
        if (!isCluster()) {
            return ProducerIdBlocks.local(metadata);
        }
        return (brokerId, brokerEpoch) -> controller.send(ApiKey.ALLOCATE_PRODUCER_IDS, (short) 0,
                        new AllocateProducerIdsRequestData().setBrokerId(brokerId).setBrokerEpoch(brokerEpoch))
                .thenApply(answer -> {
                    AllocateProducerIdsResponseData response = (AllocateProducerIdsResponseData) answer;
                    if (response.errorCode() != Errors.NONE.code()) {
                        throw new IllegalStateException("The active controller answered AllocateProducerIds with "
                                + Errors.nameOf(response.errorCode()));
                    }
                    return response.producerIdStart();
                });
    }

    /** A registered broker: its epoch, and what to close when it goes (the heartbeats of a cluster's broker). */
    record Registration(long brokerEpoch, AutoCloseable lifecycle) {
    }

    @Override
    public void close() {
        closer.close();
    }
}

package dev.spool.broker;

import dev.spool.broker.api.ApiRegistry;
import dev.spool.broker.api.ApiVersionsHandler;
import dev.spool.broker.api.ClusterHandler;
import dev.spool.broker.api.ConfigsHandler;
import dev.spool.broker.api.DeleteRecordsHandler;
import dev.spool.broker.api.DescribeTopicPartitionsHandler;
import dev.spool.broker.api.LogDirsHandler;
import dev.spool.broker.api.MetadataHandler;
import dev.spool.broker.api.TopicsHandler;
import dev.spool.broker.cluster.ClusterView;
import dev.spool.broker.cluster.MetaProperties;
import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.config.BrokerConfigLayers;
import dev.spool.broker.config.ConfigController;
import dev.spool.broker.config.ConfigDescriber;
import dev.spool.broker.config.ConfigException;
import dev.spool.broker.config.Endpoint;
import dev.spool.broker.config.ListenerSecurity;
import dev.spool.broker.fetch.FetchHandler;
import dev.spool.broker.fetch.FetchSessionCache;
import dev.spool.broker.fetch.HostedPartitionLookup;
import dev.spool.broker.fetch.ListOffsetsHandler;
import dev.spool.broker.fetch.OffsetForLeaderEpochHandler;
import dev.spool.broker.group.FindCoordinatorHandler;
import dev.spool.broker.group.GroupCoordinator;
import dev.spool.broker.group.GroupHandler;
import dev.spool.broker.group.GroupSettings;
import dev.spool.broker.group.OffsetHandler;
import dev.spool.broker.metadata.BrokerRegistration;
import dev.spool.broker.metadata.BrokerRegistrations;
import dev.spool.broker.metadata.MetadataLog;
import dev.spool.broker.metadata.MetadataManager;
import dev.spool.broker.metadata.TopicController;
import dev.spool.broker.metadata.TopicDefaults;
import dev.spool.broker.metadata.TopicEventLog;
import dev.spool.broker.metrics.BrokerMetrics;
import dev.spool.broker.network.NetworkLimits;
import dev.spool.broker.network.NetworkServer;
import dev.spool.broker.network.NetworkTransport;
import dev.spool.broker.partition.PartitionManager;
import dev.spool.broker.produce.DescribeProducersHandler;
import dev.spool.broker.produce.InitProducerIdHandler;
import dev.spool.broker.produce.PartitionAppenders;
import dev.spool.broker.produce.ProduceHandler;
import dev.spool.broker.produce.ProducerIdManager;
import dev.spool.log.DirectoryLock;
import dev.spool.log.LogClock;
import dev.spool.log.LogConfig;
import dev.spool.log.LogManager;
import dev.spool.log.PartitionLog;
import dev.spool.log.TopicPartition;
import dev.spool.log.cleaner.CleanerConfig;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.types.Uuid;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running broker: its identity, metadata, partitions, API handlers and listeners. Built by
 * {@link #start}, stopped by {@link #close}. Thread-safe.
 */
public final class Broker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Broker.class);

    private final List<AutoCloseable> resources;
    private final List<Endpoint> boundEndpoints;
    private final ClusterView cluster;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Broker(List<AutoCloseable> resources, List<Endpoint> boundEndpoints, ClusterView cluster) {
        this.resources = resources;
        this.boundEndpoints = boundEndpoints;
        this.cluster = cluster;
    }

    /** Starts a broker that closes itself if every log dir fails (or the metadata log's). */
    public static Broker start(BrokerConfig config) throws IOException, InterruptedException {
        return start(config, null);
    }

    /**
     * Starts a broker; {@code fatalErrorHandler} is told when it cannot go on (null: the broker closes
     * itself).
     */
    public static Broker start(BrokerConfig config, FatalErrorHandler fatalErrorHandler)
            throws IOException, InterruptedException {
        AtomicReference<Broker> started = new AtomicReference<>();
        FatalErrorHandler onFatal = fatalErrorHandler != null ? fatalErrorHandler : reason -> {
            Broker broker = started.get();
            if (broker != null) {
                broker.close();
            }
        };
        Broker broker = startWith(config, onFatal);
        started.set(broker);
        return broker;
    }

    private static Broker startWith(BrokerConfig config, FatalErrorHandler onFatal)
            throws IOException, InterruptedException {
        long startNanos = System.nanoTime();
        Map<String, String> logDefaults = config.logConfigDefaults();
        LogConfig brokerLogConfig = parseLogDefaults(logDefaults);
        // Locked before anything in them is read or written; released last, after the logs are closed.
        List<DirectoryLock> locks = lockDataDirectories(config.logDirs());
        Path logDir = config.logDirs().get(0);
        MetaProperties meta;
        try {
            meta = MetaProperties.loadOrCreate(logDir, config.nodeId());
        } catch (IOException | RuntimeException e) {
            closeAll(new ArrayList<>(locks));
            throw e;
        }
        LogClock clock = LogClock.SYSTEM;
        List<AutoCloseable> resources = new ArrayList<>();
        ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(1, runnable -> {
            Thread thread = new Thread(runnable, "spool-scheduler");
            thread.setDaemon(true);
            return thread;
        });
        resources.add(scheduler::shutdownNow);
        CompletableFuture<NetworkTransport> transport = NetworkTransport.startInBackground(config.numNetworkThreads());
        // Waits for a transport still starting (~40 ms at most) so that a failed start leaves no event loop running.
        AutoCloseable closeTransport = () -> transport.join().close();
        resources.add(closeTransport);
        resources.addAll(locks);
        try {
            // Every log, the metadata log included, is opened and recovered here; a topic's config is the
            // defaults until the metadata image is loaded and the partition manager applies its overrides.
            LogManager logs = LogManager.open(config.logDirs(), topic -> brokerLogConfig, clock, scheduler,
                    new LogManager.Intervals(config.logRetentionCheckIntervalMs(),
                            LogManager.Intervals.DEFAULTS.flushCheckIntervalMs(),
                            LogManager.Intervals.DEFAULTS.checkpointIntervalMs()),
                    new CleanerConfig(config.get(BrokerConfig.LOG_CLEANER_ENABLE),
                            config.get(BrokerConfig.LOG_CLEANER_THREADS),
                            config.get(BrokerConfig.LOG_CLEANER_DEDUPE_BUFFER_SIZE),
                            config.get(BrokerConfig.LOG_CLEANER_BACKOFF_MS)),
                    config.get(BrokerConfig.NUM_RECOVERY_THREADS_PER_DATA_DIR),
                    new LogManager.ProducerIdExpiration(config.producerIdExpirationMs(),
                            config.producerIdExpirationCheckIntervalMs()));
            resources.add(0, logs);
            PartitionLog metadataPartition = logs.getOrCreate(new TopicPartition(MetadataLog.TOPIC, 0));
            logs.addFailureListener((failedDir, cause, onlineDirs) -> {
                // Kafka stops when no log dir is left, and (KRaft, KIP-858) when the metadata log's dir fails.
                String reason = onlineDirs.isEmpty() ? "every log dir of " + config.logDirs() + " has failed"
                        : metadataPartition.isOffline() ? "log dir " + failedDir + ", which holds the metadata log, failed"
                        : null;
                if (reason != null) {
                    LOG.error("Shutting the broker down: {}", reason);
                    Thread thread = new Thread(() -> onFatal.onFatalError(reason), "spool-fatal-shutdown");
                    thread.start();
                }
            });
            MetadataManager metadata = new MetadataManager(new MetadataLog(metadataPartition), clock,
                    config.metadataSnapshotIntervalRecords());
            resources.add(0, metadata);
            metadata.load();
            BrokerConfigLayers configLayers = new BrokerConfigLayers(config);
            PartitionManager partitions = new PartitionManager(config.nodeId(), logs, configLayers::topicLogDefaults);
            resources.add(0, partitions);
            metadata.addListener(partitions);

            TopicController topics = new TopicController(
                    new TopicDefaults(config.numPartitions(), config.defaultReplicationFactor(), logDefaults),
                    overrides -> invalidTopicConfig(brokerLogConfig, overrides));
            // Derived from the image's broker registrations: this broker is in it once it has registered below.
            Supplier<ClusterView> cluster = () -> ClusterView.of(meta.clusterId(), config.nodeId(), metadata.image());
            ApiRegistry registry = new ApiRegistry();
            ApiVersionsHandler apiVersions = new ApiVersionsHandler(registry);
            ConfigDescriber configDescriber = new ConfigDescriber(configLayers);
            TopicsHandler topicsHandler = new TopicsHandler(metadata, topics, configDescriber);
            ConfigsHandler configsHandler = new ConfigsHandler(metadata, configDescriber,
                    new ConfigController(config.nodeId(), overrides -> invalidTopicConfig(brokerLogConfig, overrides)));
            configsHandler.registerIn(registry);
            topicsHandler.registerIn(registry);
            registry.register(ApiKey.DESCRIBE_LOG_DIRS, 1, 5, new LogDirsHandler(partitions, scheduler))
                    .register(ApiKey.DELETE_RECORDS, 0, 2, new DeleteRecordsHandler(partitions, scheduler));
            registry.register(ApiKey.API_VERSIONS, 0, ApiKey.API_VERSIONS.highestVersion, apiVersions)
                    .register(ApiKey.METADATA, 0, ApiKey.METADATA.highestVersion,
                            new MetadataHandler(cluster, metadata::image, !config.autoCreateTopics() ? null
                                    : newTopics -> metadata.submit(image -> topics.createTopics(image, newTopics, false)),
                            partitions))
                    .register(ApiKey.DESCRIBE_CLUSTER, 0, ApiKey.DESCRIBE_CLUSTER.highestVersion,
                            new ClusterHandler(cluster))
                    .register(ApiKey.DESCRIBE_TOPIC_PARTITIONS, 0, 0, new DescribeTopicPartitionsHandler(metadata::image, partitions));
            HostedPartitionLookup hostedPartitions = new HostedPartitionLookup(partitions, metadata::image);
            FetchHandler fetchHandler = new FetchHandler(hostedPartitions, new FetchSessionCache(
                    config.maxIncrementalFetchSessionCacheSlots(), FetchSessionCache.DEFAULT_EVICTION_MS), clock::nowMs);
            resources.add(0, fetchHandler);
            registry.register(ApiKey.FETCH, 4, ApiKey.FETCH.highestVersion, fetchHandler)
                    .register(ApiKey.LIST_OFFSETS, 1, ApiKey.LIST_OFFSETS.highestVersion,
                            new ListOffsetsHandler(hostedPartitions))
                    .register(ApiKey.OFFSET_FOR_LEADER_EPOCH, 2, ApiKey.OFFSET_FOR_LEADER_EPOCH.highestVersion,
                            new OffsetForLeaderEpochHandler(hostedPartitions));
            PartitionAppenders appenders = new PartitionAppenders(partitions, config.numIoThreads(), clock);
            resources.add(0, appenders);
            appenders.scheduleRemovalOfUnhosted(scheduler, config.producerIdExpirationCheckIntervalMs());
            registry.registerAdvertisingFrom(ApiKey.PRODUCE, 0, 3, ApiKey.PRODUCE.highestVersion,
                            new ProduceHandler(metadata::image, partitions, appenders))
                    .register(ApiKey.INIT_PRODUCER_ID, 0, ApiKey.INIT_PRODUCER_ID.highestVersion,
                            new InitProducerIdHandler(new ProducerIdManager(metadata, config.nodeId())))
                    .register(ApiKey.DESCRIBE_PRODUCERS, 0, ApiKey.DESCRIBE_PRODUCERS.highestVersion,
                            new DescribeProducersHandler(partitions, appenders));

            GroupCoordinator groupCoordinator = new GroupCoordinator(GroupSettings.from(config), metadata, topics,
                    partitions, clock);
            resources.add(0, groupCoordinator);
            metadata.addListener(groupCoordinator);
            registry.register(ApiKey.FIND_COORDINATOR, 0, ApiKey.FIND_COORDINATOR.highestVersion,
                    new FindCoordinatorHandler(groupCoordinator, metadata::image, cluster));
            new GroupHandler(groupCoordinator).registerIn(registry);
            new OffsetHandler(groupCoordinator, metadata::image).registerIn(registry);

            BrokerMetrics metrics = new BrokerMetrics(metadata::image, partitions, groupCoordinator,
                    logs.cleaner().stats());
            resources.add(0, metrics);
            metadata.addListener(metrics);
            metadata.addListener(new TopicEventLog());
            if (config.metricsListener() != null) {
                metrics.serve(config.metricsListener());
            }
            NetworkServer network = new NetworkServer(registry, apiVersions, config.socketRequestMaxBytes(),
                    transport.join(), metrics.requests(), NetworkLimits.of(config));
            resources.remove(closeTransport); // the server owns the transport now
            resources.add(0, network);
            List<Endpoint> bound = new ArrayList<>();
            for (Endpoint listener : config.listeners()) {
                bound.add(network.bind(listener, config.securityProtocolOf(listener)));
            }
            List<Endpoint> advertised = advertisedEndpoints(config, bound);
            long brokerEpoch = register(metadata, config, advertised);
            LOG.info("Spool broker {} of cluster {} started in {} ms, listening on {}, advertising {} (broker epoch {})",
                    config.nodeId(), meta.clusterId(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos),
                    bound, advertised.get(0), brokerEpoch);
            return new Broker(resources, List.copyOf(bound), cluster.get());
        } catch (IOException | RuntimeException | InterruptedException | Error e) {
            closeAll(resources);
            throw e;
        }
    }

    /** Every log dir locked (the metadata log lives in the first), or none: a refused lock releases the others. */
    private static List<DirectoryLock> lockDataDirectories(List<Path> logDirs) throws IOException {
        List<DirectoryLock> locks = new ArrayList<>();
        try {
            for (Path dir : logDirs) {
                locks.add(DirectoryLock.acquire(dir));
            }
        } catch (IOException e) {
            closeAll(new ArrayList<>(locks));
            throw e;
        }
        return locks;
    }

    private static LogConfig parseLogDefaults(Map<String, String> logDefaults) {
        try {
            return LogConfig.fromProperties(logDefaults);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("invalid log default: " + e.getMessage());
        }
    }

    /** Why a topic's config overrides are invalid, or null when they are valid. */
    private static String invalidTopicConfig(LogConfig brokerDefaults, Map<String, String> overrides) {
        try {
            brokerDefaults.with(overrides);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /** The endpoint clients are sent to: the first advertised listener, else the first bound one. */
    /** advertised.listeners, or else the bound listeners (0.0.0.0 is where we listen, never where a client connects). */
    private static List<Endpoint> advertisedEndpoints(BrokerConfig config, List<Endpoint> bound) {
        List<Endpoint> advertised = config.advertisedListeners();
        if (!advertised.isEmpty()) {
            return advertised;
        }
        List<Endpoint> reachable = new ArrayList<>(bound.size());
        for (Endpoint endpoint : bound) {
            reachable.add(endpoint.host().isEmpty() || endpoint.host().equals("0.0.0.0")
                    ? endpoint.withHostOfThisMachine() : endpoint);
        }
        return reachable;
    }

    /**
     * Registers this broker (a RegisterBrokerRecord with a new incarnation and its advertised listeners) and
     * returns its broker epoch; clients learn of the broker from the image from then on.
     */
    private static long register(MetadataManager metadata, BrokerConfig config, List<Endpoint> advertised)
            throws IOException, InterruptedException {
        List<BrokerRegistration.Listener> listeners = new ArrayList<>(advertised.size());
        for (Endpoint endpoint : advertised) {
            listeners.add(new BrokerRegistration.Listener(endpoint.listenerName(), endpoint.host(), endpoint.port(),
                    ListenerSecurity.protocolId(config.securityProtocolOf(endpoint))));
        }
        try {
            return metadata.submit(image -> BrokerRegistrations.register(image, config.nodeId(), Uuid.randomUuid(),
                    listeners)).get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("Cannot register broker " + config.nodeId() + " in the metadata", e);
        }
    }

    public List<Endpoint> boundEndpoints() {
        return boundEndpoints;
    }

    public ClusterView cluster() {
        return cluster;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        LOG.info("Spool broker shutting down");
        closeAll(resources);
        LOG.info("Spool broker stopped");
    }

    /** Closes in list order: network first, then what it used. */
    private static void closeAll(List<AutoCloseable> resources) {
        for (AutoCloseable resource : resources) {
            try {
                resource.close();
            } catch (Exception e) {
                LOG.error("Error while closing {}", resource, e);
            }
        }
    }
}

package dev.spool.broker;

import dev.spool.broker.api.ClientQuotaEnforcement;
import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.fetch.FetchHandler;
import dev.spool.broker.fetch.FetchSessionCache;
import dev.spool.broker.fetch.FollowerReadThrottle;
import dev.spool.broker.fetch.HostedPartitionLookup;
import dev.spool.broker.fetch.MetadataPartitionLookup;
import dev.spool.broker.fetch.PartitionLookup;
import dev.spool.broker.partition.Partition;
import dev.spool.broker.partition.PartitionManager;
import dev.spool.broker.produce.PartitionAppenders;
import dev.spool.broker.purgatory.ThreadWaitTimer;
import dev.spool.broker.purgatory.WaitTimer;
import dev.spool.broker.quota.ClientQuotas;
import dev.spool.broker.replica.IsrManager;
import dev.spool.broker.replica.ReplicaFetchSettings;
import dev.spool.broker.replica.ReplicaFetchers;
import dev.spool.broker.replica.ReplicationThrottle;

/**
 * The broker's third layer: the partitions this broker hosts (following the metadata image), the write
 * path into them (one appender queue per partition on the I/O threads) and the read path out of them
 * (fetch sessions), the purgatory where parked fetches and acks=all produces wait, and in a cluster the replica
 * fetchers, which copy the partitions this broker follows from their leaders. Closed writes first, then reads and
 * the fetchers, then the partitions. Immutable once started.
 */
final class PartitionLayer implements AutoCloseable {

    /** How often a leader looks for ISR changes: a caught-up replica rejoins within it. */
    private static final long ISR_CHECK_INTERVAL_MS = 500;

    final PartitionManager partitions;
    final HostedPartitionLookup hosted;
    final FetchHandler fetchHandler;
    /** The client quotas: the fetch handler applies consumers' itself, the API layer the others. */
    final ClientQuotaEnforcement quotas;
    final PartitionAppenders appenders;
    /** Where parked operations wait (fetches, acks=all produces, DeleteRecords of replicated partitions). */
    final WaitTimer purgatory;
    private final Closer closer;

    private PartitionLayer(PartitionManager partitions, HostedPartitionLookup hosted, FetchHandler fetchHandler,
                           ClientQuotaEnforcement quotas, PartitionAppenders appenders, WaitTimer purgatory,
                           Closer closer) {
        this.quotas = quotas;
        this.partitions = partitions;
        this.purgatory = purgatory;
        this.hosted = hosted;
        this.fetchHandler = fetchHandler;
        this.appenders = appenders;
        this.closer = closer;
    }

    static PartitionLayer start(BrokerConfig config, StorageLayer storage, MetadataLayer metadata) {
        Closer closer = new Closer();
        try {
            PartitionManager partitions = closer.register(new PartitionManager(config.nodeId(), storage.logs,
                    metadata.configLayers::topicLogDefaults));
            metadata.metadata.addListener(partitions);
            if (metadata.brokerClients != null) {
                partitions.leadNothingUntilCaughtUp(); // until Broker marks it, once the controller unfenced it
                // After the partition manager: a partition is hosted, with its new assignment, before it is followed.
                metadata.metadata.addListener(closer.register(new ReplicaFetchers(config.nodeId(), partitions,
                        metadata.brokerClients, metadata.metadata::image, ReplicaFetchSettings.of(config),
                        ReplicationThrottle.follower(metadata.metadata::image, metadata.configLayers,
                                storage.clock::nowMs))));
                int lagTimeMaxMs = config.get(BrokerConfig.REPLICA_LAG_TIME_MAX_MS);
                closer.register(new IsrManager(config.nodeId(), partitions, metadata.controller,
                        metadata.metadata::image, storage.clock::nowMs, lagTimeMaxMs, storage.scheduler,
                        Math.max(1, Math.min(ISR_CHECK_INTERVAL_MS, lagTimeMaxMs / 2))));
            }
            // One purgatory: parked fetches, acks=all produces and DeleteRecords wait on the same thread, closed
            // after them.
            ThreadWaitTimer purgatory = closer.register(new ThreadWaitTimer("spool-purgatory"));
            HostedPartitionLookup hosted = new HostedPartitionLookup(partitions, metadata.metadata::image);
            Partition servedMetadata = metadata.servedMetadataPartition();
            PartitionLookup readable = servedMetadata == null ? hosted
                    : new MetadataPartitionLookup(hosted, servedMetadata);
            ClientQuotaEnforcement quotas = new ClientQuotaEnforcement(ClientQuotas.of(config,
                    metadata.metadata::image), config.cluster()::isControllerListener, storage.clock::nowMs);
            FetchHandler fetchHandler = closer.register(new FetchHandler(readable, new FetchSessionCache(
                    config.maxIncrementalFetchSessionCacheSlots(), FetchSessionCache.DEFAULT_EVICTION_MS),
                    storage.clock::nowMs, purgatory, metadata.brokerClients == null ? FollowerReadThrottle.NONE
                            : ReplicationThrottle.leader(metadata.metadata::image, metadata.configLayers,
                                    storage.clock::nowMs), quotas.consumerFetches()));
            PartitionAppenders appenders = closer.register(
                    new PartitionAppenders(partitions, config.numIoThreads(), storage.clock, purgatory));
            appenders.scheduleRemovalOfUnhosted(storage.scheduler, config.producerIdExpirationCheckIntervalMs());
            return new PartitionLayer(partitions, hosted, fetchHandler, quotas, appenders, purgatory, closer);
        } catch (RuntimeException | Error e) {
            closer.close();
            throw e;
        }
    }

    @Override
    public void close() {
        closer.close();
    }
}

package dev.spool.broker;

import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.group.GroupCoordinator;
import dev.spool.broker.group.GroupSettings;
import dev.spool.broker.produce.ProducerIdManager;
import dev.spool.broker.txn.MarkerWriter;
import dev.spool.broker.txn.TransactionCoordinator;
import dev.spool.broker.txn.TransactionPartitionAdder;
import dev.spool.broker.txn.TransactionSettings;

/**
 * The broker's fourth layer: the coordinators whose state lives in internal topics, loaded and unloaded as this broker
 * leads those topics' partitions: the group coordinator ({@code __consumer_offsets}) and the transaction coordinator
 * ({@code __transaction_state}), each on a {@code CoordinatorRuntime} of its own, and the producer ids both
 * idempotent and transactional producers get. Immutable once started.
 */
final class CoordinatorLayer implements AutoCloseable {

    final GroupCoordinator groups;
    final TransactionCoordinator transactions;
    final ProducerIdManager producerIds;
    /** What partition leaders ask the transaction coordinator before a transaction's first batch (KIP-890). */
    final TransactionPartitionAdder transactionPartitions;
    private final Closer closer;

    private CoordinatorLayer(GroupCoordinator groups, TransactionCoordinator transactions,
                             ProducerIdManager producerIds, TransactionPartitionAdder transactionPartitions,
                             Closer closer) {
        this.groups = groups;
        this.transactions = transactions;
        this.producerIds = producerIds;
        this.transactionPartitions = transactionPartitions;
        this.closer = closer;
    }

    static CoordinatorLayer start(BrokerConfig config, StorageLayer storage, MetadataLayer metadata,
                                  PartitionLayer partitions) {
        Closer closer = new Closer();
        try {
            GroupCoordinator groups = closer.register(new GroupCoordinator(GroupSettings.from(config),
                    config.get(BrokerConfig.GROUP_COORDINATOR_THREADS), metadata.metadata, metadata.topicCreator(),
                    partitions.partitions, storage.clock));
            metadata.metadata.addListener(groups);
            partitions.appenders.onTxnMarkers(groups::onTransactionCompleted);
            ProducerIdManager producerIds = new ProducerIdManager(metadata.producerIdBlocks(), config.nodeId());
            MarkerWriter markers = new MarkerWriter(config.nodeId(), metadata.metadata::image, partitions.partitions,
                    partitions.appenders, metadata.brokerClients, storage.scheduler);
            TransactionCoordinator transactions = closer.register(new TransactionCoordinator(
                    TransactionSettings.from(config), metadata.metadata, metadata.topicCreator(), partitions.partitions,
                    storage.clock, markers, producerIds));
            metadata.metadata.addListener(transactions);
            TransactionPartitionAdder transactionPartitions = new TransactionPartitionAdder(config.nodeId(),
                    transactions, metadata.metadata::image, partitions.partitions::leads, metadata.brokerClients,
                    storage.scheduler);
            return new CoordinatorLayer(groups, transactions, producerIds, transactionPartitions, closer);
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

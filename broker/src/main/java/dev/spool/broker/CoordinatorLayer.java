package dev.spool.broker;

import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.group.GroupCoordinator;
import dev.spool.broker.group.GroupSettings;

/**
 * The broker's fourth layer: the coordinators whose state lives in internal topics, loaded and unloaded
 * as this broker leads those topics' partitions. Today the group coordinator ({@code __consumer_offsets});
 * the transaction coordinator ({@code __transaction_state}) joins it here, on a {@code CoordinatorRuntime}
 * of its own. Immutable once started.
 */
final class CoordinatorLayer implements AutoCloseable {

    final GroupCoordinator groups;

    private CoordinatorLayer(GroupCoordinator groups) {
        this.groups = groups;
    }

    static CoordinatorLayer start(BrokerConfig config, StorageLayer storage, MetadataLayer metadata,
                                  PartitionLayer partitions) {
        GroupCoordinator groups = new GroupCoordinator(GroupSettings.from(config),
                config.get(BrokerConfig.GROUP_COORDINATOR_THREADS), metadata.metadata, metadata.topicCreator(),
                partitions.partitions, storage.clock);
        try {
            metadata.metadata.addListener(groups);
        } catch (RuntimeException | Error e) {
            groups.close();
            throw e;
        }
        return new CoordinatorLayer(groups);
    }

    @Override
    public void close() {
        groups.close();
    }
}

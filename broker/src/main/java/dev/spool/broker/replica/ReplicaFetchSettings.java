package dev.spool.broker.replica;

import dev.spool.broker.config.BrokerConfig;

/**
 * How a follower fetches from its leaders, Kafka's {@code replica.fetch.*} settings. Immutable.
 *
 * @param maxWaitMs        how long a fetch waits at the leader for new records
 * @param minBytes         the bytes it waits for
 * @param partitionMaxBytes the bytes asked of each partition
 * @param responseMaxBytes the bytes of the whole response
 * @param backoffMs        the pause after a failed fetch
 * @param fetchersPerSource the fetcher threads per leader fetched from ({@code num.replica.fetchers})
 */
public record ReplicaFetchSettings(int maxWaitMs, int minBytes, int partitionMaxBytes, int responseMaxBytes,
                                   int backoffMs, int fetchersPerSource) {

    public static ReplicaFetchSettings of(BrokerConfig config) {
        return new ReplicaFetchSettings(config.get(BrokerConfig.REPLICA_FETCH_WAIT_MAX_MS),
                config.get(BrokerConfig.REPLICA_FETCH_MIN_BYTES), config.get(BrokerConfig.REPLICA_FETCH_MAX_BYTES),
                config.get(BrokerConfig.REPLICA_FETCH_RESPONSE_MAX_BYTES),
                config.get(BrokerConfig.REPLICA_FETCH_BACKOFF_MS), config.get(BrokerConfig.NUM_REPLICA_FETCHERS));
    }
}

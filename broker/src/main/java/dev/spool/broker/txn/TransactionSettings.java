package dev.spool.broker.txn;

import dev.spool.broker.config.BrokerConfig;

/** The broker settings the transaction coordinator obeys, with Kafka's names (see {@link BrokerConfig}). Immutable. */
public record TransactionSettings(int numPartitions, short replicationFactor, int minInsyncReplicas, int segmentBytes,
                                  int maxTimeoutMs, long transactionalIdExpirationMs, long abortCheckIntervalMs,
                                  long expirationCheckIntervalMs) {

    public static TransactionSettings from(BrokerConfig config) {
        return new TransactionSettings(
                config.get(BrokerConfig.TRANSACTION_STATE_LOG_NUM_PARTITIONS),
                (short) (int) config.get(BrokerConfig.TRANSACTION_STATE_LOG_REPLICATION_FACTOR),
                config.get(BrokerConfig.TRANSACTION_STATE_LOG_MIN_ISR),
                config.get(BrokerConfig.TRANSACTION_STATE_LOG_SEGMENT_BYTES),
                config.get(BrokerConfig.TRANSACTION_MAX_TIMEOUT_MS),
                config.get(BrokerConfig.TRANSACTIONAL_ID_EXPIRATION_MS),
                config.get(BrokerConfig.TRANSACTION_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS),
                config.get(BrokerConfig.TRANSACTION_REMOVE_EXPIRED_TRANSACTION_CLEANUP_INTERVAL_MS));
    }
}

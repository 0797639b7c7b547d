package dev.spool.broker.group;

import dev.spool.broker.config.BrokerConfig;
import java.util.Arrays;
import java.util.Locale;

/**
 * The settings of the consumer group protocol (KIP-848), with Kafka's names: whether the coordinator serves it
 * ({@code group.coordinator.rebalance.protocols} names consumer), members' session timeout and heartbeat interval,
 * and the largest group. Immutable.
 */
public record ConsumerProtocolSettings(boolean enabled, int sessionTimeoutMs, int heartbeatIntervalMs, int maxSize) {

    static ConsumerProtocolSettings from(BrokerConfig config) {
        boolean enabled = Arrays.stream(config.get(BrokerConfig.GROUP_COORDINATOR_REBALANCE_PROTOCOLS).split(","))
                .anyMatch(protocol -> protocol.trim().toLowerCase(Locale.ROOT).equals("consumer"));
        return new ConsumerProtocolSettings(enabled, config.get(BrokerConfig.GROUP_CONSUMER_SESSION_TIMEOUT_MS),
                config.get(BrokerConfig.GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS),
                config.get(BrokerConfig.GROUP_CONSUMER_MAX_SIZE));
    }

    /** Kafka's timings (45 s sessions, 5 s heartbeats), the protocol served. */
    static ConsumerProtocolSettings defaults() {
        return new ConsumerProtocolSettings(true, 45_000, 5_000, Integer.MAX_VALUE);
    }
}

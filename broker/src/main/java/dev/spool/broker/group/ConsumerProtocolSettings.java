package dev.spool.broker.group;

import dev.spool.broker.config.BrokerConfig;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The settings of the consumer group protocol (KIP-848), with Kafka's names: whether the coordinator serves it
 * ({@code group.coordinator.rebalance.protocols} names consumer), members' session timeout and heartbeat interval,
 * the largest group, the server-side assignors members may ask for (the first by default), and whether groups with
 * members move between the protocols. Immutable.
 */
public record ConsumerProtocolSettings(boolean enabled, int sessionTimeoutMs, int heartbeatIntervalMs, int maxSize,
                                       List<String> assignors, MigrationPolicy migrationPolicy) {

    static ConsumerProtocolSettings from(BrokerConfig config) {
        boolean enabled = Arrays.stream(config.get(BrokerConfig.GROUP_COORDINATOR_REBALANCE_PROTOCOLS).split(","))
                .anyMatch(protocol -> protocol.trim().toLowerCase(Locale.ROOT).equals("consumer"));
        List<String> assignors = Arrays.stream(config.get(BrokerConfig.GROUP_CONSUMER_ASSIGNORS).split(","))
                .map(name -> name.trim().toLowerCase(Locale.ROOT)).distinct().toList();
        return new ConsumerProtocolSettings(enabled, config.get(BrokerConfig.GROUP_CONSUMER_SESSION_TIMEOUT_MS),
                config.get(BrokerConfig.GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS),
                config.get(BrokerConfig.GROUP_CONSUMER_MAX_SIZE), assignors,
                MigrationPolicy.of(config.get(BrokerConfig.GROUP_CONSUMER_MIGRATION_POLICY)));
    }

    /** Kafka's timings (45 s sessions, 5 s heartbeats) and assignors (uniform, range), the protocol served. */
    static ConsumerProtocolSettings defaults() {
        return new ConsumerProtocolSettings(true, 45_000, 5_000, Integer.MAX_VALUE, List.of("uniform", "range"),
                MigrationPolicy.BIDIRECTIONAL);
    }
}

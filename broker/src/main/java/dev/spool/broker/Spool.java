package dev.spool.broker;

import java.io.IOException;
import java.util.Map;

/**
 * Thread-safe (stateless): the entry point for running Spool inside a JVM, mainly in tests:
 *
 * <pre>{@code
 * try (EmbeddedSpool spool = Spool.embedded()) {
 *     props.put("bootstrap.servers", spool.bootstrapServers());
 *     ...
 * }
 * }</pre>
 */
public final class Spool {

    private Spool() {
    }

    /** Starts a broker on a free port of 127.0.0.1 with its data in a temporary directory. */
    public static EmbeddedSpool embedded() throws IOException {
        return embedded(Map.of());
    }

    /**
     * Starts a broker with these settings (Kafka's names, see CONFIGURATION.md) over the embedded
     * defaults: a free port of 127.0.0.1, a temporary data directory, {@code group.initial.rebalance.delay.ms=0}.
     */
    public static EmbeddedSpool embedded(Map<String, String> settings) throws IOException {
        return EmbeddedSpool.start(settings);
    }
}

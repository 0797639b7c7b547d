package dev.spool.broker;

import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.config.Endpoint;
import dev.spool.log.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Thread-safe: a broker running inside this JVM, for tests: on a free port of 127.0.0.1, with its data in a
 * temporary directory that {@link #close} deletes (unless the caller chose the directory). Made by {@link
 * Spool#embedded()}.
 */
public final class EmbeddedSpool implements AutoCloseable {

    /**
     * Settings an embedded broker starts with unless told otherwise: a free port, and no initial
     * rebalance delay, so a test's consumer group forms at once (Kafka's own test harnesses do the same);
     * also an 8 MiB log cleaner map, see {@link #CLEANER_BUFFER}.
     */
    static final Map<String, String> TEST_DEFAULTS = Map.of(
            BrokerConfig.LISTENERS.name(), "PLAINTEXT://127.0.0.1:0",
            BrokerConfig.GROUP_INITIAL_REBALANCE_DELAY_MS.name(), "0");

    private final Broker broker;
    private final Path dataDir;
    private final boolean ownsDataDir;
    private boolean closed;

    private EmbeddedSpool(Broker broker, Path dataDir, boolean ownsDataDir) {
        this.broker = broker;
        this.dataDir = dataDir;
        this.ownsDataDir = ownsDataDir;
    }

    /**
     * The log cleaner's key map is Kafka's 128 MiB by default, allocated at start-up: too much for a
     * broker inside a test JVM, where compacted topics are small. Set only where the setting exists.
     */
    private static final String CLEANER_BUFFER = "log.cleaner.dedupe.buffer.size";
    private static final String CLEANER_BUFFER_BYTES = String.valueOf(8L << 20);

    static EmbeddedSpool start(Map<String, String> settings) throws IOException {
        Map<String, String> properties = new LinkedHashMap<>(TEST_DEFAULTS);
        if (BrokerConfig.ALL.stream().anyMatch(key -> key.name().equals(CLEANER_BUFFER))) {
            properties.put(CLEANER_BUFFER, CLEANER_BUFFER_BYTES);
        }
        properties.putAll(settings);
        boolean ownsDataDir = !properties.containsKey(BrokerConfig.LOG_DIRS.name())
                && !properties.containsKey(BrokerConfig.LOG_DIR.name());
        if (ownsDataDir) {
            properties.put(BrokerConfig.LOG_DIRS.name(), Files.createTempDirectory("spool-embedded-").toString());
        }
        BrokerConfig config = new BrokerConfig(properties);
        Path dataDir = config.logDirs().get(0);
        try {
            return new EmbeddedSpool(Broker.start(config), dataDir, ownsDataDir);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while starting the embedded broker", e);
        } catch (IOException | RuntimeException e) {
            if (ownsDataDir) {
                deleteRecursively(dataDir);
            }
            throw e;
        }
    }

    /** {@code host:port} for a client's {@code bootstrap.servers}. */
    public String bootstrapServers() {
        Endpoint endpoint = broker.boundEndpoints().get(0);
        return endpoint.host() + ":" + endpoint.port();
    }

    /** The port the first listener is bound to. */
    public int port() {
        return broker.boundEndpoints().get(0).port();
    }

    /** The directory of the broker's logs. */
    public Path dataDir() {
        return dataDir;
    }

    public Broker broker() {
        return broker;
    }

    /** Stops the broker cleanly and deletes its data if this made the directory. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        broker.close();
        if (ownsDataDir) {
            deleteRecursively(dataDir);
        }
    }

    private static void deleteRecursively(Path dir) {
        try {
            FileTrees.deleteRecursively(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete the embedded broker's data in " + dir, e);
        }
    }
}

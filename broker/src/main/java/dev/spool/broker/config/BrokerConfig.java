package dev.spool.broker.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's settings, with Kafka's names and defaults, declared here once. Built from a
 * {@code server.properties} map; unknown names are logged and ignored, as Kafka does. Immutable.
 */
public final class BrokerConfig {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerConfig.class);

    public static final ConfigKey<Integer> NODE_ID = ConfigKey.integer("node.id", 1,
            "The id of this broker in the cluster.");
    public static final ConfigKey<String> LISTENERS = ConfigKey.string("listeners", "PLAINTEXT://127.0.0.1:9092",
            "Comma-separated NAME://host:port endpoints to listen on; port 0 picks a free port.");
    public static final ConfigKey<String> ADVERTISED_LISTENERS = ConfigKey.string("advertised.listeners", null,
            "Endpoints given to clients in metadata; defaults to listeners (with the bound port).");
    public static final ConfigKey<String> LOG_DIRS = ConfigKey.string("log.dirs", null,
            "Comma-separated directories of the partition logs; overrides log.dir.");
    public static final ConfigKey<String> LOG_DIR = ConfigKey.string("log.dir", "./data",
            "The directory of the partition logs when log.dirs is not set.");
    public static final ConfigKey<Integer> SOCKET_REQUEST_MAX_BYTES = ConfigKey.integer("socket.request.max.bytes",
            104857600, "The largest request frame accepted; a larger one closes the connection.");
    public static final ConfigKey<Integer> NUM_NETWORK_THREADS = ConfigKey.integer("num.network.threads", 0,
            "Network event loop threads; 0 means one per core.");

    public static final List<ConfigKey<?>> ALL = List.of(NODE_ID, LISTENERS, ADVERTISED_LISTENERS, LOG_DIRS, LOG_DIR,
            SOCKET_REQUEST_MAX_BYTES, NUM_NETWORK_THREADS);

    private final Map<String, String> values;

    public BrokerConfig(Map<String, String> properties) {
        Map<String, String> known = new TreeMap<>();
        for (Map.Entry<String, String> entry : properties.entrySet()) {
            if (isDeclared(entry.getKey())) {
                known.put(entry.getKey(), entry.getValue());
            } else {
                LOG.warn("Ignoring unknown or unsupported setting {}", entry.getKey());
            }
        }
        this.values = Collections.unmodifiableMap(known);
        for (ConfigKey<?> key : ALL) {
            get(key);
        }
        if (nodeId() < 0) {
            throw new ConfigException("node.id must be >= 0, got " + nodeId());
        }
        if (socketRequestMaxBytes() <= 0) {
            throw new ConfigException("socket.request.max.bytes must be > 0, got " + socketRequestMaxBytes());
        }
        // Parsed here as well as on use so that a bad value fails before anything starts: Broker.start
        // reads advertised.listeners only after binding the listeners.
        listeners();
        advertisedListeners();
        logDirs();
    }

    private static boolean isDeclared(String name) {
        for (ConfigKey<?> key : ALL) {
            if (key.name().equals(name)) {
                return true;
            }
        }
        return false;
    }

    public <T> T get(ConfigKey<T> key) {
        return key.parse(values.get(key.name()));
    }

    /** The explicitly set values, for logging at start-up. */
    public Map<String, String> explicitValues() {
        return new LinkedHashMap<>(values);
    }

    public int nodeId() {
        return get(NODE_ID);
    }

    public List<Endpoint> listeners() {
        return endpoints(get(LISTENERS), LISTENERS.name());
    }

    /** The advertised endpoints, or an empty list when they follow the listeners. */
    public List<Endpoint> advertisedListeners() {
        String advertised = get(ADVERTISED_LISTENERS);
        return advertised == null || advertised.isBlank() ? List.of() : endpoints(advertised, ADVERTISED_LISTENERS.name());
    }

    public List<Path> logDirs() {
        String dirs = get(LOG_DIRS);
        String chosen = dirs == null || dirs.isBlank() ? get(LOG_DIR) : dirs;
        List<Path> paths = new ArrayList<>();
        for (String dir : chosen.split(",")) {
            if (!dir.isBlank()) {
                paths.add(Path.of(dir.trim()));
            }
        }
        if (paths.isEmpty()) {
            throw new ConfigException("log.dirs names no directory");
        }
        return paths;
    }

    public int socketRequestMaxBytes() {
        return get(SOCKET_REQUEST_MAX_BYTES);
    }

    public int numNetworkThreads() {
        int threads = get(NUM_NETWORK_THREADS);
        return threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
    }

    private static List<Endpoint> endpoints(String text, String property) {
        List<Endpoint> endpoints = new ArrayList<>();
        for (String part : text.split(",")) {
            if (!part.isBlank()) {
                endpoints.add(Endpoint.parse(part, property));
            }
        }
        if (endpoints.isEmpty()) {
            throw new ConfigException(property + " names no endpoint");
        }
        return endpoints;
    }
}

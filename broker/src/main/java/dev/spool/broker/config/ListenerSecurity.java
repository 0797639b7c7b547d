package dev.spool.broker.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Immutable: which security protocol each listener speaks, read from {@code listener.security.protocol.map}
 * as Kafka reads it (a listener's name is looked up in the map; {@code PLAINTEXT://} is a name, not a
 * protocol), and the rule that Spool fails closed.
 *
 * <p>Design note: Spool fails closed: TLS and SASL settings that do not work ({@code ServerTls}, {@link SaslSettings},
 * {@link InterNodeSecurity}) are refused at start-up, before any port opens: serving such a port otherwise would
 * leave it less protected than its operator configured, or its clients (or the other nodes) unable to connect,
 * which a warning in the log does not undo.
 */
public final class ListenerSecurity {

    /** Kafka's default map: each standard protocol's name is a listener name of that protocol. */
    static final String DEFAULT_MAP = "PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL";
    /** The protocols Kafka knows, all served. */
    private static final Set<String> KNOWN_PROTOCOLS = Set.of("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL");
    static final String PLAINTEXT = "PLAINTEXT";

    private final Map<String, String> protocolByListener;

    private ListenerSecurity(Map<String, String> protocolByListener) {
        this.protocolByListener = protocolByListener;
    }

    /** Parses {@code NAME:PROTOCOL,...}; a malformed pair, a name given twice or an unknown protocol is refused. */
    static ListenerSecurity parse(String map) {
        String property = BrokerConfig.LISTENER_SECURITY_PROTOCOL_MAP.name();
        Map<String, String> protocols = new LinkedHashMap<>();
        for (String pair : map.split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            int colon = pair.indexOf(':');
            String name = colon < 0 ? "" : pair.substring(0, colon).trim();
            String protocol = colon < 0 ? "" : pair.substring(colon + 1).trim().toUpperCase(Locale.ROOT);
            if (name.isEmpty() || protocol.isEmpty()) {
                throw new ConfigException(ConfigKey.invalid(property, map, "'" + pair.trim()
                        + "' is not LISTENER_NAME:SECURITY_PROTOCOL"));
            }
            if (!KNOWN_PROTOCOLS.contains(protocol)) {
                throw new ConfigException(ConfigKey.invalid(property, map, "unknown security protocol '" + protocol
                        + "' (Kafka's are PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL)"));
            }
            if (protocols.put(name.toUpperCase(Locale.ROOT), protocol) != null) {
                throw new ConfigException(ConfigKey.invalid(property, map, "listener name " + name + " is mapped twice"));
            }
        }
        return new ListenerSecurity(Map.copyOf(protocols));
    }

    /** Refuses, naming the first offender, an endpoint whose listener name the map lacks (as Kafka does). */
    void requireServed(List<Endpoint> endpoints, String property) {
        for (Endpoint endpoint : endpoints) {
            if (protocolOf(endpoint.listenerName()) == null) {
                throw new ConfigException("listener " + endpoint + " in " + property + " has no security protocol: "
                        + "add " + endpoint.listenerName() + ":PLAINTEXT (or another protocol) to "
                        + BrokerConfig.LISTENER_SECURITY_PROTOCOL_MAP.name());
            }
        }
    }

    /** Kafka's id of a security protocol (as RegisterBrokerRecord carries it): PLAINTEXT 0, SSL 1, SASL_PLAINTEXT 2, SASL_SSL 3. */
    public static short protocolId(String protocol) {
        return switch (protocol) {
            case "PLAINTEXT" -> 0;
            case "SSL" -> 1;
            case "SASL_PLAINTEXT" -> 2;
            case "SASL_SSL" -> 3;
            default -> throw new IllegalArgumentException("Unknown security protocol " + protocol);
        };
    }

    /** The protocol of a listener name (case-insensitive, as Kafka's listener names), or null when unmapped. */
    String protocolOf(String listenerName) {
        return protocolByListener.get(listenerName.toUpperCase(Locale.ROOT));
    }
}

package dev.spool.broker.config;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How a node secures what it sends the other nodes, read as Kafka reads it: the listener's protocol from
 * {@code listener.security.protocol.map}; for TLS the listener's own {@code ssl.*} settings (its key store is the
 * certificate the node presents, its trust store what it checks the peer's against); for SASL the mechanism
 * ({@code sasl.mechanism.inter.broker.protocol} or {@code sasl.mechanism.controller.protocol}) and the username and
 * password of {@code listener.name.<listener>.<mechanism>.sasl.jaas.config}. What cannot work stops start-up,
 * naming the setting. Stateless.
 */
public final class InterNodeSecurity {

    static final String SCRAM_LOGIN_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule";
    /** The mechanisms a node logs in to the others with (OAUTHBEARER and GSSAPI need a login Spool does not do). */
    private static final List<String> LOGINS = List.of("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512");

    private InterNodeSecurity() {
    }

    /**
     * How this node connects to the listener named {@code listenerName} of the other nodes, logging in with the
     * mechanism {@code mechanismKey} names when the listener speaks SASL.
     *
     * @throws ConfigException when the listener has no protocol, or its TLS or SASL login is not set up
     */
    static NodeListenerSecurity forListener(BrokerConfig config, ListenerSecurity protocols, String listenerName,
                                            ConfigKey<String> mechanismKey) {
        String protocol = protocols.protocolOf(listenerName);
        if (protocol == null) {
            throw new ConfigException("listener " + listenerName + ", which this node connects to on the other nodes, "
                    + "has no security protocol: add " + listenerName + ":PLAINTEXT (or another protocol) to "
                    + BrokerConfig.LISTENER_SECURITY_PROTOCOL_MAP.name());
        }
        ListenerTls tls = null;
        boolean verifyHostname = false;
        if (protocol.endsWith("SSL")) {
            tls = TlsSettings.forListener(config, listenerName, protocol.equals("SASL_SSL"));
            verifyHostname = "https".equalsIgnoreCase(config.listenerValue(listenerName,
                    TlsSettings.ENDPOINT_IDENTIFICATION_ALGORITHM).trim());
        }
        SaslLogin sasl = protocol.startsWith("SASL") ? saslLogin(config, listenerName, mechanismKey) : null;
        return new NodeListenerSecurity(listenerName, protocol, tls, verifyHostname, sasl);
    }

    private static SaslLogin saslLogin(BrokerConfig config, String listenerName, ConfigKey<String> mechanismKey) {
        String mechanism = config.get(mechanismKey).trim().toUpperCase(Locale.ROOT);
        if (!LOGINS.contains(mechanism)) {
            throw new ConfigException(mechanismKey.name() + " is " + mechanism + ", but listener " + listenerName
                    + " speaks SASL and Spool's nodes log in to each other with " + String.join(", ", LOGINS)
                    + " only: set " + mechanismKey.name() + " to one of them");
        }
        String jaasName = "listener.name." + listenerName.toLowerCase(Locale.ROOT) + "."
                + mechanism.toLowerCase(Locale.ROOT) + "." + SaslSettings.JAAS_CONFIG.name();
        String jaas = config.explicitValues().get(jaasName);
        String loginModule = mechanism.equals("PLAIN") ? PlainJaasUsers.PLAIN_LOGIN_MODULE : SCRAM_LOGIN_MODULE;
        if (jaas == null) {
            throw new ConfigException("listener " + listenerName + " speaks SASL between nodes with " + mechanism
                    + " but this node has no login for it: set " + jaasName + " (" + loginModule
                    + " required username=\"...\" password=\"...\";)");
        }
        Map<String, String> options = JaasOptions.parse(jaasName, jaas, loginModule, loginModule
                + " required username=\"...\" password=\"...\";");
        String username = options.get("username");
        String password = options.get("password");
        if (username == null || username.isEmpty() || password == null) {
            throw new ConfigException("invalid value for " + jaasName + ": the username and password this node logs "
                    + "in to the other nodes with are not set (username=\"...\" password=\"...\")");
        }
        return new SaslLogin(mechanism, username, password);
    }

    /**
     * Refuses a controller listener whose security the quorum's Raft port (gRPC, on the controller port plus
     * {@code controller.quorum.raft.port.offset}) cannot match: it speaks mutual TLS with the listener's key store
     * and trust store when the listener speaks TLS, and cannot authenticate with SASL alone.
     */
    static void requireRaftCanSecure(NodeListenerSecurity controller) {
        if (controller.isPlaintext()) {
            return;
        }
        String listener = controller.listenerName();
        if (controller.tls() == null) {
            throw new ConfigException("controller listener " + listener + " speaks " + controller.securityProtocol()
                    + ", but the quorum's Raft port can be secured with TLS only (mutual TLS with the listener's key "
                    + "store and trust store): make it SASL_SSL or SSL");
        }
        ListenerTls tls = controller.tls();
        if (!isStoreFile(tls.keystoreType(), tls.keystoreLocation())
                || !isStoreFile(tls.truststoreType(), tls.truststoreLocation())) {
            throw new ConfigException("controller listener " + listener + " speaks " + controller.securityProtocol()
                    + ": the quorum's Raft port speaks mutual TLS with its key store and trust store, which must be "
                    + "JKS or PKCS12 files (ssl.keystore.location and ssl.truststore.location, PEM not supported there)");
        }
    }

    private static boolean isStoreFile(String type, String location) {
        return location != null && !location.isBlank() && !"PEM".equalsIgnoreCase(type);
    }
}

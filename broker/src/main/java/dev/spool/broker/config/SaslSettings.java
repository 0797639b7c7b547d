package dev.spool.broker.config;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The SASL settings of SASL_PLAINTEXT and SASL_SSL listeners, with Kafka's names: the mechanisms a listener
 * enables ({@code sasl.enabled.mechanisms}, or {@code listener.name.<listener>.sasl.enabled.mechanisms}) and, per
 * listener and mechanism, the JAAS configuration holding its users
 * ({@code listener.name.<listener>.<mechanism>.sasl.jaas.config}, the mechanism in lower case).
 */
public final class SaslSettings {

    public static final ConfigKey<String> ENABLED_MECHANISMS = ConfigKey.list("sasl.enabled.mechanisms", "GSSAPI",
            "The SASL mechanisms SASL listeners offer; Spool serves PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 "
                    + "(GSSAPI, Kafka's default, is not served: a SASL listener must name its mechanisms).");
    /** Only ever set per listener and mechanism; declared for its type and doc. */
    public static final ConfigKey<String> JAAS_CONFIG = ConfigKey.password("sasl.jaas.config",
            "Set as listener.name.<listener>.<mechanism>.sasl.jaas.config: for PLAIN, Kafka's PlainLoginModule "
                    + "with a user_<name>=\"<password>\" option per user.");

    public static final List<ConfigKey<?>> ALL = List.of(ENABLED_MECHANISMS, JAAS_CONFIG);

    private static final String LISTENER_PREFIX = "listener.name.";
    /** SCRAM's users are the credentials in the metadata (kafka-configs --entity-type users), PLAIN's the JAAS's. */
    private static final List<String> SERVED = List.of("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512");

    private SaslSettings() {
    }

    /**
     * Whether {@code name} is a SASL setting of one listener: {@code listener.name.<l>.sasl.enabled.mechanisms} or
     * {@code listener.name.<l>.<mechanism>.sasl.jaas.config}.
     */
    static boolean isListenerSetting(String name) {
        if (!name.startsWith(LISTENER_PREFIX)) {
            return false;
        }
        String rest = name.substring(LISTENER_PREFIX.length());
        int dot = rest.indexOf('.');
        if (dot <= 0) {
            return false;
        }
        String setting = rest.substring(dot + 1);
        if (setting.equals(ENABLED_MECHANISMS.name())) {
            return true;
        }
        int mechanismEnd = setting.indexOf('.');
        return mechanismEnd > 0 && setting.substring(mechanismEnd + 1).equals(JAAS_CONFIG.name());
    }

    /** The SASL settings in force on the listener named {@code listenerName}. */
    public static ListenerSasl forListener(BrokerConfig config, String listenerName, String securityProtocol) {
        List<String> mechanisms = List.of(config.listenerValue(listenerName, ENABLED_MECHANISMS).split(",")).stream()
                .map(String::trim).filter(mechanism -> !mechanism.isEmpty())
                .map(mechanism -> mechanism.toUpperCase(Locale.ROOT)).toList();
        Map<String, String> plainUsers = Map.of();
        if (mechanisms.contains("PLAIN")) {
            String name = LISTENER_PREFIX + listenerName.toLowerCase(Locale.ROOT) + ".plain." + JAAS_CONFIG.name();
            String jaas = config.explicitValues().get(name);
            if (jaas == null) {
                throw new ConfigException("listener " + listenerName + " enables SASL mechanism PLAIN but has no "
                        + "users: set " + name + " (Kafka's PlainLoginModule with user_<name>=\"<password>\")");
            }
            plainUsers = PlainJaasUsers.parse(name, jaas);
        }
        for (String mechanism : mechanisms) {
            if (!SERVED.contains(mechanism)) {
                throw new ConfigException("listener " + listenerName + " enables SASL mechanism " + mechanism
                        + ", which Spool does not support yet (it serves " + String.join(", ", SERVED) + "); it "
                        + "does not start rather than leave the listener's clients unable to authenticate");
            }
        }
        return new ListenerSasl(listenerName, securityProtocol, mechanisms, plainUsers);
    }
}

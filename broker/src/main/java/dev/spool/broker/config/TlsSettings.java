package dev.spool.broker.config;

import java.util.List;
import java.util.Locale;

/**
 * The TLS settings of SSL listeners, with Kafka's names and defaults. Each may be set for one listener as
 * {@code listener.name.<listener>.<setting>} (the listener's name in lower case, as Kafka writes it), which wins
 * over the plain setting for that listener ({@link #forListener}).
 */
public final class TlsSettings {

    public static final ConfigKey<String> KEYSTORE_TYPE = ConfigKey.string("ssl.keystore.type", "JKS",
            "The format of the key store: JKS, PKCS12 or PEM.")
            .validatedBy(ConfigValidator.oneOf("JKS", "PKCS12", "PEM"));
    public static final ConfigKey<String> KEYSTORE_LOCATION = ConfigKey.string("ssl.keystore.location", null,
            "The key store file holding the listener's private key and certificate chain.");
    public static final ConfigKey<String> KEYSTORE_PASSWORD = ConfigKey.password("ssl.keystore.password",
            "The key store's password (not used with PEM).");
    public static final ConfigKey<String> KEY_PASSWORD = ConfigKey.password("ssl.key.password",
            "The password of the private key in the key store (defaults to the key store's) or of a PEM key.");
    public static final ConfigKey<String> KEYSTORE_KEY = ConfigKey.password("ssl.keystore.key",
            "The private key in PEM (PKCS#8), with ssl.keystore.type=PEM, instead of a key store file.");
    public static final ConfigKey<String> KEYSTORE_CERTIFICATE_CHAIN = ConfigKey.password(
            "ssl.keystore.certificate.chain",
            "The certificate chain in PEM, with ssl.keystore.type=PEM and ssl.keystore.key.");
    public static final ConfigKey<String> TRUSTSTORE_TYPE = ConfigKey.string("ssl.truststore.type", "JKS",
            "The format of the trust store: JKS, PKCS12 or PEM.")
            .validatedBy(ConfigValidator.oneOf("JKS", "PKCS12", "PEM"));
    public static final ConfigKey<String> TRUSTSTORE_LOCATION = ConfigKey.string("ssl.truststore.location", null,
            "The trust store file of the certificate authorities that client certificates are checked against.");
    public static final ConfigKey<String> TRUSTSTORE_PASSWORD = ConfigKey.password("ssl.truststore.password",
            "The trust store's password (none needed for PEM).");
    public static final ConfigKey<String> TRUSTSTORE_CERTIFICATES = ConfigKey.password("ssl.truststore.certificates",
            "Trusted certificates in PEM, with ssl.truststore.type=PEM, instead of a trust store file.");
    public static final ConfigKey<String> CLIENT_AUTH = ConfigKey.string("ssl.client.auth", "none",
            "Whether clients must present a certificate: required, requested (checked when presented) or none.")
            .validatedBy(ConfigValidator.oneOf("required", "requested", "none"));
    public static final ConfigKey<String> ENABLED_PROTOCOLS = ConfigKey.list("ssl.enabled.protocols",
            "TLSv1.2,TLSv1.3", "The TLS versions a connection may use.");
    public static final ConfigKey<String> PROTOCOL = ConfigKey.string("ssl.protocol", "TLSv1.3",
            "Accepted for Kafka's configurations; the versions a connection may use are ssl.enabled.protocols'.");
    public static final ConfigKey<String> CIPHER_SUITES = ConfigKey.list("ssl.cipher.suites", "",
            "The cipher suites a connection may use; empty allows every one the JDK enables.");
    public static final ConfigKey<String> PRINCIPAL_MAPPING_RULES = ConfigKey.list("ssl.principal.mapping.rules",
            "DEFAULT", "Rules mapping a client certificate's distinguished name to a principal name, as Kafka's: "
                    + "RULE:pattern/replacement/[LU], tried in order, and DEFAULT (the whole name).");

    public static final ConfigKey<String> ENDPOINT_IDENTIFICATION_ALGORITHM = ConfigKey.string(
            "ssl.endpoint.identification.algorithm", "https", "How a node checks the certificate of another node it "
                    + "connects to over TLS: https, the certificate must name the host connected to; empty, any "
                    + "certificate the trust store vouches for.");

    public static final List<ConfigKey<?>> ALL = List.of(KEYSTORE_TYPE, KEYSTORE_LOCATION, KEYSTORE_PASSWORD,
            KEY_PASSWORD, KEYSTORE_KEY, KEYSTORE_CERTIFICATE_CHAIN, TRUSTSTORE_TYPE, TRUSTSTORE_LOCATION,
            TRUSTSTORE_PASSWORD, TRUSTSTORE_CERTIFICATES, CLIENT_AUTH, ENABLED_PROTOCOLS, PROTOCOL, CIPHER_SUITES,
            PRINCIPAL_MAPPING_RULES, ENDPOINT_IDENTIFICATION_ALGORITHM);

    private static final String LISTENER_PREFIX = "listener.name.";

    private TlsSettings() {
    }

    /** The name of {@code key} set for one listener only. */
    static String listenerName(String listenerName, ConfigKey<?> key) {
        return LISTENER_PREFIX + listenerName.toLowerCase(Locale.ROOT) + "." + key.name();
    }

    /** Whether {@code name} is a TLS setting for one listener ({@code listener.name.<listener>.ssl...}). */
    static boolean isListenerSetting(String name) {
        return keyOfListenerSetting(name) != null;
    }

    /** The setting that {@code name} sets for one listener, or null when it is no such name. */
    static ConfigKey<?> keyOfListenerSetting(String name) {
        if (!name.startsWith(LISTENER_PREFIX)) {
            return null;
        }
        int dot = name.indexOf('.', LISTENER_PREFIX.length());
        String setting = dot < 0 ? "" : name.substring(dot + 1);
        return ALL.stream().filter(key -> key.name().equals(setting)).findFirst().orElse(null);
    }

    /**
     * The TLS settings in force on the listener named {@code listenerName}. On a SASL_SSL listener
     * ({@code saslSsl}), clients authenticate with SASL: only the listener's own {@code ssl.client.auth} counts, as
     * in Kafka (KIP-684), so that the plain setting meant for SSL listeners does not ask SASL clients for
     * certificates.
     */
    public static ListenerTls forListener(BrokerConfig config, String listenerName, boolean saslSsl) {
        String clientAuth = saslSsl ? config.explicitValues().getOrDefault(listenerName(listenerName, CLIENT_AUTH),
                "none") : config.listenerValue(listenerName, CLIENT_AUTH);
        return new ListenerTls(listenerName, config.listenerValue(listenerName, KEYSTORE_TYPE),
                config.listenerValue(listenerName, KEYSTORE_LOCATION),
                config.listenerValue(listenerName, KEYSTORE_PASSWORD),
                config.listenerValue(listenerName, KEY_PASSWORD), config.listenerValue(listenerName, KEYSTORE_KEY),
                config.listenerValue(listenerName, KEYSTORE_CERTIFICATE_CHAIN),
                config.listenerValue(listenerName, TRUSTSTORE_TYPE),
                config.listenerValue(listenerName, TRUSTSTORE_LOCATION),
                config.listenerValue(listenerName, TRUSTSTORE_PASSWORD),
                config.listenerValue(listenerName, TRUSTSTORE_CERTIFICATES),
                clientAuth, csv(config.listenerValue(listenerName,
                        ENABLED_PROTOCOLS)), config.listenerValue(listenerName, PROTOCOL),
                csv(config.listenerValue(listenerName, CIPHER_SUITES)),
                config.listenerValue(listenerName, PRINCIPAL_MAPPING_RULES));
    }

    private static List<String> csv(String list) {
        return list == null ? List.of() : List.of(list.split(",")).stream().map(String::trim)
                .filter(item -> !item.isEmpty()).toList();
    }
}

package dev.spool.broker.config;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The SASL settings of SASL_PLAINTEXT and SASL_SSL listeners, with Kafka's names: the mechanisms a listener
 * enables ({@code sasl.enabled.mechanisms}, or {@code listener.name.<listener>.sasl.enabled.mechanisms}) and, per
 * listener and mechanism, the JAAS configuration holding its users
 * ({@code listener.name.<listener>.<mechanism>.sasl.jaas.config}, the mechanism in lower case).
 */
public final class SaslSettings {

    private static final String OAUTH_VALIDATOR =
            "org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler";
    private static final String OAUTH_LOGIN_MODULE =
            "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule";

    public static final ConfigKey<String> ENABLED_MECHANISMS = ConfigKey.list("sasl.enabled.mechanisms", "GSSAPI",
            "The SASL mechanisms SASL listeners offer; Spool serves PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 and OAUTHBEARER "
                    + "(GSSAPI, Kafka's default, is not served: a SASL listener must name its mechanisms).");
    /** Only ever set per listener and mechanism; declared for its type and doc. */
    public static final ConfigKey<String> JAAS_CONFIG = ConfigKey.password("sasl.jaas.config",
            "Set as listener.name.<listener>.<mechanism>.sasl.jaas.config: for PLAIN, Kafka's PlainLoginModule "
                    + "with a user_<name>=\"<password>\" option per user; for OAUTHBEARER, Kafka's "
                    + "OAuthBearerLoginModule, whose unsecuredValidator* options set the unsecured validator.");
    /** Only ever set per listener and mechanism (OAUTHBEARER); declared for its type and doc. */
    public static final ConfigKey<String> SERVER_CALLBACK_HANDLER = ConfigKey.string(
            "sasl.server.callback.handler.class", null,
            "Set as listener.name.<listener>.oauthbearer.sasl.server.callback.handler.class: Kafka's "
                    + OAUTH_VALIDATOR + " validates signed tokens against sasl.oauthbearer.jwks.endpoint.url; unset, "
                    + "OAUTHBEARER takes unsecured tokens (\"alg\":\"none\"), for tests and development only. "
                    + "No other handler class can run in Spool.");
    public static final ConfigKey<String> JWKS_URL = ConfigKey.string("sasl.oauthbearer.jwks.endpoint.url", null,
            "The identity provider's JSON Web Key Set (https:, http: or file:), read at start and refreshed; "
                    + "OAUTHBEARER tokens must be signed by one of its keys.");
    public static final ConfigKey<Long> JWKS_REFRESH_MS = ConfigKey.longValue(
            "sasl.oauthbearer.jwks.endpoint.refresh.ms", 3_600_000L,
            "How often the key set is read again; a token naming a key the set lacks reads it sooner.")
            .validatedBy(ConfigValidator.atLeast(1L));
    public static final ConfigKey<String> EXPECTED_AUDIENCE = ConfigKey.list("sasl.oauthbearer.expected.audience",
            "", "Audiences a token's aud claim must name one of; empty, any.");
    public static final ConfigKey<String> EXPECTED_ISSUER = ConfigKey.string("sasl.oauthbearer.expected.issuer",
            null, "The issuer a token's iss claim must name; unset, any.");
    public static final ConfigKey<Integer> CLOCK_SKEW_SECONDS = ConfigKey.integer(
            "sasl.oauthbearer.clock.skew.seconds", 30, "Slack allowed between the provider's clock and the broker's.")
            .validatedBy(ConfigValidator.atLeast(0L));
    public static final ConfigKey<String> SUB_CLAIM = ConfigKey.string("sasl.oauthbearer.sub.claim.name", "sub",
            "The claim naming a token's principal.");
    public static final ConfigKey<String> SCOPE_CLAIM = ConfigKey.string("sasl.oauthbearer.scope.claim.name",
            "scope", "The claim holding a token's scopes.");

    public static final ConfigKey<Long> REAUTH_MS = ConfigKey.longValue("connections.max.reauth.ms", 0L,
            "A SASL session's longest life (KIP-368), told to clients when they authenticate; a connection that "
                    + "has not authenticated again by then is closed at its next request. 0: only a bearer token's "
                    + "expiry ends a session. Also per listener and mechanism, as "
                    + "listener.name.<listener>.<mechanism>.connections.max.reauth.ms.")
            .validatedBy(ConfigValidator.atLeast(0L));

    public static final ConfigKey<String> MECHANISM_INTER_BROKER_PROTOCOL = ConfigKey.string(
            "sasl.mechanism.inter.broker.protocol", "GSSAPI", "The SASL mechanism a broker logs in to the other "
                    + "brokers with when the inter-broker listener speaks SASL: PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512, "
                    + "with the username and password of listener.name.<listener>.<mechanism>.sasl.jaas.config "
                    + "(GSSAPI, Kafka's default, stops start-up).");
    public static final ConfigKey<String> MECHANISM_CONTROLLER_PROTOCOL = ConfigKey.string(
            "sasl.mechanism.controller.protocol", "GSSAPI", "The SASL mechanism a node logs in to the controllers "
                    + "with when the controller listener speaks SASL, as sasl.mechanism.inter.broker.protocol.");

    public static final List<ConfigKey<?>> ALL = List.of(ENABLED_MECHANISMS, JAAS_CONFIG, MECHANISM_INTER_BROKER_PROTOCOL,
            MECHANISM_CONTROLLER_PROTOCOL, SERVER_CALLBACK_HANDLER,
            JWKS_URL, JWKS_REFRESH_MS, EXPECTED_AUDIENCE, EXPECTED_ISSUER, CLOCK_SKEW_SECONDS, SUB_CLAIM, SCOPE_CLAIM,
            REAUTH_MS);
    /** Settings a listener may also set for one mechanism: listener.name.<listener>.<mechanism>.<setting>. */
    private static final List<ConfigKey<?>> PER_MECHANISM = List.of(JAAS_CONFIG, SERVER_CALLBACK_HANDLER, JWKS_URL,
            JWKS_REFRESH_MS, EXPECTED_AUDIENCE, EXPECTED_ISSUER, CLOCK_SKEW_SECONDS, SUB_CLAIM, SCOPE_CLAIM, REAUTH_MS);

    private static final String LISTENER_PREFIX = "listener.name.";
    /**
     * SCRAM's users are the credentials in the metadata (kafka-configs --entity-type users), PLAIN's the JAAS's,
     * OAUTHBEARER's the principals of the tokens it takes.
     */
    private static final List<String> SERVED = List.of("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER");

    private SaslSettings() {
    }

    /**
     * Whether {@code name} is a SASL setting of one listener: {@code listener.name.<l>.sasl.enabled.mechanisms},
     * {@code listener.name.<l>.<mechanism>.<setting>} or {@code listener.name.<l>.<setting>} (but the JAAS one).
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
        if (mechanismEnd <= 0) {
            return false;
        }
        String perMechanism = setting.substring(mechanismEnd + 1);
        // A JAAS configuration is always a mechanism's; the other settings may also be the whole listener's.
        return PER_MECHANISM.stream().anyMatch(key -> key.name().equals(perMechanism)
                || key != JAAS_CONFIG && key.name().equals(setting));
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
        OAuthBearerSettings oauth = mechanisms.contains("OAUTHBEARER") ? oauthBearer(config, listenerName) : null;
        Map<String, Long> reauthMs = new LinkedHashMap<>();
        for (String mechanism : mechanisms) {
            reauthMs.put(mechanism, mechanismValue(config, listenerName, mechanism.toLowerCase(Locale.ROOT), REAUTH_MS));
        }
        return new ListenerSasl(listenerName, securityProtocol, mechanisms, plainUsers, oauth, Map.copyOf(reauthMs));
    }

    /**
     * OAUTHBEARER's settings on {@code listenerName}: each read as listener.name.<listener>.oauthbearer.<setting>,
     * else as the broker's. A server callback handler other than Kafka's JWKS validator cannot run here and is
     * refused; so is that validator without a key set.
     */
    private static OAuthBearerSettings oauthBearer(BrokerConfig config, String listenerName) {
        String handler = mechanismValue(config, listenerName, "oauthbearer", SERVER_CALLBACK_HANDLER);
        String jaasName = LISTENER_PREFIX + listenerName.toLowerCase(Locale.ROOT) + ".oauthbearer." + JAAS_CONFIG.name();
        String jaas = config.explicitValues().get(jaasName);
        Map<String, String> options = jaas == null ? Map.of() : JaasOptions.parse(jaasName, jaas, OAUTH_LOGIN_MODULE,
                OAUTH_LOGIN_MODULE + " required [unsecuredValidator...=\"...\"] ...;");
        long skewSeconds = mechanismValue(config, listenerName, "oauthbearer", CLOCK_SKEW_SECONDS);
        String subClaim = mechanismValue(config, listenerName, "oauthbearer", SUB_CLAIM);
        String scopeClaim = mechanismValue(config, listenerName, "oauthbearer", SCOPE_CLAIM);
        String jwks = mechanismValue(config, listenerName, "oauthbearer", JWKS_URL);
        if (handler == null) {
            if (jwks != null && !jwks.isBlank()) {
                throw new ConfigException("listener " + listenerName + " names a key set (" + JWKS_URL.name()
                        + ") but no validator: set listener.name." + listenerName.toLowerCase(Locale.ROOT)
                        + ".oauthbearer." + SERVER_CALLBACK_HANDLER.name() + "=" + OAUTH_VALIDATOR
                        + "; without it the listener would take unsecured tokens");
            }
            // Kafka's unsecured validator: scopes separated by spaces; a blank option is its default.
            List<String> required = List.of(option(options, "unsecuredValidatorRequiredScope", "").split(" "))
                    .stream().filter(scope -> !scope.isEmpty()).toList();
            long skewMs;
            try {
                skewMs = Integer.parseInt(option(options, "unsecuredValidatorAllowableClockSkewMs", "0"));
            } catch (NumberFormatException e) {
                skewMs = -1;
            }
            if (skewMs < 0) {
                throw new ConfigException("invalid value for " + jaasName + ": unsecuredValidatorAllowableClockSkewMs "
                        + "is not a number of milliseconds, 0 or more");
            }
            return new OAuthBearerSettings(null, 0, option(options, "unsecuredValidatorPrincipalClaimName", "sub"),
                    option(options, "unsecuredValidatorScopeClaimName", "scope"), Set.of(), null, skewMs, required);
        }
        if (!handler.equals(OAUTH_VALIDATOR)) {
            throw new ConfigException("listener " + listenerName + " names the OAUTHBEARER server callback handler "
                    + handler + ", which cannot run in Spool (it validates as Kafka's " + OAUTH_VALIDATOR
                    + " does, or takes unsecured tokens when none is set)");
        }
        if (jwks == null || jwks.isBlank()) {
            throw new ConfigException("listener " + listenerName + " validates OAUTHBEARER tokens with "
                    + OAUTH_VALIDATOR + " but has no key set: set " + JWKS_URL.name());
        }
        Set<String> audiences = new LinkedHashSet<>();
        for (String audience : mechanismValue(config, listenerName, "oauthbearer", EXPECTED_AUDIENCE).split(",")) {
            if (!audience.isBlank()) {
                audiences.add(audience.trim());
            }
        }
        return new OAuthBearerSettings(jwks.trim(),
                mechanismValue(config, listenerName, "oauthbearer", JWKS_REFRESH_MS), subClaim, scopeClaim,
                Set.copyOf(audiences), mechanismValue(config, listenerName, "oauthbearer", EXPECTED_ISSUER),
                skewSeconds * 1000, List.of());
    }

    private static String option(Map<String, String> options, String name, String defaultValue) {
        String value = options.get(name);
        return value == null || value.isBlank() ? defaultValue : value.trim();
    }

    /**
     * {@code key} as listener.name.<listener>.<mechanism>.<key>, else as listener.name.<listener>.<key>, else as the
     * broker's setting.
     */
    private static <T> T mechanismValue(BrokerConfig config, String listenerName, String mechanism, ConfigKey<T> key) {
        String own = config.explicitValues().get(LISTENER_PREFIX + listenerName.toLowerCase(Locale.ROOT) + "."
                + mechanism + "." + key.name());
        return own != null ? key.parse(own) : config.listenerValue(listenerName, key);
    }
}

package dev.spool.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SaslSettingsTest {

    private static final String USERS = "org.apache.kafka.common.security.plain.PlainLoginModule required "
            + "username=\"admin\" password=\"admin-secret\" user_admin=\"admin-secret\" "
            + "user_alice=\"a \\\"quoted\\\" one\";";

    @Test
    void plainUsersComeFromTheListenersJaasConfiguration() {
        BrokerConfig config = new BrokerConfig(Map.of("listener.name.clients.sasl.enabled.mechanisms", "plain",
                "listener.name.clients.plain.sasl.jaas.config", USERS));

        ListenerSasl sasl = SaslSettings.forListener(config, "CLIENTS", "SASL_SSL");

        assertThat(sasl.enabledMechanisms()).containsExactly("PLAIN");
        assertThat(sasl.plainUsers()).containsOnly(Map.entry("admin", "admin-secret"),
                Map.entry("alice", "a \"quoted\" one"));
        assertThat(sasl.toString()).doesNotContain("secret");
        assertThat(config.loggableValues()).containsEntry("listener.name.clients.plain.sasl.jaas.config", "[hidden]");
    }

    @Test
    void kafkasDefaultMechanismAndMechanismsNotServedAreRefused() {
        assertThatThrownBy(() -> SaslSettings.forListener(new BrokerConfig(Map.of()), "SASL_PLAINTEXT",
                "SASL_PLAINTEXT"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("SASL mechanism GSSAPI");
        assertThatThrownBy(() -> SaslSettings.forListener(new BrokerConfig(Map.of("sasl.enabled.mechanisms",
                "PLAIN,GSSAPI", "listener.name.sasl_plaintext.plain.sasl.jaas.config", USERS)),
                "SASL_PLAINTEXT", "SASL_PLAINTEXT")).hasMessageContaining("SASL mechanism GSSAPI");
    }

    @Test
    void plainWithoutUsersOrWithAnotherLoginModuleIsRefused() {
        assertThatThrownBy(() -> SaslSettings.forListener(new BrokerConfig(Map.of("sasl.enabled.mechanisms", "PLAIN")),
                "SASL_PLAINTEXT", "SASL_PLAINTEXT"))
                .hasMessageContaining("listener.name.sasl_plaintext.plain.sasl.jaas.config");
        assertThatThrownBy(() -> SaslSettings.forListener(new BrokerConfig(Map.of("sasl.enabled.mechanisms", "PLAIN",
                "listener.name.sasl_plaintext.plain.sasl.jaas.config",
                "com.example.Module required user_a=\"b\";")), "SASL_PLAINTEXT", "SASL_PLAINTEXT"))
                .hasMessageContaining("is not org.apache.kafka.common.security.plain.PlainLoginModule");
        assertThatThrownBy(() -> SaslSettings.forListener(new BrokerConfig(Map.of("sasl.enabled.mechanisms", "PLAIN",
                "listener.name.sasl_plaintext.plain.sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"a\";")),
                "SASL_PLAINTEXT", "SASL_PLAINTEXT")).hasMessageContaining("names no user");
    }

    private static final String OAUTH_MODULE = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule";
    private static final String JWKS_HANDLER =
            "org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler";

    @Test
    void oauthBearerWithoutAValidatorTakesUnsecuredTokensUnderTheJaasOptions() {
        BrokerConfig config = new BrokerConfig(Map.of("sasl.enabled.mechanisms", "OAUTHBEARER",
                "listener.name.sasl_ssl.oauthbearer.sasl.jaas.config", OAUTH_MODULE + " required "
                        + "unsecuredLoginStringClaim_sub=\"broker\" unsecuredValidatorPrincipalClaimName=\"user\" "
                        + "unsecuredValidatorRequiredScope=\"read write\" unsecuredValidatorAllowableClockSkewMs=\"500\";"));

        OAuthBearerSettings oauth = SaslSettings.forListener(config, "SASL_SSL", "SASL_SSL").oauthBearer();

        assertThat(oauth.unsecured()).isTrue();
        assertThat(oauth.subClaim()).isEqualTo("user");
        assertThat(oauth.scopeClaim()).isEqualTo("scope");
        assertThat(oauth.unsecuredRequiredScopes()).containsExactly("read", "write");
        assertThat(oauth.clockSkewMs()).isEqualTo(500);
    }

    @Test
    void kafkasJwksValidatorReadsTheListenersSettingsBeforeTheBrokers() {
        BrokerConfig config = new BrokerConfig(Map.of("sasl.enabled.mechanisms", "OAUTHBEARER",
                "listener.name.sasl_ssl.oauthbearer.sasl.server.callback.handler.class", JWKS_HANDLER,
                "sasl.oauthbearer.jwks.endpoint.url", "https://idp.example/keys",
                "listener.name.SASL_SSL.oauthbearer.sasl.oauthbearer.jwks.endpoint.url", "file:///etc/keys.json",
                "sasl.oauthbearer.expected.audience", "spool, kafka",
                "sasl.oauthbearer.expected.issuer", "https://idp.example"));

        OAuthBearerSettings oauth = SaslSettings.forListener(config, "SASL_SSL", "SASL_SSL").oauthBearer();

        assertThat(oauth.unsecured()).isFalse();
        assertThat(oauth.jwksUrl()).isEqualTo("file:///etc/keys.json");
        assertThat(oauth.expectedAudiences()).containsExactlyInAnyOrder("spool", "kafka");
        assertThat(oauth.expectedIssuer()).isEqualTo("https://idp.example");
        assertThat(oauth.clockSkewMs()).isEqualTo(30_000);
        assertThat(oauth.jwksRefreshMs()).isEqualTo(3_600_000);
        assertThat(oauth.subClaim()).isEqualTo("sub");
    }

    @Test
    void aValidatorThatCannotRunOrHasNoKeySetIsRefused() {
        assertThatThrownBy(() -> SaslSettings.forListener(new BrokerConfig(Map.of("sasl.enabled.mechanisms",
                "OAUTHBEARER", "listener.name.sasl_ssl.oauthbearer.sasl.server.callback.handler.class",
                "com.example.MyValidator")), "SASL_SSL", "SASL_SSL"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("com.example.MyValidator, which cannot run in Spool");
        assertThatThrownBy(() -> SaslSettings.forListener(new BrokerConfig(Map.of("sasl.enabled.mechanisms",
                "OAUTHBEARER", "listener.name.sasl_ssl.oauthbearer.sasl.server.callback.handler.class",
                JWKS_HANDLER)), "SASL_SSL", "SASL_SSL"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("set sasl.oauthbearer.jwks.endpoint.url");
    }

    @Test
    void aSessionsLongestLifeIsSetPerListenerAndMechanismOrForTheBroker() {
        BrokerConfig config = new BrokerConfig(Map.of("sasl.enabled.mechanisms", "PLAIN,OAUTHBEARER",
                "listener.name.sasl_ssl.plain.sasl.jaas.config", USERS, "connections.max.reauth.ms", "60000",
                "listener.name.sasl_ssl.oauthbearer.connections.max.reauth.ms", "5000"));

        ListenerSasl sasl = SaslSettings.forListener(config, "SASL_SSL", "SASL_SSL");

        assertThat(sasl.reauthMsByMechanism()).containsOnly(Map.entry("PLAIN", 60_000L),
                Map.entry("OAUTHBEARER", 5_000L));
        assertThat(SaslSettings.forListener(new BrokerConfig(Map.of("sasl.enabled.mechanisms", "OAUTHBEARER")),
                "SASL_SSL", "SASL_SSL").reauthMsByMechanism()).containsOnly(Map.entry("OAUTHBEARER", 0L));
        assertThatThrownBy(() -> new BrokerConfig(Map.of("connections.max.reauth.ms", "-1")).explicitValues()
                .size()).isInstanceOf(ConfigException.class);
    }
}

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
                "PLAIN,OAUTHBEARER", "listener.name.sasl_plaintext.plain.sasl.jaas.config", USERS)),
                "SASL_PLAINTEXT", "SASL_PLAINTEXT")).hasMessageContaining("SASL mechanism OAUTHBEARER");
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
}

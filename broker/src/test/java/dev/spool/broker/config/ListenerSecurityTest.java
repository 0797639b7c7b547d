package dev.spool.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ListenerSecurityTest {

    @Test
    void plaintextListenersStart() {
        BrokerConfig config = new BrokerConfig(Map.of("listeners", "PLAINTEXT://127.0.0.1:0"));

        assertThat(config.listeners()).containsExactly(new Endpoint("PLAINTEXT", "127.0.0.1", 0));
    }

    @Test
    void listenersOfEveryProtocolAfterAPlaintextOneAreAccepted() {
        BrokerConfig config = new BrokerConfig(Map.of("listeners", "PLAINTEXT://127.0.0.1:9092,SSL://127.0.0.1:9093,"
                + "SASL_PLAINTEXT://127.0.0.1:9094,SASL_SSL://127.0.0.1:9095"));

        assertThat(config.listeners()).extracting(config::securityProtocolOf)
                .containsExactly("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL");
    }

    @Test
    void anSslListenerAfterAPlaintextOneStarts() {
        BrokerConfig config = new BrokerConfig(Map.of("listeners", "PLAINTEXT://127.0.0.1:9092,SSL://127.0.0.1:9093"));

        assertThat(config.securityProtocolOf(config.listeners().get(1))).isEqualTo("SSL");
    }

    @Test
    void tlsWhereOtherNodesConnectIsRefused() {
        assertThatThrownBy(() -> new BrokerConfig(Map.of("listeners",
                "SSL://127.0.0.1:9093,PLAINTEXT://127.0.0.1:9092")))
                .hasMessageContaining("listener SSL://127.0.0.1:9093, which other brokers or controllers connect to, "
                        + "uses security protocol SSL");
        assertThatThrownBy(() -> new BrokerConfig(Map.of("process.roles", "broker,controller", "node.id", "1",
                "controller.quorum.voters", "1@127.0.0.1:9093", "controller.listener.names", "CONTROLLER",
                "listeners", "PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093",
                "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:SSL")))
                .hasMessageContaining("listener CONTROLLER://127.0.0.1:9093, which other brokers or controllers");
    }

    @Test
    void aCustomNameTakesItsProtocolFromTheMap() {
        BrokerConfig secure = new BrokerConfig(Map.of("listeners",
                "PLAINTEXT://127.0.0.1:9092,CLIENTS://127.0.0.1:9093",
                "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CLIENTS:SASL_SSL"));
        assertThat(secure.securityProtocolOf(secure.listeners().get(1))).isEqualTo("SASL_SSL");

        BrokerConfig plain = new BrokerConfig(Map.of("listeners", "clients://127.0.0.1:9092",
                "listener.security.protocol.map", "CLIENTS:plaintext"));
        assertThat(plain.listeners()).containsExactly(new Endpoint("clients", "127.0.0.1", 9092));
    }

    @Test
    void aMapThatRenamesPlaintextToASaslListenerIsRefusedWhereOtherNodesConnect() {
        // The name says PLAINTEXT, the map says SASL_SSL: the map wins, as in Kafka.
        assertThatThrownBy(() -> new BrokerConfig(Map.of("listeners", "PLAINTEXT://127.0.0.1:9092",
                "listener.security.protocol.map", "PLAINTEXT:SASL_SSL")))
                .hasMessageContaining("uses security protocol SASL_SSL");
    }

    @Test
    void anUnmappedListenerNameIsRefused() {
        assertThatThrownBy(() -> new BrokerConfig(Map.of("listeners", "PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093")))
                .hasMessageContaining("listener CONTROLLER://127.0.0.1:9093 in listeners has no security protocol")
                .hasMessageContaining("listener.security.protocol.map");
    }

    @Test
    void theFirstAdvertisedListenerIsWhereOtherNodesConnect() {
        assertThatThrownBy(() -> new BrokerConfig(Map.of("listeners", "PLAINTEXT://127.0.0.1:9092",
                "advertised.listeners", "SASL_SSL://broker.example.com:9093")))
                .hasMessageContaining("listener SASL_SSL://broker.example.com:9093, which other brokers or "
                        + "controllers connect to, uses security protocol SASL_SSL");
    }

    @Test
    void malformedMapsAreRefusedNamingTheSetting() {
        assertThatThrownBy(() -> new BrokerConfig(Map.of("listener.security.protocol.map", "PLAINTEXT")))
                .hasMessageContaining("invalid value 'PLAINTEXT' for listener.security.protocol.map");
        assertThatThrownBy(() -> new BrokerConfig(Map.of("listener.security.protocol.map", "PLAINTEXT:TLS")))
                .hasMessageContaining("unknown security protocol 'TLS'");
        assertThatThrownBy(() -> new BrokerConfig(Map.of("listener.security.protocol.map", "A:PLAINTEXT,a:SSL")))
                .hasMessageContaining("mapped twice");
    }

    @Test
    void onlyKafkasStandardAuthorizerOrNoneIsAccepted() {
        assertThatThrownBy(() -> new BrokerConfig(Map.of("authorizer.class.name", "kafka.security.authorizer.AclAuthorizer")))
                .hasMessageContaining("invalid value 'kafka.security.authorizer.AclAuthorizer' for "
                        + "authorizer.class.name");
        assertThat(new BrokerConfig(Map.of("authorizer.class.name",
                "org.apache.kafka.metadata.authorizer.StandardAuthorizer")).get(BrokerConfig.AUTHORIZER_CLASS_NAME))
                .isEqualTo("org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        assertThat(new BrokerConfig(Map.of("authorizer.class.name", " ")).get(BrokerConfig.AUTHORIZER_CLASS_NAME))
                .isBlank();
    }

    @Test
    void aSecureInterBrokerProtocolIsRefused() {
        assertThatThrownBy(() -> new BrokerConfig(Map.of("security.inter.broker.protocol", "SASL_SSL")))
                .hasMessageContaining("invalid value 'SASL_SSL' for security.inter.broker.protocol: not supported");
        assertThat(new BrokerConfig(Map.of("security.inter.broker.protocol", "plaintext")).listeners()).hasSize(1);
    }
}

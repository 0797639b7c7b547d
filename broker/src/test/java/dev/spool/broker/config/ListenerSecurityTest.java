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
    void aSingleNodeServesTlsOnItsFirstListenerSinceNoOtherNodeConnects() {
        BrokerConfig config = new BrokerConfig(Map.of("listeners", "SSL://127.0.0.1:9093,PLAINTEXT://127.0.0.1:9092"));

        assertThat(config.interBrokerSecurity()).isNull();
        assertThat(config.controllerSecurity()).isNull();
    }

    @Test
    void clusterNodesConnectWithTheirListenersTlsSettings() {
        BrokerConfig config = new BrokerConfig(cluster("INTERNAL:SSL,CONTROLLER:SSL,CLIENT:SASL_SSL",
                Map.of("ssl.keystore.location", "/keys/node.p12", "ssl.keystore.type", "PKCS12",
                        "ssl.truststore.location", "/keys/trust.p12", "ssl.truststore.type", "PKCS12",
                        "listener.name.controller.ssl.endpoint.identification.algorithm", "")));

        assertThat(config.interBrokerSecurity().listenerName()).isEqualTo("INTERNAL");
        assertThat(config.interBrokerSecurity().tls().keystoreLocation()).isEqualTo("/keys/node.p12");
        assertThat(config.interBrokerSecurity().verifyHostname()).as("Kafka's default, https").isTrue();
        assertThat(config.interBrokerSecurity().sasl()).isNull();
        assertThat(config.controllerSecurity().securityProtocol()).isEqualTo("SSL");
        assertThat(config.controllerSecurity().verifyHostname()).isFalse();
    }

    @Test
    void saslBetweenNodesLogsInWithTheMechanismAndTheJaasUsernameAndPassword() {
        BrokerConfig config = new BrokerConfig(cluster("INTERNAL:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT,CLIENT:PLAINTEXT",
                Map.of("sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-512",
                        "sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512",
                        "listener.name.internal.plain.sasl.jaas.config", PLAIN_USERS,
                        "listener.name.internal.scram-sha-512.sasl.jaas.config",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"node\" "
                                + "password=\"node-secret\";")));

        assertThat(config.interBrokerSecurity().sasl())
                .isEqualTo(new SaslLogin("SCRAM-SHA-512", "node", "node-secret"));
        assertThat(config.interBrokerSecurity().sasl().toString()).doesNotContain("node-secret");
        assertThat(config.controllerSecurity().isPlaintext()).isTrue();
    }

    @Test
    void saslBetweenNodesWithoutAMechanismOrALoginIsRefusedNamingTheSetting() {
        // Kafka's default mechanism, GSSAPI, is not one Spool's nodes log in with.
        assertThatThrownBy(() -> new BrokerConfig(cluster("INTERNAL:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT,CLIENT:PLAINTEXT",
                Map.of("sasl.enabled.mechanisms", "PLAIN", "listener.name.internal.plain.sasl.jaas.config",
                        PLAIN_USERS))))
                .hasMessageContaining("sasl.mechanism.inter.broker.protocol is GSSAPI");
        assertThatThrownBy(() -> new BrokerConfig(cluster("INTERNAL:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT,CLIENT:PLAINTEXT",
                Map.of("sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256", "sasl.mechanism.inter.broker.protocol",
                        "SCRAM-SHA-256", "listener.name.internal.plain.sasl.jaas.config", PLAIN_USERS))))
                .hasMessageContaining("set listener.name.internal.scram-sha-256.sasl.jaas.config");
        assertThatThrownBy(() -> new BrokerConfig(cluster("INTERNAL:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT,CLIENT:PLAINTEXT",
                Map.of("sasl.enabled.mechanisms", "PLAIN", "sasl.mechanism.inter.broker.protocol", "PLAIN",
                        "listener.name.internal.plain.sasl.jaas.config",
                        "org.apache.kafka.common.security.plain.PlainLoginModule required user_node=\"s\";"))))
                .hasMessageContaining("the username and password this node logs in to the other nodes with are not set");
    }

    @Test
    void aControllerListenerTheRaftPortCannotMatchIsRefused() {
        assertThatThrownBy(() -> new BrokerConfig(cluster("INTERNAL:PLAINTEXT,CONTROLLER:SASL_PLAINTEXT,CLIENT:PLAINTEXT",
                Map.of("sasl.enabled.mechanisms", "PLAIN", "sasl.mechanism.controller.protocol", "PLAIN",
                        "listener.name.controller.plain.sasl.jaas.config", PLAIN_USERS))))
                .hasMessageContaining("the quorum's Raft port can be secured with TLS only");
        assertThatThrownBy(() -> new BrokerConfig(cluster("INTERNAL:PLAINTEXT,CONTROLLER:SSL,CLIENT:PLAINTEXT",
                Map.of("ssl.keystore.type", "PEM", "ssl.keystore.location", "/keys/node.pem",
                        "ssl.truststore.location", "/keys/trust.jks"))))
                .hasMessageContaining("must be JKS or PKCS12 files");
    }

    @Test
    void theInterBrokerListenerIsNamedOrTheFirstThatIsNotAControllers() {
        assertThat(new BrokerConfig(cluster("INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT,CLIENT:PLAINTEXT", Map.of()))
                .interBrokerListenerName()).isEqualTo("INTERNAL");
        assertThat(new BrokerConfig(cluster("INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT,CLIENT:PLAINTEXT",
                Map.of("inter.broker.listener.name", "client"))).interBrokerListenerName()).isEqualTo("client");
        assertThatThrownBy(() -> new BrokerConfig(cluster("INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT,CLIENT:PLAINTEXT",
                Map.of("inter.broker.listener.name", "CLIENT", "security.inter.broker.protocol", "PLAINTEXT"))))
                .hasMessageContaining("only one of inter.broker.listener.name and security.inter.broker.protocol");
        assertThatThrownBy(() -> new BrokerConfig(cluster("INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT,CLIENT:PLAINTEXT",
                Map.of("inter.broker.listener.name", "CONTROLLER"))))
                .hasMessageContaining("is a controller listener");
        // As Kafka: security.inter.broker.protocol names a listener by its protocol's name.
        assertThatThrownBy(() -> new BrokerConfig(cluster("INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT,CLIENT:PLAINTEXT",
                Map.of("security.inter.broker.protocol", "SASL_SSL"))))
                .hasMessageContaining("the inter-broker listener SASL_SSL is not one of this node's listeners");
    }

    private static final String PLAIN_USERS = "org.apache.kafka.common.security.plain.PlainLoginModule required "
            + "username=\"node\" password=\"node-secret\" user_node=\"node-secret\";";

    /** Node 1 of three combined nodes, with listeners INTERNAL, CONTROLLER and CLIENT mapped by {@code map}. */
    private static Map<String, String> cluster(String map, Map<String, String> more) {
        Map<String, String> settings = new java.util.HashMap<>(Map.of("process.roles", "broker,controller",
                "node.id", "1", "controller.quorum.voters", "1@127.0.0.1:9093,2@127.0.0.1:9193,3@127.0.0.1:9293",
                "cluster.id", "MkU3OEVBNTcwNTJENDM2Qg", "controller.listener.names", "CONTROLLER",
                "listeners", "INTERNAL://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093,CLIENT://127.0.0.1:9094",
                "listener.security.protocol.map", map));
        settings.putAll(more);
        return settings;
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
    void anUnmappedListenerNameIsRefused() {
        assertThatThrownBy(() -> new BrokerConfig(Map.of("listeners", "PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093")))
                .hasMessageContaining("listener CONTROLLER://127.0.0.1:9093 in listeners has no security protocol")
                .hasMessageContaining("listener.security.protocol.map");
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
    void securityInterBrokerProtocolTakesKafkasProtocols() {
        assertThatThrownBy(() -> new BrokerConfig(Map.of("security.inter.broker.protocol", "TLS")))
                .hasMessageContaining("invalid value 'TLS' for security.inter.broker.protocol");
        assertThat(new BrokerConfig(Map.of("security.inter.broker.protocol", "plaintext")).listeners()).hasSize(1);
    }
}

package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialsDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SASL/SCRAM (issue 22) on a SASL_SSL listener: users made with {@code kafka-configs --entity-type users}
 * (AlterUserScramCredentials, kept as metadata records), then Kafka's Java client, kcat and kafkajs authenticate
 * with SCRAM-SHA-256 and SCRAM-SHA-512; a wrong password is refused; the credentials survive a restart.
 */
class SaslScramIT {

    @TempDir
    static Path dir;
    private static TestCertificates certificates;
    private static Path server;
    private static SpoolProcess broker;

    @BeforeAll
    static void start() throws Exception {
        certificates = TestCertificates.authority(dir);
        server = certificates.signed("server", "CN=localhost", "ip:127.0.0.1,dns:localhost");
        broker = startBroker();
        for (String[] user : new String[][] {{"alice", "SCRAM-SHA-512"}, {"bob", "SCRAM-SHA-256"}}) {
            ExternalCommand.Result created = KafkaTool.run("org.apache.kafka.tools.ConfigCommand", "--bootstrap-server",
                    broker.bootstrap(), "--alter", "--entity-type", "users", "--entity-name", user[0], "--add-config",
                    user[1] + "=[iterations=8192,password=" + user[0] + "-secret]");
            assertThat(created.exitCode()).as(created.output()).isZero();
        }
    }

    private static SpoolProcess startBroker() throws Exception {
        return SpoolProcess.startIn(dir.resolve("data"),
                "listeners=PLAINTEXT://127.0.0.1:0,SASL_SSL://127.0.0.1:0", "group.initial.rebalance.delay.ms=0",
                "sasl.enabled.mechanisms=SCRAM-SHA-256,SCRAM-SHA-512",
                "ssl.keystore.type=PKCS12", "ssl.keystore.location=" + server,
                "ssl.keystore.password=" + TestCertificates.PASSWORD);
    }

    @AfterAll
    static void stop() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void kafkaConfigsDescribesTheUsersMechanismsAndIterations() throws Exception {
        ExternalCommand.Result described = KafkaTool.run("org.apache.kafka.tools.ConfigCommand", "--bootstrap-server",
                broker.bootstrap(), "--describe", "--entity-type", "users", "--entity-name", "alice");
        assertThat(described.exitCode()).as(described.output()).isZero();
        assertThat(described.output()).contains("SCRAM-SHA-512=iterations=8192");
        try (Admin admin = Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap()))) {
            Map<String, UserScramCredentialsDescription> users = admin.describeUserScramCredentials().all()
                    .get(30, TimeUnit.SECONDS);
            assertThat(users.keySet()).contains("alice", "bob");
            assertThat(users.get("bob").credentialInfos())
                    .containsExactly(new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 8192));
        }
    }

    @Test
    void javaClientsAuthenticateWithEitherMechanism() throws Exception {
        SecureClients.roundTrip(client("alice", "alice-secret", "SCRAM-SHA-512"), "scram-512");
        SecureClients.roundTrip(client("bob", "bob-secret", "SCRAM-SHA-256"), "scram-256");
    }

    @Test
    void aWrongPasswordOrTheWrongMechanismIsRefused() {
        assertThat(SecureClients.describeClusterFailure(client("alice", "bob-secret", "SCRAM-SHA-512")))
                .isInstanceOf(SaslAuthenticationException.class);
        assertThat(SecureClients.describeClusterFailure(client("alice", "alice-secret", "SCRAM-SHA-256")))
                .as("alice has a SCRAM-SHA-512 credential only").isInstanceOf(SaslAuthenticationException.class);
    }

    @Test
    void kcatAndKafkajsAuthenticateWithScram() throws Exception {
        String bootstrap = "127.0.0.1:" + broker.listenerPorts().get("SASL_SSL");
        String[] sasl = {"-b", bootstrap, "-X", "security.protocol=sasl_ssl", "-X",
            "ssl.ca.location=" + certificates.authorityPem(), "-X", "sasl.mechanisms=SCRAM-SHA-512", "-X",
            "sasl.username=alice", "-X", "sasl.password=alice-secret"};
        ExternalCommand.Result produced = ExternalCommand.runWithInput(dir, 60, "one\ntwo\n".getBytes(),
                SecureClients.concat(new String[] {"kcat", "-P", "-t", "kcat-scram"}, sasl));
        assertThat(produced.exitCode()).as(produced.output()).isZero();
        ExternalCommand.Result consumed = ExternalCommand.run(dir, 60,
                SecureClients.concat(new String[] {"kcat", "-C", "-t", "kcat-scram", "-o", "beginning", "-e"}, sasl));
        assertThat(consumed.exitCode()).as(consumed.output()).isZero();
        assertThat(consumed.output().lines().filter(line -> !line.startsWith("%"))).containsExactly("one", "two");

        ExternalCommand.Result kafkajs = ExternalCommand.run(SpoolProcess.repositoryRoot().resolve("it/js"), 90,
                "node", "sasl-round-trip.js", bootstrap, "kafkajs-scram", "scram-sha-256", "bob", "bob-secret",
                certificates.authorityPem().toString());
        assertThat(kafkajs.exitCode()).as(kafkajs.output()).isZero();
        assertThat(kafkajs.output()).contains("[\"a\",\"b\",\"c\"]");
    }

    @Test
    void theCredentialsSurviveARestart() throws Exception {
        broker.stop(); // keeps the data directory, unlike close()
        broker = startBroker();
        assertThat(SecureClients.describeClusterFailure(client("bob", "bob-secret", "SCRAM-SHA-256"))).isNull();
    }

    private static Map<String, Object> client(String user, String password, String mechanism) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:" + broker.listenerPorts().get("SASL_SSL"));
        settings.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_SSL");
        settings.put(SaslConfigs.SASL_MECHANISM, mechanism);
        settings.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.scram.ScramLoginModule "
                + "required username=\"" + user + "\" password=\"" + password + "\";");
        settings.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12");
        settings.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, certificates.truststore().toString());
        settings.put(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, TestCertificates.PASSWORD);
        return settings;
    }
}

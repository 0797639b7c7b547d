package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SSL listeners (issue 22) served to Kafka's Java client and kcat: one broker with a PLAINTEXT listener (first, for
 * other nodes), an SSL one requiring a client certificate, one mapped to SSL that only requests one and maps names
 * with {@code ssl.principal.mapping.rules}, one whose key is a PEM file, and one whose key store is renewed while the
 * broker runs; keys and certificates made with keytool, signed by a test authority.
 */
class TlsListenerIT {


    @TempDir
    static Path dir;
    private static TestCertificates certificates;
    private static Path alice;
    private static Path bob;
    private static Path renewed;
    private static SpoolProcess broker;
    private static Map<String, Integer> ports;

    @BeforeAll
    static void start() throws Exception {
        certificates = TestCertificates.authority(dir);
        Path server = certificates.signed("server", "CN=localhost", "ip:127.0.0.1,dns:localhost");
        renewed = dir.resolve("renewed.p12");
        Files.copy(server, renewed);
        alice = certificates.signed("alice", "CN=alice,OU=eng,O=Spool", null);
        bob = certificates.signed("bob", "CN=bob,OU=ops,O=Spool", null);
        broker = SpoolProcess.startIn(dir.resolve("data"),
                "listeners=PLAINTEXT://127.0.0.1:0,SSL://127.0.0.1:0,REQUESTED://127.0.0.1:0,PEM://127.0.0.1:0,"
                        + "RENEW://127.0.0.1:0",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,SSL:SSL,REQUESTED:SSL,PEM:SSL,RENEW:SSL",
                "listener.name.renew.ssl.keystore.location=" + renewed,
                "ssl.keystore.type=PKCS12", "ssl.keystore.location=" + server,
                "ssl.keystore.password=" + TestCertificates.PASSWORD,
                "ssl.truststore.type=PKCS12", "ssl.truststore.location=" + certificates.truststore(),
                "ssl.truststore.password=" + TestCertificates.PASSWORD,
                "listener.name.ssl.ssl.client.auth=required",
                "listener.name.requested.ssl.client.auth=requested",
                "listener.name.requested.ssl.principal.mapping.rules=RULE:^CN=bob,.*$/bob/",
                "listener.name.pem.ssl.keystore.type=PEM",
                "listener.name.pem.ssl.keystore.location=" + certificates.pem("server"));
        ports = broker.listenerPorts();
    }

    @AfterAll
    static void stop() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void aClientWithACertificateProducesAndConsumesOverTls() throws Exception {
        Map<String, Object> tls = tls("SSL", alice);
        try (Admin admin = Admin.create(
                SecureClients.with(tls, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000))) {
            admin.createTopics(List.of(new NewTopic("tls-topic", 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        List<String> sent = new ArrayList<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(SecureClients.with(tls,
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new StringSerializer())) {
            List<Future<?>> acks = new ArrayList<>();
            for (int i = 0; i < 2_000; i++) {
                String value = i + " " + "x".repeat(1_000); // 2 MB: fetches of several segment file regions
                sent.add(value);
                acks.add(producer.send(new ProducerRecord<>("tls-topic", i % 2, null, value)));
            }
            for (Future<?> ack : acks) {
                ack.get(60, TimeUnit.SECONDS);
            }
        }
        List<String> read = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(SecureClients.with(tls,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(),
                new StringDeserializer())) {
            consumer.assign(List.of(new TopicPartition("tls-topic", 0), new TopicPartition("tls-topic", 1)));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (read.size() < sent.size() && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    read.add(record.value());
                }
            }
        }
        assertThat(read).containsExactlyInAnyOrderElementsOf(sent);
    }

    @Test
    void aClientWithoutACertificateIsRefusedWhereOneIsRequired() {
        assertThat(SecureClients.describeClusterFailure(tls("SSL", null)))
                .isInstanceOf(SslAuthenticationException.class);
    }

    @Test
    void aClientThatDoesNotTrustTheBrokersAuthorityIsRefused() throws Exception {
        TestCertificates other = TestCertificates.authority(Files.createDirectories(dir.resolve("other")));
        Map<String, Object> tls = tls("REQUESTED", null);
        tls.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, other.truststore().toString());
        assertThat(SecureClients.describeClusterFailure(tls)).isInstanceOf(SslAuthenticationException.class);
    }

    @Test
    void whereACertificateIsOnlyRequestedItsNameMustMapToAPrincipal() throws Exception {
        assertThat(SecureClients.describeClusterFailure(tls("REQUESTED", null))).as("no certificate: User:ANONYMOUS")
                .isNull();
        assertThat(SecureClients.describeClusterFailure(tls("REQUESTED", bob))).as("CN=bob,...: User:bob").isNull();
        // The broker closes the connection and the client retries: 3 s settle it, the broker's log says why.
        assertThat(SecureClients.describeClusterFailure(tls("REQUESTED", alice), 3_000))
                .as("CN=alice,...: no rule maps it").isNotNull();
        assertThat(broker.awaitOutput(line -> line.contains("no ssl.principal.mapping.rules rule maps")
                && line.contains("alice"), 10_000)).as("the broker says why it closed the connection").isTrue();
    }

    @Test
    void kcatProducesAndConsumesOverTlsWithAPemKey() throws Exception {
        String bootstrap = "127.0.0.1:" + ports.get("PEM");
        String[] tls = {"-X", "security.protocol=ssl", "-X", "ssl.ca.location=" + certificates.authorityPem()};
        ExternalCommand.Result produced = ExternalCommand.runWithInput(dir, 60, "one\ntwo\nthree\n".getBytes(),
                SecureClients.concat(new String[] {"kcat", "-P", "-b", bootstrap, "-t", "kcat-tls"}, tls));
        assertThat(produced.exitCode()).as(produced.output()).isZero();
        ExternalCommand.Result consumed = ExternalCommand.run(dir, 60,
                SecureClients.concat(new String[] {"kcat", "-C", "-b", bootstrap, "-t", "kcat-tls", "-o", "beginning",
                    "-e"}, tls));
        assertThat(consumed.exitCode()).as(consumed.output()).isZero();
        assertThat(consumed.output().lines().filter(line -> !line.startsWith("%"))).containsExactly("one", "two",
                "three");
    }

    @Test
    void passwordsAreDescribedAsSensitiveAndNeverShown() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap()))) {
            Config config = admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.BROKER, "1")))
                    .all().get(30, TimeUnit.SECONDS).values().iterator().next();
            ConfigEntry password = config.get("ssl.keystore.password");
            assertThat(password.isSensitive()).isTrue();
            assertThat(password.value()).isNull();
            assertThat(password.source()).isEqualTo(ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG);
            assertThat(config.get("ssl.keystore.type").value()).isEqualTo("PKCS12");
        }
        assertThat(String.join("\n", broker.output())).doesNotContain(TestCertificates.PASSWORD);
    }

    @Test
    void aRenewedKeyStoreServesNewConnectionsWithoutARestart() throws Exception {
        assertThat(serverCertificate("RENEW")).isEqualTo("CN=localhost");
        try (Admin admin = Admin.create(tls("RENEW", null))) {
            admin.describeCluster().clusterId().get(30, TimeUnit.SECONDS);
            Path second = certificates.signed("second", "CN=localhost,O=Second", "ip:127.0.0.1,dns:localhost");
            Files.copy(second, renewed, StandardCopyOption.REPLACE_EXISTING);
            MetadataQuorumTool.awaitTrue(() -> serverCertificate("RENEW").contains("O=Second"),
                    "new connections served with the renewed certificate");
            // The connection opened before goes on; new clients connect with the renewed certificate.
            admin.describeCluster().clusterId().get(30, TimeUnit.SECONDS);
            assertThat(SecureClients.describeClusterFailure(tls("RENEW", null))).isNull();
        }
        // A key store that does not load is not taken: the broker goes on with the one it has.
        Files.writeString(renewed, "not a key store");
        // The files are looked at as connections come, at most once a second: this one looks after the rewrite.
        Thread.sleep(1_500);
        assertThat(serverCertificate("RENEW")).contains("O=Second");
    }

    /** The subject of the certificate the listener presents to a new connection. */
    private static String serverCertificate(String listener) throws Exception {
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(certificates.truststore())) {
            trusted.load(in, TestCertificates.PASSWORD.toCharArray());
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", ports.get(listener))) {
            socket.setSoTimeout(10_000);
            socket.startHandshake();
            return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSubjectX500Principal()
                    .getName();
        }
    }

    /** A client's settings for the listener named {@code listener}, with {@code keystore} as its certificate. */
    private static Map<String, Object> tls(String listener, Path keystore) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + ports.get(listener));
        settings.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL");
        settings.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12");
        settings.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, certificates.truststore().toString());
        settings.put(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, TestCertificates.PASSWORD);
        if (keystore != null) {
            settings.put(SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "PKCS12");
            settings.put(SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, keystore.toString());
            settings.put(SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, TestCertificates.PASSWORD);
        }
        return settings;
    }

}

package dev.spool.it;

import static dev.spool.it.MetadataQuorumTool.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster of three nodes that speak TLS and SASL to each other (issue 22): the inter-broker listener is SASL_SSL
 * (the nodes log in with SCRAM-SHA-512 as {@code node}, whose credential the admin creates through PLAIN once the
 * cluster is up, as Kafka's operators do without {@code kafka-storage format --add-scram}), the controller listener
 * SSL with client certificates required (the node as {@code CN=node}), and ACLs are on with only those principals
 * and the admin as super users, so a node that reached another unauthenticated (as {@code User:ANONYMOUS}) would be
 * refused its replica fetches, registration and forwarding. Replication, an election after a SIGKILL and a restarted
 * node catching up go through them, with SASL sessions of 5 s that the nodes renew on new connections; the quorum's
 * Raft port speaks mutual TLS with the nodes only. (A build whose nodes did not log in failed the first test, one
 * whose Raft port spoke PLAINTEXT the second.)
 */
class SecureClusterIT {

    private static final String PASSWORD = TestCertificates.PASSWORD;
    private static final String PLAIN_USERS = "org.apache.kafka.common.security.plain.PlainLoginModule required "
            + "user_admin=\"admin-secret\";";
    private static final String NODE_LOGIN = "org.apache.kafka.common.security.scram.ScramLoginModule required "
            + "username=\"node\" password=\"node-secret\";";

    @TempDir
    static Path dir;
    private static TestCertificates certificates;
    private static Path nodeStore;
    private static SpoolCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        certificates = TestCertificates.authority(dir);
        nodeStore = certificates.signed("node", "CN=node", "ip:127.0.0.1,dns:localhost");
        // SpoolCluster names its listeners PLAINTEXT (the first, so the inter-broker one) and CONTROLLER; a name is
        // not a protocol, as in Kafka: the map makes them SASL_SSL and SSL.
        cluster = SpoolCluster.start(3,
                "listener.security.protocol.map=PLAINTEXT:SASL_SSL,CONTROLLER:SSL",
                "ssl.keystore.location=" + nodeStore, "ssl.keystore.type=PKCS12", "ssl.keystore.password=" + PASSWORD,
                "ssl.truststore.location=" + certificates.truststore(), "ssl.truststore.type=PKCS12",
                "ssl.truststore.password=" + PASSWORD,
                "listener.name.controller.ssl.client.auth=required",
                "sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-512", "sasl.mechanism.inter.broker.protocol=SCRAM-SHA-512",
                "listener.name.plaintext.plain.sasl.jaas.config=" + PLAIN_USERS,
                "listener.name.plaintext.scram-sha-512.sasl.jaas.config=" + NODE_LOGIN,
                "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                "super.users=User:node;User:CN=node;User:admin",
                // Sessions of 5 s: the nodes retire their connections and log in again on new ones as they go.
                "connections.max.reauth.ms=5000",
                "broker.session.timeout.ms=3000", "broker.heartbeat.interval.ms=500");
        try (Admin admin = Admin.create(client())) {
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("node",
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), "node-secret")))
                    .all().get(30, TimeUnit.SECONDS);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void replicationElectionsAndACaughtUpRestartGoThroughTheNodesLogins() throws Exception {
        try (Admin admin = Admin.create(client())) {
            admin.createTopics(List.of(new NewTopic("secured", 3, (short) 3)
                    .configs(Map.of("min.insync.replicas", "2")))).all().get(60, TimeUnit.SECONDS);
            ReplicatedTopics.awaitEveryReplicaInSync(admin, cluster, "secured");
            List<String> sent = new ArrayList<>(produce("before ", 300));
            int leader = ReplicatedTopics.partition(admin, "secured", 0).leader().id();
            cluster.kill(leader);
            awaitTrue(() -> leaderOf(admin, 0) != leader && leaderOf(admin, 0) >= 0,
                    "a new leader of partition 0 after node " + leader + " was killed");
            sent.addAll(produce("during ", 300));
            cluster.restart(leader);
            // The restarted node logs in to the others again and fetches what it missed.
            ReplicatedTopics.awaitEveryReplicaInSync(admin, cluster, "secured");
            sent.addAll(produce("after ", 300));
            assertThat(readAll(sent.size())).containsExactlyInAnyOrderElementsOf(sent);
        }
    }

    @Test
    void theRaftPortTakesOnlyPeersWithACertificateTheTrustStoreVouchesFor() throws Exception {
        int raftPort = Integer.parseInt(cluster.controller(1).split(":")[1]) + 1;
        // A node's certificate: the handshake completes and the port speaks (gRPC over TLS).
        try (SSLSocket socket = handshake(raftPort, nodeStore)) {
            assertThat(socket.getSession().getPeerCertificates()).isNotEmpty();
        }
        // No certificate: refused.
        assertThatThrownBy(() -> handshake(raftPort, null).close()).isInstanceOf(java.io.IOException.class);
        // A client's certificate from the same authority: with ACLs on, only super users are Raft peers.
        Path client = certificates.signed("client", "CN=client", "ip:127.0.0.1");
        assertThatThrownBy(() -> handshake(raftPort, client).close()).isInstanceOf(java.io.IOException.class);
        // A certificate of another authority: refused.
        TestCertificates other = TestCertificates.authority(Files.createDirectories(dir.resolve("other")));
        Path stranger = other.signed("stranger", "CN=node", "ip:127.0.0.1");
        assertThatThrownBy(() -> handshake(raftPort, stranger).close()).isInstanceOf(java.io.IOException.class);
    }

    /** A TLS client connection to 127.0.0.1:{@code port} presenting {@code keyStore} (or nothing), read once. */
    private static SSLSocket handshake(int port, Path keyStore) throws Exception {
        KeyManagerFactory keys = null;
        if (keyStore != null) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(keyStore)) {
                store.load(in, PASSWORD.toCharArray());
            }
            keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, PASSWORD.toCharArray());
        }
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(certificates.truststore())) {
            trusted.load(in, PASSWORD.toCharArray());
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket();
        try {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(5_000);
            socket.setEnabledProtocols(new String[] {"TLSv1.3"});
            socket.setSSLParameters(withAlpn(socket));
            socket.startHandshake();
            // In TLS 1.3 the server checks the client's certificate after the client's side is done: a refusal comes
            // as an alert on the first read.
            socket.getOutputStream().write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            socket.getOutputStream().write(new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0}); // an empty SETTINGS frame
            socket.getOutputStream().flush();
            if (socket.getInputStream().read() < 0) {
                throw new java.io.EOFException("closed by the Raft port");
            }
            return socket;
        } catch (Exception e) {
            socket.close();
            throw e;
        }
    }

    private static javax.net.ssl.SSLParameters withAlpn(SSLSocket socket) {
        javax.net.ssl.SSLParameters parameters = socket.getSSLParameters();
        parameters.setApplicationProtocols(new String[] {"h2"}); // gRPC's servers take HTTP/2 only
        return parameters;
    }

    /** A client of the nodes' SASL_SSL listeners, logged in as admin. */
    private static Map<String, Object> client() {
        Map<String, Object> settings = new HashMap<>();
        settings.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap());
        settings.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_SSL");
        settings.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, certificates.truststore().toString());
        settings.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12");
        settings.put(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, PASSWORD);
        settings.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        settings.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.plain.PlainLoginModule required "
                + "username=\"admin\" password=\"admin-secret\";");
        settings.put(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
        return settings;
    }

    private static List<String> produce(String prefix, int count) throws Exception {
        Map<String, Object> settings = client();
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000);
        List<String> values = new ArrayList<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(settings, new StringSerializer(),
                new StringSerializer())) {
            List<java.util.concurrent.Future<?>> sends = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String value = prefix + i;
                values.add(value);
                sends.add(producer.send(new ProducerRecord<>("secured", i % 3, null, value)));
            }
            for (java.util.concurrent.Future<?> send : sends) {
                send.get(60, TimeUnit.SECONDS);
            }
        }
        return values;
    }

    private static List<String> readAll(int expected) {
        Map<String, Object> settings = client();
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(settings, new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> partitions = List.of(new TopicPartition("secured", 0),
                    new TopicPartition("secured", 1), new TopicPartition("secured", 2));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (values.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    values.add(record.value());
                }
            }
        }
        return values;
    }

    private static int leaderOf(Admin admin, int partition) throws Exception {
        TopicPartitionInfo info = ReplicatedTopics.partition(admin, "secured", partition);
        return info.leader() == null ? -1 : info.leader().id();
    }
}

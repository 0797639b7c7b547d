package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeResponse;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Re-authentication (KIP-368, issue 22) with {@code connections.max.reauth.ms}: a session's lifetime is told at
 * authentication (a bearer token's expiry if sooner); a connection authenticates again on itself, as the same
 * principal; one that does not is closed at its next request once the session has ended. Kafka's Java producer
 * re-authenticates on its own and keeps producing.
 */
class SaslReauthenticationIT {

    private static final long SESSION_MS = 2_000;
    private static final String USERS = "org.apache.kafka.common.security.plain.PlainLoginModule required "
            + "user_alice=\"alice-secret\" user_bob=\"bob-secret\";";

    @TempDir
    static java.nio.file.Path dir;
    private static SpoolProcess broker;
    private static Map<String, Integer> ports;

    @BeforeAll
    static void start() throws Exception {
        broker = SpoolProcess.startIn(dir.resolve("data"),
                "listeners=PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0,TOKENS://127.0.0.1:0",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,"
                        + "TOKENS:SASL_PLAINTEXT",
                "listener.name.sasl_plaintext.sasl.enabled.mechanisms=PLAIN",
                "listener.name.sasl_plaintext.plain.sasl.jaas.config=" + USERS,
                "listener.name.tokens.sasl.enabled.mechanisms=OAUTHBEARER",
                "connections.max.reauth.ms=" + SESSION_MS,
                "listener.name.tokens.oauthbearer.connections.max.reauth.ms=60000");
        ports = broker.listenerPorts();
    }

    @AfterAll
    static void stop() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void aConnectionAuthenticatesAgainOnItselfAndIsClosedOnceItsSessionHasEnded() throws Exception {
        try (RawConnection connection = new RawConnection(ports.get("SASL_PLAINTEXT"))) {
            long start = System.currentTimeMillis();
            long lifetime = plain(connection, "alice", "alice-secret").data().sessionLifetimeMs();
            assertThat(lifetime).isPositive().isLessThanOrEqualTo(SESSION_MS);
            assertThat(metadataError(connection)).isEqualTo(Errors.NONE);

            Thread.sleep(SESSION_MS / 2);
            long again = plain(connection, "alice", "alice-secret").data().sessionLifetimeMs();
            long renewed = System.currentTimeMillis();
            assertThat(again).as("a new session").isPositive().isLessThanOrEqualTo(SESSION_MS);
            Thread.sleep(Math.max(0, start + lifetime + 300 - System.currentTimeMillis()));
            assertThat(metadataError(connection)).as("past the first session's end, within the second")
                    .isEqualTo(Errors.NONE);

            Thread.sleep(Math.max(0, renewed + again + 200 - System.currentTimeMillis()));
            assertThat(catchThrowable(() -> metadataError(connection)))
                    .as("a request after the session ended").isInstanceOf(java.io.IOException.class);
        }
    }

    @Test
    void reAuthenticatingAsAnotherPrincipalOrWithAVersionZeroHandshakeIsRefusedAndCloses() throws Exception {
        try (RawConnection connection = new RawConnection(ports.get("SASL_PLAINTEXT"))) {
            plain(connection, "alice", "alice-secret");
            SaslAuthenticateResponse refused = plain(connection, "bob", "bob-secret");
            assertThat(Errors.forCode(refused.data().errorCode())).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED);
            assertThat(refused.data().errorMessage()).contains("Cannot change principals");
            assertThat(catchThrowable(() -> metadataError(connection))).isInstanceOf(java.io.IOException.class);
        }
        try (RawConnection connection = new RawConnection(ports.get("SASL_PLAINTEXT"))) {
            plain(connection, "alice", "alice-secret");
            SaslHandshakeResponse v0 = (SaslHandshakeResponse) connection.send(ApiKeys.SASL_HANDSHAKE, (short) 0,
                    new SaslHandshakeRequestData().setMechanism("PLAIN"));
            assertThat(Errors.forCode(v0.data().errorCode())).as("re-authentication needs SaslAuthenticate")
                    .isEqualTo(Errors.ILLEGAL_SASL_STATE);
            assertThat(catchThrowable(() -> metadataError(connection))).isInstanceOf(java.io.IOException.class);
        }
    }

    /** The answer to a re-authentication handshake comes after those to the requests before it, as from Kafka. */
    @Test
    void aReAuthenticationHandshakeIsAnsweredAfterTheRequestsBeforeIt() throws Exception {
        try (Admin admin = Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap()))) {
            admin.createTopics(java.util.List.of(new NewTopic("held", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        try (RawConnection connection = new RawConnection(ports.get("SASL_PLAINTEXT"))) {
            plain(connection, "alice", "alice-secret");
            // A fetch of an empty partition waits up to 1 s for data; the handshake is sent right behind it.
            RequestHeader fetch = connection.write(ApiKeys.FETCH, (short) 4, new FetchRequestData().setMaxWaitMs(1_000)
                    .setMinBytes(1).setTopics(java.util.List.of(new FetchRequestData.FetchTopic().setTopic("held")
                            .setPartitions(java.util.List.of(new FetchRequestData.FetchPartition().setPartition(0)
                                    .setFetchOffset(0).setPartitionMaxBytes(1024))))));
            RequestHeader handshake = connection.write(ApiKeys.SASL_HANDSHAKE, (short) 1,
                    new SaslHandshakeRequestData().setMechanism("PLAIN"));

            assertThat(connection.receive(fetch)).as("the fetch's answer first").isInstanceOf(FetchResponse.class);
            SaslHandshakeResponse answer = (SaslHandshakeResponse) connection.receive(handshake);
            assertThat(Errors.forCode(answer.data().errorCode())).isEqualTo(Errors.NONE);
        }
    }

    @Test
    void aBearerTokensExpiryShortensTheSession() throws Exception {
        long now = System.currentTimeMillis() / 1000;
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        String token = base64.encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + base64.encodeToString(("{\"sub\":\"carol\",\"iat\":" + now + ",\"exp\":" + (now + 5) + "}")
                        .getBytes(StandardCharsets.UTF_8)) + ".";
        try (RawConnection connection = new RawConnection(ports.get("TOKENS"))) {
            handshake(connection, "OAUTHBEARER");
            SaslAuthenticateResponse answer = (SaslAuthenticateResponse) connection.send(ApiKeys.SASL_AUTHENTICATE,
                    (short) 2, new SaslAuthenticateRequestData().setAuthBytes(("n,,\u0001auth=Bearer " + token
                            + "\u0001\u0001").getBytes(StandardCharsets.UTF_8)));
            assertThat(Errors.forCode(answer.data().errorCode())).isEqualTo(Errors.NONE);
            assertThat(answer.data().sessionLifetimeMs()).as("the token's 5 s, not the listener's 60 s nor the broker's 2 s")
                    .isGreaterThan(SESSION_MS).isLessThanOrEqualTo(5_000);
        }
    }

    @Test
    void kafkasProducerReAuthenticatesAndKeepsProducing() throws Exception {
        Map<String, Object> client = new HashMap<>();
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + ports.get("SASL_PLAINTEXT"));
        client.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        client.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        client.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.plain.PlainLoginModule required "
                + "username=\"alice\" password=\"alice-secret\";");
        try (Admin admin = Admin.create(client)) {
            admin.createTopics(java.util.List.of(new NewTopic("reauth", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        // Sends without waiting, five requests in flight: re-authentication starts with responses still to come.
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(SecureClients.with(client,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5,
                ProducerConfig.LINGER_MS_CONFIG, 0), new StringSerializer(), new StringSerializer())) {
            java.util.List<java.util.concurrent.Future<?>> sends = new java.util.ArrayList<>();
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(4 * SESSION_MS);
            while (System.nanoTime() < end) {
                for (int i = 0; i < 20; i++) {
                    sends.add(producer.send(new ProducerRecord<>("reauth", "record " + sends.size())));
                }
                Thread.sleep(5);
            }
            for (java.util.concurrent.Future<?> send : sends) {
                send.get(30, TimeUnit.SECONDS);
            }
            assertThat(metric(producer.metrics(), "successful-reauthentication-total"))
                    .as("re-authentications over four session lifetimes").isGreaterThanOrEqualTo(2);
            assertThat(metric(producer.metrics(), "failed-reauthentication-total")).isZero();
        }
    }

    private static double metric(Map<MetricName, ? extends Metric> metrics, String name) {
        return metrics.entrySet().stream().filter(entry -> entry.getKey().name().equals(name)
                        && entry.getKey().group().equals("producer-metrics"))
                .mapToDouble(entry -> ((Number) entry.getValue().metricValue()).doubleValue()).sum();
    }

    private static void handshake(RawConnection connection, String mechanism) throws Exception {
        SaslHandshakeResponse handshake = (SaslHandshakeResponse) connection.send(ApiKeys.SASL_HANDSHAKE, (short) 1,
                new SaslHandshakeRequestData().setMechanism(mechanism));
        assertThat(Errors.forCode(handshake.data().errorCode())).isEqualTo(Errors.NONE);
    }

    private static SaslAuthenticateResponse plain(RawConnection connection, String user, String password)
            throws Exception {
        return connection.authenticatePlain(user, password);
    }

    private static Errors metadataError(RawConnection connection) throws Exception {
        MetadataResponse metadata = (MetadataResponse) connection.send(ApiKeys.METADATA, (short) 12,
                new MetadataRequestData().setTopics(null));
        return Errors.forCode(metadata.data().errorCode());
    }
}

package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.spool.it.reliability.RawRequest;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.UnsupportedSaslMechanismException;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.RequestUtils;
import org.apache.kafka.common.requests.SaslHandshakeResponse;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SASL/PLAIN (issue 22) on SASL_PLAINTEXT and SASL_SSL listeners, with users in Kafka's JAAS form, served to
 * Kafka's Java client and kcat; before a connection authenticates only ApiVersions and the SASL requests are
 * answered; the v0 handshake's bare-token framing works too.
 */
class SaslPlainIT {

    private static final String USERS = "org.apache.kafka.common.security.plain.PlainLoginModule required "
            + "user_alice=\"alice-secret\" user_bob=\"bob-secret\";";

    @TempDir
    static Path dir;
    private static TestCertificates certificates;
    private static SpoolProcess broker;
    private static Map<String, Integer> ports;

    @BeforeAll
    static void start() throws Exception {
        certificates = TestCertificates.authority(dir);
        Path server = certificates.signed("server", "CN=localhost", "ip:127.0.0.1,dns:localhost");
        broker = SpoolProcess.startIn(dir.resolve("data"),
                "listeners=PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0,SASL_SSL://127.0.0.1:0",
                "group.initial.rebalance.delay.ms=0",
                "sasl.enabled.mechanisms=PLAIN",
                "listener.name.sasl_plaintext.plain.sasl.jaas.config=" + USERS,
                "listener.name.sasl_ssl.plain.sasl.jaas.config=" + USERS,
                "ssl.keystore.type=PKCS12", "ssl.keystore.location=" + server,
                "ssl.keystore.password=" + TestCertificates.PASSWORD);
        ports = broker.listenerPorts();
    }

    @AfterAll
    static void stop() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void aUserProducesAndConsumesInAGroupOverSaslPlaintext() throws Exception {
        SecureClients.roundTrip(client("SASL_PLAINTEXT", "alice", "alice-secret"), "sasl-plain");
    }

    @Test
    void aUserProducesAndConsumesInAGroupOverSaslSsl() throws Exception {
        SecureClients.roundTrip(client("SASL_SSL", "bob", "bob-secret"), "sasl-ssl");
    }

    @Test
    void aWrongPasswordOrAnUnknownUserIsRefused() {
        assertThat(SecureClients.describeClusterFailure(client("SASL_PLAINTEXT", "alice", "wrong")))
                .isInstanceOf(SaslAuthenticationException.class).hasMessageContaining("Invalid username or password");
        assertThat(SecureClients.describeClusterFailure(client("SASL_SSL", "mallory", "alice-secret")))
                .isInstanceOf(SaslAuthenticationException.class);
    }

    @Test
    void aMechanismTheListenerDoesNotEnableIsRefused() {
        Map<String, Object> scram = client("SASL_PLAINTEXT", "alice", "alice-secret");
        scram.put(SaslConfigs.SASL_MECHANISM, "SCRAM-SHA-256");
        scram.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.scram.ScramLoginModule required "
                + "username=\"alice\" password=\"alice-secret\";");
        assertThat(SecureClients.describeClusterFailure(scram)).isInstanceOf(UnsupportedSaslMechanismException.class);
    }

    @Test
    void beforeAuthenticatingARequestGetsNoAnswerButTheConnectionClosing() throws Exception {
        Throwable failure = catchThrowable(() -> RawRequest.send("127.0.0.1", ports.get("SASL_PLAINTEXT"),
                ApiKeys.METADATA, (short) 12, new MetadataRequestData().setTopics(null), 10_000));
        assertThat(failure).as("a Metadata request before SASL").isInstanceOf(EOFException.class);
    }

    /** Kafka's sasl.server.max.receive.size: before authenticating a client cannot make the broker hold 1 MB. */
    @Test
    void beforeAuthenticatingAFrameAbove512KibClosesTheConnectionAtItsSize() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", ports.get("SASL_PLAINTEXT"))) {
            socket.setSoTimeout(10_000);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(1_000_000); // the size alone: a broker waiting for the frame would not answer in 10 s
            out.flush();
            assertThat(socket.getInputStream().read()).as("closed at once").isEqualTo(-1);
        }
    }

    @Test
    void onAListenerWithoutSaslTheSaslRequestsAreAnsweredIllegalState() throws Exception {
        SaslHandshakeResponse response = (SaslHandshakeResponse) RawRequest.send("127.0.0.1", ports.get("PLAINTEXT"),
                ApiKeys.SASL_HANDSHAKE, (short) 1, new SaslHandshakeRequestData().setMechanism("PLAIN"), 10_000);
        assertThat(Errors.forCode(response.data().errorCode())).isEqualTo(Errors.ILLEGAL_SASL_STATE);
    }

    /** A v0 handshake, then the PLAIN message as a bare frame (how clients before SaslAuthenticate logged in). */
    @Test
    void aVersionZeroHandshakeTakesTheTokenAsABareFrame() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", ports.get("SASL_PLAINTEXT"))) {
            socket.setSoTimeout(10_000);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            DataInputStream in = new DataInputStream(socket.getInputStream());
            RequestHeader handshake = new RequestHeader(ApiKeys.SASL_HANDSHAKE, (short) 0, "v0", 1);
            writeFrame(out, RequestUtils.serialize(handshake.data(), handshake.headerVersion(),
                    new SaslHandshakeRequestData().setMechanism("PLAIN"), (short) 0));
            SaslHandshakeResponse answer = (SaslHandshakeResponse) SaslHandshakeResponse.parseResponse(
                    ByteBuffer.wrap(readFrame(in)), handshake);
            assertThat(answer.data().errorCode()).isZero();
            assertThat(answer.data().mechanisms()).containsExactly("PLAIN");

            writeFrame(out, ByteBuffer.wrap("\0alice\0alice-secret".getBytes(StandardCharsets.UTF_8)));
            assertThat(readFrame(in)).as("PLAIN's empty challenge: success").isEmpty();

            RequestHeader metadata = new RequestHeader(ApiKeys.METADATA, (short) 12, "v0", 2);
            writeFrame(out, RequestUtils.serialize(metadata.data(), metadata.headerVersion(),
                    new MetadataRequestData().setTopics(null), (short) 12));
            MetadataResponse brokers = (MetadataResponse) MetadataResponse.parseResponse(
                    ByteBuffer.wrap(readFrame(in)), metadata);
            assertThat(brokers.data().brokers()).isNotEmpty();
        }
    }

    @Test
    void kcatProducesAndConsumesOverSaslPlaintext() throws Exception {
        String[] sasl = {"-b", "127.0.0.1:" + ports.get("SASL_PLAINTEXT"), "-X", "security.protocol=sasl_plaintext",
            "-X", "sasl.mechanisms=PLAIN", "-X", "sasl.username=alice", "-X", "sasl.password=alice-secret"};
        ExternalCommand.Result produced = ExternalCommand.runWithInput(dir, 60, "one\ntwo\n".getBytes(),
                SecureClients.concat(new String[] {"kcat", "-P", "-t", "kcat-sasl"}, sasl));
        assertThat(produced.exitCode()).as(produced.output()).isZero();
        ExternalCommand.Result consumed = ExternalCommand.run(dir, 60,
                SecureClients.concat(new String[] {"kcat", "-C", "-t", "kcat-sasl", "-o", "beginning", "-e"}, sasl));
        assertThat(consumed.exitCode()).as(consumed.output()).isZero();
        assertThat(consumed.output().lines().filter(line -> !line.startsWith("%"))).containsExactly("one", "two");
    }

    private static Map<String, Object> client(String listener, String user, String password) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + ports.get(listener));
        settings.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, listener);
        settings.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        settings.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.plain.PlainLoginModule "
                + "required username=\"" + user + "\" password=\"" + password + "\";");
        if (listener.equals("SASL_SSL")) {
            settings.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12");
            settings.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, certificates.truststore().toString());
            settings.put(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, TestCertificates.PASSWORD);
        }
        return settings;
    }

    private static void writeFrame(DataOutputStream out, ByteBuffer frame) throws java.io.IOException {
        out.writeInt(frame.remaining());
        out.write(frame.array(), frame.arrayOffset() + frame.position(), frame.remaining());
        out.flush();
    }

    private static byte[] readFrame(DataInputStream in) throws java.io.IOException {
        byte[] frame = new byte[in.readInt()];
        in.readFully(frame);
        return frame;
    }

}

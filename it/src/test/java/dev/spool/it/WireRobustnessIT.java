package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a client cannot produce on purpose, sent by hand over a socket: a newer ApiVersions, an
 * unknown API key, an oversized frame, garbage. Each gets the answer the protocol prescribes, and
 * the broker keeps serving everyone else.
 */
class WireRobustnessIT {

    private static final short API_VERSIONS = 18;
    private static SpoolProcess spool;

    @BeforeAll
    static void startBroker() throws Exception {
        spool = SpoolProcess.start("socket.request.max.bytes=1024");
    }

    @AfterAll
    static void stopBroker() throws Exception {
        spool.close();
    }

    /** A non-flexible request: header v1 (api key, version, correlation id, client id), then the body. */
    private static byte[] requestV1Header(short apiKey, short version, int correlationId, byte[] body) {
        byte[] clientId = "wire-test".getBytes(StandardCharsets.UTF_8);
        java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(4 + 2 + 2 + 4 + 2 + clientId.length + body.length);
        buffer.putInt(buffer.capacity() - 4).putShort(apiKey).putShort(version).putInt(correlationId)
                .putShort((short) clientId.length).put(clientId).put(body);
        return buffer.array();
    }

    private static Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", spool.port());
        socket.setSoTimeout(10_000);
        return socket;
    }

    @Test
    void apiVersionsOfAnUnknownVersionGetsTheVersionZeroFallback() throws Exception {
        try (Socket socket = connect()) {
            // Version 127 is newer than any broker knows; its header is v2 (flexible): add an empty tag buffer.
            byte[] clientId = "wire-test".getBytes(StandardCharsets.UTF_8);
            java.nio.ByteBuffer request = java.nio.ByteBuffer.allocate(4 + 8 + 2 + clientId.length + 1);
            request.putInt(request.capacity() - 4).putShort(API_VERSIONS).putShort((short) 127).putInt(42)
                    .putShort((short) clientId.length).put(clientId).put((byte) 0);
            socket.getOutputStream().write(request.array());
            DataInputStream in = new DataInputStream(socket.getInputStream());
            int size = in.readInt();
            assertThat(in.readInt()).as("correlation id, response header v0").isEqualTo(42);
            assertThat(in.readShort()).as("error code").isEqualTo((short) 35);
            assertThat(in.readInt()).as("api key entries").isEqualTo(1);
            assertThat(in.readShort()).as("api key").isEqualTo(API_VERSIONS);
            assertThat(in.readShort()).as("min version").isZero();
            assertThat(in.readShort()).as("max version").isGreaterThanOrEqualTo((short) 3);
            assertThat(size).isEqualTo(4 + 2 + 4 + 6);
        }
    }

    @Test
    void apiVersionsVersionZeroListsMetadata() throws Exception {
        try (Socket socket = connect()) {
            socket.getOutputStream().write(requestV1Header(API_VERSIONS, (short) 0, 7, new byte[0]));
            DataInputStream in = new DataInputStream(socket.getInputStream());
            in.readInt();
            assertThat(in.readInt()).isEqualTo(7);
            assertThat(in.readShort()).isZero();
            int count = in.readInt();
            boolean metadata = false;
            for (int i = 0; i < count; i++) {
                short key = in.readShort();
                in.readShort();
                short max = in.readShort();
                metadata |= key == 3 && max >= 12;
            }
            assertThat(metadata).as("Metadata advertised up to v12 at least").isTrue();
        }
    }

    @Test
    void unknownApiKeyClosesOnlyThatConnection() throws Exception {
        try (Socket bad = connect()) {
            bad.getOutputStream().write(requestV1Header((short) 9999, (short) 0, 1, new byte[0]));
            assertClosedByBroker(bad);
        }
        assertBrokerServesAdmin();
    }

    @Test
    void oversizedFrameClosesTheConnection() throws Exception {
        try (Socket bad = connect()) {
            DataOutputStream out = new DataOutputStream(bad.getOutputStream());
            out.writeInt(1025);
            out.write(new byte[64]);
            out.flush();
            assertClosedByBroker(bad);
        }
        assertThat(spool.awaitOutput(line -> line.contains("1025 bytes") && line.contains("socket.request.max.bytes"),
                10_000)).as("the broker logs why it closed the connection").isTrue();
        assertBrokerServesAdmin();
    }

    @Test
    void truncatedBodyClosesTheConnection() throws Exception {
        try (Socket bad = connect()) {
            // Metadata v1: the topics array says 5 entries, and nothing follows.
            bad.getOutputStream().write(requestV1Header((short) 3, (short) 1, 3, new byte[] {0, 0, 0, 5}));
            assertClosedByBroker(bad);
        }
        assertThat(spool.awaitOutput(line -> line.contains("malformed request"), 10_000))
                .as("the broker logs why it closed the connection").isTrue();
        assertBrokerServesAdmin();
    }

    private static void assertClosedByBroker(Socket socket) throws IOException {
        try {
            int read = socket.getInputStream().read();
            assertThat(read).as("the broker closes the connection").isEqualTo(-1);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the broker kept the connection open", e);
        } catch (EOFException | java.net.SocketException e) {
            // reset by the broker: closed as well
        }
    }

    private static void assertBrokerServesAdmin() throws Exception {
        assertThat(spool.isAlive()).isTrue();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, spool.bootstrap()))) {
            assertThat(admin.describeCluster().nodes().get(20, TimeUnit.SECONDS)).hasSize(1);
        }
    }
}

package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * A client that goes away is the client's business: the broker logs the reset connection at DEBUG, as Kafka
 * does, never at WARN. A client's kernel resets the connection when the client closes it with a response
 * still unread (a consumer closing while its fetch is answered) or is killed; the test resets one on purpose.
 * The broker runs with its network loggers at DEBUG, so that the test sees the line proving the reset reached
 * the broker.
 */
class ClientDisconnectLoggingIT {

    private static final short API_VERSIONS = 18;
    private static final Predicate<String> CLOSED_BY_CLIENT =
            line -> line.contains(" DEBUG dev.spool.broker.network.") && line.contains("closed by the client");
    private static final Predicate<String> WARNED_ABOUT_A_CONNECTION =
            line -> line.contains(" WARN ") && line.contains("Closing connection");

    @Test
    void aConnectionResetByTheClientIsLoggedAtDebugNotWarn() throws Exception {
        try (SpoolProcess spool = SpoolProcess.startWithEnvironment(Files.createTempDirectory("spool-it-"),
                Map.of("SPOOL_OPTS", "-Dspool.log.level.dev.spool.broker.network=DEBUG"), List.of())) {
            resetAfterOneRequest(spool.port());
            assertThat(spool.awaitOutput(CLOSED_BY_CLIENT, 10_000)).as("the broker saw the reset; its output:%n%s",
                    String.join("\n", spool.output())).isTrue();
            assertThat(spool.output()).noneMatch(WARNED_ABOUT_A_CONNECTION);
        }
    }

    /** Sends ApiVersions v0, reads the answer and closes the connection with a reset (RST), not a FIN. */
    private static void resetAfterOneRequest(int port) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            byte[] clientId = "reset-test".getBytes(StandardCharsets.UTF_8);
            // Header v1 (api key, version, correlation id, client id); ApiVersions v0 has no body.
            ByteBuffer request = ByteBuffer.allocate(4 + 2 + 2 + 4 + 2 + clientId.length);
            request.putInt(request.capacity() - 4).putShort(API_VERSIONS).putShort((short) 0).putInt(7)
                    .putShort((short) clientId.length).put(clientId);
            socket.getOutputStream().write(request.array());
            DataInputStream in = new DataInputStream(socket.getInputStream());
            in.readFully(new byte[in.readInt()]);
            socket.setSoLinger(true, 0);
        }
    }
}

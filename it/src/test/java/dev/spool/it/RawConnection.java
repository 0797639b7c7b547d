package dev.spool.it;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.RequestUtils;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeResponse;

/**
 * One connection to a broker, sending requests one at a time and reading each answer, as a test drives the
 * protocol by hand (SASL exchanges, what a connection may do when). Not thread-safe.
 */
final class RawConnection implements AutoCloseable {

    /** The client id of every request. */
    static final String CLIENT_ID = "raw-connection";

    private final Socket socket;
    private final DataOutputStream out;
    private final DataInputStream in;
    private int correlationId;
    private long lastAnswerNanos;

    RawConnection(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        socket.setTcpNoDelay(true); // a frame is two writes: without it the second waits for the first's ACK
        out = new DataOutputStream(socket.getOutputStream());
        in = new DataInputStream(socket.getInputStream());
    }

    /** When the last answer was read ({@link System#nanoTime()}), before it was parsed. */
    long lastAnswerNanos() {
        return lastAnswerNanos;
    }

    /** How long a read waits for an answer before it fails (10 s unless changed). */
    void readTimeout(Duration timeout) throws IOException {
        socket.setSoTimeout((int) timeout.toMillis());
    }

    /** Sends {@code request} as {@code api} v{@code version} and returns the answer (an EOF if the broker closed). */
    AbstractResponse send(ApiKeys api, short version, ApiMessage request) throws IOException {
        return receive(write(api, version, request));
    }

    /** Sends {@code request} without waiting for its answer; the header {@link #receive} reads the answer by. */
    RequestHeader write(ApiKeys api, short version, ApiMessage request) throws IOException {
        RequestHeader header = new RequestHeader(api, version, CLIENT_ID, ++correlationId);
        ByteBuffer frame = RequestUtils.serialize(header.data(), header.headerVersion(), request, version);
        out.writeInt(frame.remaining());
        out.write(frame.array(), frame.arrayOffset() + frame.position(), frame.remaining());
        out.flush();
        return header;
    }

    /** The next answer, which must be the one to {@code header}'s request (its correlation id is checked). */
    AbstractResponse receive(RequestHeader header) throws IOException {
        byte[] answer = new byte[in.readInt()];
        in.readFully(answer);
        lastAnswerNanos = System.nanoTime();
        return AbstractResponse.parseResponse(ByteBuffer.wrap(answer), header);
    }

    /** Authenticates this connection as {@code user} with SASL/PLAIN (a handshake v1, then SaslAuthenticate v2). */
    SaslAuthenticateResponse authenticatePlain(String user, String password) throws IOException {
        SaslHandshakeResponse handshake = (SaslHandshakeResponse) send(ApiKeys.SASL_HANDSHAKE, (short) 1,
                new SaslHandshakeRequestData().setMechanism("PLAIN"));
        if (handshake.data().errorCode() != 0) {
            throw new IOException("PLAIN refused: error " + handshake.data().errorCode());
        }
        return (SaslAuthenticateResponse) send(ApiKeys.SASL_AUTHENTICATE, (short) 2, new SaslAuthenticateRequestData()
                .setAuthBytes(("\0" + user + "\0" + password).getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}

package dev.spool.it.fuzz;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.requests.ResponseHeader;

/**
 * Sends fuzz inputs to the broker and judges what comes back. After each framed input an ApiVersions
 * v0 probe follows on the same connection: responses come in request order, so the probe's answer
 * bounds the wait (acks=0 produce legitimately answers nothing). An input may get one response, which
 * must carry the input's correlation id and parse with kafka-clients' response classes as the API and
 * version the input names, with no UNKNOWN_SERVER_ERROR; or the broker closes the connection. Raw
 * inputs (lying size prefixes, byte streams) go on a fresh connection that we half-close: the broker
 * must close it. Not thread-safe: one per fuzzing thread.
 */
public final class FuzzClient implements AutoCloseable {

    /** What happened to one input. */
    public enum Outcome {
        ANSWERED, NO_ANSWER, CLOSED, PARKED
    }

    /** A broker behaviour the protocol does not allow. */
    public static final class Violation extends Exception {
        public Violation(String message) {
            super(message);
        }
    }

    private static final int MAX_RESPONSE_BYTES = 64 << 20;
    /**
     * Produce errors a damaged record batch may get (CORRUPT_MESSAGE, INVALID_RECORD, INVALID_TXN_STATE for a
     * transactional bit, producer id and sequence errors...), never NONE for a bad CRC.
     */
    private static final Set<Short> BATCH_ERRORS = Set.of((short) 0, (short) 2, (short) 10, (short) 18, (short) 32,
            (short) 42, (short) 43, (short) 45, (short) 46, (short) 47, (short) 48, (short) 49, (short) 59, (short) 76, (short) 87, (short) 3, (short) 100);
    /** APIs that may legitimately hold an answer back (long poll, rebalance): a timeout there is parking. */
    private static final Set<ApiKeys> MAY_PARK = Set.of(ApiKeys.FETCH, ApiKeys.JOIN_GROUP, ApiKeys.SYNC_GROUP);

    private final String host;
    private final int port;
    private final int timeoutMs;
    private Socket socket;
    private int nextProbeId = 0x40000000;
    private String lastResponse;

    public FuzzClient(String host, int port, int timeoutMs) {
        this.host = host;
        this.port = port;
        this.timeoutMs = timeoutMs;
    }

    /** The last answer's body as kafka-clients prints it (null when none), for logging. */
    public String lastResponse() {
        return lastResponse;
    }

    public Outcome send(FrameMutator.Input input) throws IOException, Violation {
        lastResponse = null;
        return input.raw() ? sendRaw(input) : sendFramed(input);
    }

    private Outcome sendRaw(FrameMutator.Input input) throws IOException, Violation {
        try (Socket raw = open()) {
            raw.getOutputStream().write(input.frame());
            raw.shutdownOutput();
            DataInputStream in = new DataInputStream(raw.getInputStream());
            byte[] sink = new byte[4096];
            try {
                while (in.read(sink) >= 0) {
                    // whatever the broker answered to a prefix that parsed; it must close after that
                }
            } catch (SocketTimeoutException e) {
                throw new Violation(input.kind() + ": the broker kept a half-closed connection open for " + timeoutMs + " ms");
            } catch (SocketException e) {
                // reset: closed
            }
            return Outcome.CLOSED;
        }
    }

    private Outcome sendFramed(FrameMutator.Input input) throws IOException, Violation {
        if (socket == null) {
            socket = open();
        }
        int probeId = nextProbeId++;
        byte[] frame = input.frame();
        byte[] probe = probe(probeId);
        byte[] both = new byte[frame.length + probe.length];
        System.arraycopy(frame, 0, both, 0, frame.length);
        System.arraycopy(probe, 0, both, frame.length, probe.length);
        try {
            OutputStream out = socket.getOutputStream();
            out.write(both);
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            boolean answered = false;
            while (true) {
                int size = in.readInt();
                if (size < 4 || size > MAX_RESPONSE_BYTES) {
                    throw new Violation(input.kind() + ": response frame of " + size + " bytes");
                }
                byte[] response = new byte[size];
                in.readFully(response);
                int correlationId = ByteBuffer.wrap(response).getInt();
                if (correlationId == probeId) {
                    return answered ? Outcome.ANSWERED : Outcome.NO_ANSWER;
                }
                if (answered) {
                    throw new Violation(input.kind() + ": two responses to one request");
                }
                answered = true;
                lastResponse = check(input, response);
            }
        } catch (SocketTimeoutException e) {
            closeSocket();
            if (input.seedApi() != null && MAY_PARK.contains(input.seedApi())) {
                return Outcome.PARKED;
            }
            throw new Violation(input.kind() + " (" + input.seedApi() + "): neither an answer nor a close in "
                    + timeoutMs + " ms");
        } catch (EOFException | SocketException e) {
            closeSocket();
            return Outcome.CLOSED;
        }
    }

    /** The response must answer the request as the broker read its header. */
    private static String check(FrameMutator.Input input, byte[] response) throws Violation {
        ByteBuffer request = ByteBuffer.wrap(input.frame(), 4, input.frame().length - 4).slice();
        if (request.remaining() < 8) {
            throw new Violation(input.kind() + ": answered a request of " + request.remaining() + " bytes");
        }
        short apiKey = request.getShort(0);
        short version = request.getShort(2);
        int correlationId = request.getInt(4);
        if (ByteBuffer.wrap(response).getInt() != correlationId) {
            throw new Violation(input.kind() + ": response correlation id " + ByteBuffer.wrap(response).getInt()
                    + " answers a request with " + correlationId);
        }
        if (!ApiKeys.hasId(apiKey)) {
            throw new Violation(input.kind() + ": answered unknown api key " + apiKey);
        }
        ApiKeys api = ApiKeys.forId(apiKey);
        boolean apiVersionsFallback = api == ApiKeys.API_VERSIONS && !api.isVersionSupported(version);
        short bodyVersion = apiVersionsFallback ? 0 : version;
        ApiMessage body;
        ByteBuffer buffer = ByteBuffer.wrap(response);
        try {
            ResponseHeader.parse(buffer, api.responseHeaderVersion(bodyVersion));
            body = ApiMessageType.fromApiKey(apiKey).newResponse();
            body.read(new ByteBufferAccessor(buffer), bodyVersion);
        } catch (RuntimeException e) {
            throw new Violation(input.kind() + ": response to " + api + " v" + version + " does not parse: " + e);
        }
        if (buffer.hasRemaining()) {
            throw new Violation(input.kind() + ": response to " + api + " v" + version + " has " + buffer.remaining()
                    + " bytes left over");
        }
        if (body.toString().contains("errorCode=-1")) {
            throw new Violation(input.kind() + ": UNKNOWN_SERVER_ERROR for " + api + " v" + version + ": " + body);
        }
        boolean batchKind = input.kind().name().startsWith("BATCH_");
        if (batchKind && body instanceof ProduceResponseData produce) {
            for (var topic : produce.responses()) {
                for (var partition : topic.partitionResponses()) {
                    short error = partition.errorCode();
                    if (!BATCH_ERRORS.contains(error)) {
                        throw new Violation(input.kind() + ": produce error " + error + " for a damaged batch: " + body);
                    }
                    if (error == 0 && input.kind() == FrameMutator.Kind.BATCH_BAD_CRC) {
                        throw new Violation("a batch with a bad CRC was accepted: " + body);
                    }
                    if (error != 10 && error != 87 && input.kind() == FrameMutator.Kind.BATCH_BOMB) {
                        throw new Violation("a decompression bomb got error " + error
                                + ", not MESSAGE_TOO_LARGE or INVALID_RECORD: " + body);
                    }
                }
            }
        }
        return body.toString();
    }

    private static byte[] probe(int correlationId) {
        byte[] clientId = "probe".getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(4 + 10 + clientId.length).putInt(10 + clientId.length).putShort(ApiKeys.API_VERSIONS.id)
                .putShort((short) 0).putInt(correlationId).putShort((short) clientId.length).put(clientId).array();
    }

    private Socket open() throws IOException {
        Socket opened = new Socket(host, port);
        opened.setSoTimeout(timeoutMs);
        opened.setTcpNoDelay(true);
        return opened;
    }

    private void closeSocket() throws IOException {
        if (socket != null) {
            socket.close();
            socket = null;
        }
    }

    @Override
    public void close() throws IOException {
        closeSocket();
    }
}

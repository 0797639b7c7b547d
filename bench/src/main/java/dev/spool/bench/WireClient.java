package dev.spool.bench;

import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.types.Message;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Not thread-safe: a blocking connection to a broker that sends one request at a time and waits for
 * its answer, so that a benchmark's score is the round trip of the request path.
 */
final class WireClient implements AutoCloseable {
    private final SocketChannel channel;
    private ByteBuffer responseBuffer = ByteBuffer.allocateDirect(64 * 1024);
    private final ByteBuffer sizeField = ByteBuffer.allocate(4);
    private int correlationId;

    WireClient(String host, int port) throws IOException {
        channel = SocketChannel.open(new InetSocketAddress(host, port));
        channel.socket().setTcpNoDelay(true);
    }

    /** Sends {@code frame} (rewound first, so one frame can be sent many times) and returns the answer's body. */
    ByteBuffer roundTrip(ByteBuffer frame) throws IOException {
        frame.rewind();
        while (frame.hasRemaining()) {
            channel.write(frame);
        }
        sizeField.clear();
        readFully(sizeField);
        int size = sizeField.flip().getInt();
        if (responseBuffer.capacity() < size) {
            responseBuffer = ByteBuffer.allocateDirect(Integer.highestOneBit(size) * 2);
        }
        ByteBuffer body = responseBuffer.clear().limit(size);
        readFully(body);
        return body.flip();
    }

    /** One request and its parsed answer. */
    <T extends Message> T call(ApiKey apiKey, short version, Message request, T into) throws IOException {
        ByteBuffer answer = roundTrip(RequestFrames.request(apiKey, version, ++correlationId, request));
        return RequestFrames.response(apiKey, version, answer, into);
    }

    private void readFully(ByteBuffer into) throws IOException {
        while (into.hasRemaining()) {
            if (channel.read(into) < 0) {
                throw new IOException("broker closed the connection");
            }
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}

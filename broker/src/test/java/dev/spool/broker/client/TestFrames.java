package dev.spool.broker.client;

import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.RequestHeaderData;
import dev.spool.protocol.message.ResponseHeaderData;
import dev.spool.protocol.types.ByteBufferWriter;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.ProtocolReader;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;

/** Stateless: the server's side of the frames, for tests that play the node a connection talks to. */
final class TestFrames {

    private TestFrames() {
    }

    /** A response frame, size field included, as a node writes it. */
    static byte[] response(ApiKey api, short version, int correlationId, Message body) {
        ResponseHeaderData header = new ResponseHeaderData().setCorrelationId(correlationId);
        short headerVersion = api.responseHeaderVersion(version);
        int size = header.size(headerVersion) + body.size(version);
        ByteBuffer frame = ByteBuffer.allocate(4 + size).putInt(size);
        ByteBufferWriter writer = new ByteBufferWriter(frame);
        header.write(writer, headerVersion);
        body.write(writer, version);
        return frame.array();
    }

    /** A request frame read back: its header, and its body as {@code into}. */
    record Request(RequestHeaderData header, int sizeField, Message body) {
    }

    /** Reads a whole request frame (size field included) from {@code frame}, leaving it unreleased. */
    static Request readRequest(ByteBuf frame, Message into) {
        ByteBuffer bytes = ByteBuffer.allocate(frame.readableBytes());
        frame.getBytes(frame.readerIndex(), bytes);
        bytes.flip();
        int sizeField = bytes.getInt();
        ProtocolReader reader = new ProtocolReader(bytes);
        short apiKey = bytes.getShort(4);
        short version = bytes.getShort(6);
        RequestHeaderData header = new RequestHeaderData(reader, ApiKey.forId(apiKey).requestHeaderVersion(version));
        into.read(reader, version);
        return new Request(header, sizeField, into);
    }
}

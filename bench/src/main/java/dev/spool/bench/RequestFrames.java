package dev.spool.bench;

import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.RequestHeaderData;
import dev.spool.protocol.message.ResponseHeaderData;
import dev.spool.protocol.types.ByteBufferWriter;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.ProtocolReader;
import java.nio.ByteBuffer;

/** Thread-safe (stateless): request frames as a client writes them, response frames as it reads them. */
final class RequestFrames {
    private RequestFrames() {
    }

    /** size, request header (the version {@code apiKey} uses at {@code version}), body; flipped for reading. */
    static ByteBuffer request(ApiKey apiKey, short version, int correlationId, Message body) {
        RequestHeaderData header = new RequestHeaderData().setRequestApiKey(apiKey.id).setRequestApiVersion(version)
                .setCorrelationId(correlationId).setClientId("spool-bench");
        short headerVersion = apiKey.requestHeaderVersion(version);
        int size = header.size(headerVersion) + body.size(version);
        ByteBuffer frame = ByteBuffer.allocate(4 + size);
        frame.putInt(size);
        ByteBufferWriter writer = new ByteBufferWriter(frame);
        header.write(writer, headerVersion);
        body.write(writer, version);
        return frame.flip();
    }

    /** Reads a response body (without its size field) into {@code into}. */
    static <T extends Message> T response(ApiKey apiKey, short version, ByteBuffer withoutSize, T into) {
        ProtocolReader reader = new ProtocolReader(withoutSize);
        new ResponseHeaderData(reader, apiKey.responseHeaderVersion(version));
        into.read(reader, version);
        return into;
    }
}

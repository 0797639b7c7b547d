package dev.spool.broker.client;

import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.RequestHeaderData;
import dev.spool.protocol.message.ResponseHeaderData;
import dev.spool.protocol.types.ByteBufferWriter;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.MessageParseException;
import dev.spool.protocol.types.ProtocolReader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;

/**
 * Stateless: the frames of a Kafka connection as its client side writes and reads them.
 *
 * <pre>
 *  request frame                                 response frame
 * +----------------------------------------+    +----------------------------------------+
 * | size            int32 (bytes after it) |    | size            int32 (bytes after it) |
 * | api key         int16                  |    | correlation id  int32                  |
 * | api version     int16                  |    | tagged fields   (header v1 only)       |
 * | correlation id  int32                  |    | body                                   |
 * | client id       nullable string, int16 |    +----------------------------------------+
 * | tagged fields   (header v2 only)       |
 * | body                                   |
 * +----------------------------------------+
 * </pre>
 *
 * Header versions come from {@link ApiKey#requestHeaderVersion} and {@link ApiKey#responseHeaderVersion}: the
 * flexible ones for flexible API versions, except that an ApiVersions response always has header v0 (KIP-511).
 * The response's size field is taken off by the frame decoder before these methods see the frame.
 */
final class ClientFrames {

    /** The size field in front of every frame, which {@link ClientSettings#maxResponseBytes} does not count. */
    static final int SIZE_FIELD_BYTES = 4;
    private static final int CORRELATION_ID_BYTES = 4;

    private ClientFrames() {
    }

    /**
     * The request frame of {@code request} with this correlation id: a small buffer for the size and header,
     * joined without a copy to the body serialized on the sending thread. The caller owns the buffer returned.
     */
    static ByteBuf request(PendingRequest request, int correlationId, String clientId) {
        RequestHeaderData header = new RequestHeaderData()
                .setRequestApiKey(request.api.id)
                .setRequestApiVersion(request.version)
                .setCorrelationId(correlationId)
                .setClientId(clientId);
        short headerVersion = request.api.requestHeaderVersion(request.version);
        int headerBytes = header.size(headerVersion);
        ByteBuffer sizeAndHeader = ByteBuffer.allocate(SIZE_FIELD_BYTES + headerBytes);
        sizeAndHeader.putInt(headerBytes + request.body.remaining());
        header.write(new ByteBufferWriter(sizeAndHeader), headerVersion);
        return Unpooled.wrappedBuffer(sizeAndHeader.flip(), request.body);
    }

    /** The correlation id a response frame starts with, not consuming it. */
    static int correlationId(ByteBuf frame) {
        if (frame.readableBytes() < CORRELATION_ID_BYTES) {
            throw new MessageParseException("Response frame of " + frame.readableBytes()
                    + " bytes, shorter than its correlation id");
        }
        return frame.getInt(frame.readerIndex());
    }

    /**
     * The body of a response frame, as {@code api}'s response at {@code version}. The frame is copied to the heap
     * first: records in a response are read as slices of the buffer read, so the message must own its bytes
     * after the caller releases the frame (a fetcher that wants them without the copy can take the frame's
     * ownership later). Does not release {@code frame}.
     */
    static Message response(ApiKey api, short version, ByteBuf frame) {
        ByteBuffer bytes = ByteBuffer.allocate(frame.readableBytes());
        frame.getBytes(frame.readerIndex(), bytes);
        ProtocolReader reader = new ProtocolReader(bytes.flip());
        new ResponseHeaderData(reader, api.responseHeaderVersion(version));
        Message body = api.newResponse();
        body.read(reader, version);
        return body;
    }
}

package dev.spool.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits the byte stream into request frames: an int32 size, then that many bytes. Emits each
 * frame as a retained slice (no copy), owned by the next handler. A size below zero or above
 * {@code socket.request.max.bytes} has no error response in the protocol: the connection is logged
 * and closed. Not thread-safe: one instance per channel.
 */
public final class FrameDecoder extends ByteToMessageDecoder {

    private static final Logger LOG = LoggerFactory.getLogger(FrameDecoder.class);
    private static final int SIZE_FIELD_BYTES = 4;

    private final int maxFrameBytes;
    /** Below maxFrameBytes until a SASL connection authenticates ({@link #limitUntilAuthenticated}). */
    private int limit;
    private String limitName = "socket.request.max.bytes";

    public FrameDecoder(int maxFrameBytes) {
        this.maxFrameBytes = maxFrameBytes;
        this.limit = maxFrameBytes;
    }

    /**
     * Frames of a connection that has not authenticated are at most {@code bytes} (Kafka's
     * {@code sasl.server.max.receive.size}): an unauthenticated client cannot make the broker hold large frames.
     */
    void limitUntilAuthenticated(int bytes) {
        limit = Math.min(bytes, maxFrameBytes);
        limitName = "the limit before SASL authentication";
    }

    void authenticated() {
        limit = maxFrameBytes;
        limitName = "socket.request.max.bytes";
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (in.readableBytes() < SIZE_FIELD_BYTES) {
            return;
        }
        int size = in.getInt(in.readerIndex());
        if (size < 0 || size > limit) {
            LOG.warn("Closing connection from {}: request frame of {} bytes, {} is {}",
                    ctx.channel().remoteAddress(), size, limitName, limit);
            in.skipBytes(in.readableBytes());
            ctx.close();
            return;
        }
        if (in.readableBytes() < SIZE_FIELD_BYTES + size) {
            return;
        }
        in.skipBytes(SIZE_FIELD_BYTES);
        out.add(in.readRetainedSlice(size));
    }
}

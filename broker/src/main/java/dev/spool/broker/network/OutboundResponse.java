package dev.spool.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.FileRegion;
import io.netty.util.ReferenceCountUtil;
import java.util.List;

/**
 * Not thread-safe: used on the channel's event loop. One serialized response frame as the pieces written to
 * the socket in order: buffers for the header and the fields, file regions for the records that stay in
 * segment files. Owns a reference to each piece until {@link #writeTo} hands them to the channel or
 * {@link #release} drops them.
 */
final class OutboundResponse {

    private final Object[] pieces;

    private OutboundResponse(Object[] pieces) {
        this.pieces = pieces;
    }

    static OutboundResponse of(ByteBuf frame) {
        return new OutboundResponse(new Object[] {frame});
    }

    /** Pieces, each a {@link ByteBuf} or a {@link FileRegion}, whose references pass to the response. */
    static OutboundResponse of(List<Object> pieces) {
        return new OutboundResponse(pieces.toArray());
    }

    /**
     * Writes every piece (the channel releases each once sent); the caller flushes. A file region that cannot be
     * sent (its segment gone, or, under TLS, a read failing) closes the connection: the frame's size and header are
     * out already, so the client could only read garbage after them.
     */
    void writeTo(ChannelHandlerContext ctx) {
        for (Object piece : pieces) {
            if (piece instanceof FileRegion) {
                ctx.write(piece).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
            } else {
                ctx.write(piece);
            }
        }
    }

    void release() {
        for (Object piece : pieces) {
            ReferenceCountUtil.release(piece);
        }
    }

    int pieceCount() {
        return pieces.length;
    }
}

package dev.spool.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.channel.FileRegion;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.List;

/**
 * Not thread-safe: a test's helper. What an {@link EmbeddedChannel} wrote, as the pieces it was given
 * (buffers and file regions), and as the bytes a socket would have received.
 */
public final class OutboundPieces {

    private OutboundPieces() {
    }

    /** Takes every piece written so far; the caller releases them (see {@link #bytesAndRelease}). */
    public static List<Object> drain(EmbeddedChannel channel) {
        List<Object> pieces = new ArrayList<>();
        for (Object piece = channel.readOutbound(); piece != null; piece = channel.readOutbound()) {
            pieces.add(piece);
        }
        return pieces;
    }

    /** The bytes of the pieces in order (file regions read from their files); releases every piece. */
    public static byte[] bytesAndRelease(List<Object> pieces) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object piece : pieces) {
            if (piece instanceof ByteBuf buffer) {
                byte[] bytes = new byte[buffer.readableBytes()];
                buffer.readBytes(bytes);
                out.write(bytes);
                buffer.release();
            } else {
                FileRegion region = (FileRegion) piece;
                while (region.transferred() < region.count()) {
                    region.transferTo(Channels.newChannel(out), region.transferred());
                }
                region.release();
            }
        }
        return out.toByteArray();
    }
}

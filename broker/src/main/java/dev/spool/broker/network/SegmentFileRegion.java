package dev.spool.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.channel.DefaultFileRegion;
import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * Not thread-safe: written by one channel's event loop. A file region over a segment file that, once written
 * and released, leaves the file open: the segment owns the channel and closes it itself.
 *
 * <p>Design note: it extends {@link DefaultFileRegion} rather than implementing {@code FileRegion},
 * because Netty's epoll transport sends exactly that class with a native {@code sendfile}, and any
 * other region through a copying {@code transferTo}; only {@link #deallocate} differs (the default
 * closes the channel).
 */
final class SegmentFileRegion extends DefaultFileRegion {

    private final FileChannel channel;

    SegmentFileRegion(FileChannel channel, long position, long count) {
        super(channel, position, count);
        this.channel = channel;
    }

    /** Reads {@code length} bytes of the region from {@code offset} into {@code target} (where TLS stops a sendfile). */
    void readInto(ByteBuf target, long offset, int length) throws IOException {
        int remaining = length;
        while (remaining > 0) {
            int read = target.writeBytes(channel, position() + offset + length - remaining, remaining);
            if (read < 0) {
                throw new EOFException("segment file ended " + remaining + " bytes before the region's end");
            }
            remaining -= read;
        }
    }

    @Override
    protected void deallocate() {
        // The segment's channel outlives this write: nothing to free here.
    }
}

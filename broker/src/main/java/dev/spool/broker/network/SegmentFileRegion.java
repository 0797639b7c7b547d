package dev.spool.broker.network;

import io.netty.channel.DefaultFileRegion;
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

    SegmentFileRegion(FileChannel channel, long position, long count) {
        super(channel, position, count);
    }

    @Override
    protected void deallocate() {
        // The segment's channel outlives this write: nothing to free here.
    }
}

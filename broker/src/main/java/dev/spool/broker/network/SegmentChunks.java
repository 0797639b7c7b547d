package dev.spool.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.stream.ChunkedInput;

/**
 * Not thread-safe: read by one channel's event loop. A segment file region as chunks of at most {@value #CHUNK_BYTES}
 * bytes in heap buffers (the JDK's TLS engine copies direct ones into heap ones anyway). Owns a reference to the
 * region, released when closed.
 */
final class SegmentChunks implements ChunkedInput<ByteBuf> {

    static final int CHUNK_BYTES = 256 * 1024;

    private final SegmentFileRegion region;
    private long sent;

    SegmentChunks(SegmentFileRegion region) {
        this.region = region;
    }

    @Override
    public boolean isEndOfInput() {
        return sent >= region.count();
    }

    @Override
    public void close() {
        region.release();
    }

    @Deprecated
    @Override
    public ByteBuf readChunk(ChannelHandlerContext ctx) throws Exception {
        return readChunk(ctx.alloc());
    }

    @Override
    public ByteBuf readChunk(ByteBufAllocator allocator) throws Exception {
        if (isEndOfInput()) {
            return null;
        }
        int size = (int) Math.min(CHUNK_BYTES, region.count() - sent);
        ByteBuf chunk = allocator.heapBuffer(size);
        try {
            region.readInto(chunk, sent, size);
        } catch (Exception e) {
            chunk.release();
            throw e;
        }
        sent += size;
        return chunk;
    }

    @Override
    public long length() {
        return region.count();
    }

    @Override
    public long progress() {
        return sent;
    }
}

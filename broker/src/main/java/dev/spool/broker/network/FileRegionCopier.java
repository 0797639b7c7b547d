package dev.spool.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.util.List;

/**
 * Stateless, so shared by every TLS connection: turns the segment file regions of a fetch answer into buffers,
 * since TLS encrypts in the JVM and cannot hand the kernel a file to send (Kafka's TLS listeners copy too).
 * The region is released by the encoder once copied.
 */
@Sharable
final class FileRegionCopier extends MessageToMessageEncoder<SegmentFileRegion> {

    static final FileRegionCopier INSTANCE = new FileRegionCopier();

    private FileRegionCopier() {
        super(SegmentFileRegion.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, SegmentFileRegion region, List<Object> out) throws Exception {
        // A fetch answer's regions are bounded by fetch.max.bytes, an int.
        ByteBuf copy = ctx.alloc().heapBuffer((int) region.count());
        try {
            region.readInto(copy);
        } catch (Exception e) {
            copy.release();
            throw e;
        }
        out.add(copy);
    }
}

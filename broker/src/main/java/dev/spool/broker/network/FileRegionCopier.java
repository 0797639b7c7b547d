package dev.spool.broker.network;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.util.List;

/**
 * Stateless, so shared by every TLS connection: turns the segment file regions of a fetch answer into
 * {@link SegmentChunks}, read a chunk at a time as the socket takes them (a {@code ChunkedWriteHandler} nearer the
 * socket pulls them), since TLS encrypts in the JVM and cannot hand the kernel a file to send (Kafka's TLS
 * listeners copy too). A chunk at a time: a region may be as large as the fetch's max bytes, which the client
 * chooses, and must not be held in memory whole (256 KiB chunks read TLS faster here than 64 KiB ones,
 * BENCHMARKS.md).
 */
@Sharable
final class FileRegionCopier extends MessageToMessageEncoder<SegmentFileRegion> {

    static final FileRegionCopier INSTANCE = new FileRegionCopier();

    private FileRegionCopier() {
        super(SegmentFileRegion.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, SegmentFileRegion region, List<Object> out) {
        region.retain(); // the encoder releases the message it encoded; the chunks release theirs when done
        out.add(new SegmentChunks(region));
    }
}

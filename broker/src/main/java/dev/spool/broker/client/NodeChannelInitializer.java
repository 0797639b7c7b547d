package dev.spool.broker.client;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.util.function.IntSupplier;

/**
 * Thread-safe (immutable): the pipeline of a connection to a node. Response frames are cut by Netty's
 * {@link LengthFieldBasedFrameDecoder} (an int32 size, stripped; the frame a retained slice, no copy), set to
 * fail as soon as a size field is negative or above {@link ClientSettings#maxResponseBytes}, before any byte of
 * that frame is buffered. The broker's {@code FrameDecoder} does the same cut for requests but answers a bad size
 * by logging and closing, while a client must fail its requests with the reason, which the exception gives
 * {@link NodeChannelHandler}.
 */
final class NodeChannelInitializer extends ChannelInitializer<Channel> {

    private final NodeAddress peer;
    private final ClientSettings settings;
    private final ChannelSecurity security;
    private final IntSupplier correlationIds;

    NodeChannelInitializer(NodeAddress peer, ClientSettings settings, ChannelSecurity security,
                           IntSupplier correlationIds) {
        this.peer = peer;
        this.settings = settings;
        this.security = security;
        this.correlationIds = correlationIds;
    }

    @Override
    protected void initChannel(Channel channel) {
        int sizeBytes = ClientFrames.SIZE_FIELD_BYTES;
        // The limit counts the size field too; failFast: the exception comes with the size, not after the frame.
        LengthFieldBasedFrameDecoder frames = new LengthFieldBasedFrameDecoder(settings.maxResponseBytes() + sizeBytes,
                0, sizeBytes, 0, sizeBytes, true);
        if (security.tls() != null) {
            // The peer's host and port: what its certificate is checked against when the context verifies hostnames.
            channel.pipeline().addLast("tls", security.tls().newHandler(channel.alloc(), peer.host(), peer.port()));
        }
        channel.pipeline()
                .addLast("frames", frames)
                .addLast("responses", new NodeChannelHandler(peer, settings, correlationIds));
    }
}

package dev.spool.broker.client;

import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.MessageParseException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.DecoderException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not thread-safe: one per channel, run only by the channel's event loop. Writes each {@link PendingRequest} sent
 * down the channel as a request frame with the next correlation id, keeps it until the response frame with that
 * id comes up, and completes its future with the parsed body.
 *
 * <p>A node answers a connection's requests in the order they came (the Kafka protocol promises it, and Spool's
 * {@code RequestDispatcher} keeps it), so the requests in flight are a queue, and a response must carry the
 * correlation id of its head. Any other id means the two sides no longer agree on the stream: the connection is
 * closed and every request on it fails, rather than a response being given to the wrong request.
 *
 * <p>A request with no response within {@link ClientSettings#requestTimeoutMs} fails with a
 * {@link TimeoutException}, and the connection is closed, failing the others with an {@link IOException}: as
 * Kafka's {@code NetworkClient} does, since a silent node is as likely a half-open TCP connection, through which
 * no later request would get either. The next send connects again.
 */
final class NodeChannelHandler extends ChannelDuplexHandler {

    private static final Logger LOG = LoggerFactory.getLogger(NodeChannelHandler.class);

    private final NodeAddress peer;
    private final ClientSettings settings;
    private final IntSupplier correlationIds;
    private final ArrayDeque<PendingRequest> inFlight = new ArrayDeque<>();
    /** Why this side closed the connection, the cause given to the requests it fails; null until then. */
    private Throwable closeReason;
    /** Whether to close once no request is in flight: the connection's SASL session ends soon. */
    private boolean retiring;

    /** {@code correlationIds} gives the id of each request; the connection's ids across reconnects. */
    NodeChannelHandler(NodeAddress peer, ClientSettings settings, IntSupplier correlationIds) {
        this.peer = peer;
        this.settings = settings;
        this.correlationIds = correlationIds;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof PendingRequest request)) {
            ctx.write(msg, promise);
            return;
        }
        if (closeReason != null || !ctx.channel().isActive()) {
            promise.setFailure(new IOException("Connection to " + peer + " is closing", closeReason));
            return;
        }
        int correlationId = correlationIds.getAsInt();
        ByteBuf frame = ClientFrames.request(request, correlationId, settings.clientId());
        request.onSent(correlationId, ctx.executor().schedule(() -> onTimeout(ctx, request),
                settings.requestTimeoutMs(), TimeUnit.MILLISECONDS));
        inFlight.add(request);
        ChannelPromise written = promise.unvoid();
        ctx.write(frame, written);
        // A request the socket did not take leaves the queue out of step with the stream.
        written.addListener((ChannelFutureListener) write -> {
            if (!write.isSuccess()) {
                closeWith(ctx, new IOException("Cannot send " + request.describe() + " to " + peer, write.cause()));
            }
        });
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf frame)) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            onResponse(ctx, frame);
        } finally {
            frame.release();
        }
    }

    private void onResponse(ChannelHandlerContext ctx, ByteBuf frame) {
        if (closeReason != null) {
            return;
        }
        PendingRequest request = inFlight.peek();
        int correlationId;
        try {
            correlationId = ClientFrames.correlationId(frame);
        } catch (MessageParseException e) {
            closeWith(ctx, new IOException("Malformed response from " + peer + ": " + e.getMessage(), e));
            return;
        }
        if (request == null || request.correlationId() != correlationId) {
            String expected = request == null ? "no request is in flight" : "expected " + request.describe();
            closeWith(ctx, new IOException("Response with correlation id " + correlationId + " from " + peer + ", "
                    + expected + ": closing the connection"));
            return;
        }
        inFlight.poll();
        if (retiring && inFlight.isEmpty()) {
            closeWith(ctx, new IOException("Connection to " + peer + " retired: its SASL session ends"));
        }
        Message response;
        try {
            response = ClientFrames.response(request.api, request.version, frame);
        } catch (MessageParseException e) {
            // The frame was whole, so the stream is still in step: only this request fails.
            request.fail(new IOException("Cannot parse the response to " + request.describe() + " from " + peer
                    + ": " + e.getMessage(), e));
            return;
        }
        request.complete(response);
    }

    private void onTimeout(ChannelHandlerContext ctx, PendingRequest request) {
        if (!inFlight.contains(request)) {
            return;
        }
        TimeoutException timeout = new TimeoutException(request.describe() + " to " + peer + ": no response in "
                + settings.requestTimeoutMs() + " ms");
        request.fail(timeout);
        closeWith(ctx, timeout);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event != ChannelLogin.RETIRE) {
            super.userEventTriggered(ctx, event);
            return;
        }
        retiring = true;
        if (inFlight.isEmpty()) {
            closeWith(ctx, new IOException("Connection to " + peer + " retired: its SASL session ends"));
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("Closing connection to {}: {}", peer, cause.toString());
        if (cause instanceof DecoderException) {
            // From the frame decoder: a size field below zero or above the limit, whose frame is not read.
            cause = new IOException("Bad response frame from " + peer + ", responses are limited to "
                    + settings.maxResponseBytes() + " bytes: " + cause.getMessage(), cause);
        }
        closeWith(ctx, cause);
    }

    private void closeWith(ChannelHandlerContext ctx, Throwable reason) {
        if (closeReason == null) {
            closeReason = reason;
        }
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        PendingRequest request;
        while ((request = inFlight.poll()) != null) {
            request.fail(new IOException("Connection to " + peer + " closed before the response to "
                    + request.describe() + (closeReason == null ? "" : ": " + closeReason.getMessage()), closeReason));
        }
        if (closeReason == null) {
            closeReason = new IOException("Connection to " + peer + " closed");
        }
        ctx.fireChannelInactive();
    }
}

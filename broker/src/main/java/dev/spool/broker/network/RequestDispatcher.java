package dev.spool.broker.network;

import dev.spool.broker.api.ApiRegistry;
import dev.spool.broker.api.ApiVersionsHandler;
import dev.spool.broker.api.ConnectionIdentity;
import dev.spool.broker.api.ConnectionCloseRequest;
import dev.spool.broker.api.NoResponse;
import dev.spool.broker.api.RequestContext;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.RequestHeaderData;
import dev.spool.protocol.message.ResponseHeaderData;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.MessageParseException;
import dev.spool.protocol.types.ProtocolReader;
import dev.spool.protocol.types.ThrottledResponse;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns request frames into calls of the API handlers and their answers into response frames, in
 * request order. A frame whose header names an unknown API or a version we do not serve, or whose
 * body does not parse, closes the connection with a log line (the protocol has no error response for
 * a request it cannot read); ApiVersions of a newer version gets the KIP-511 fallback answer. Not
 * thread-safe: one instance per channel, called on its event loop.
 */
public final class RequestDispatcher extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(RequestDispatcher.class);
    private static final int HEADER_PEEK_BYTES = 4;

    private final ApiRegistry registry;
    private final ApiVersionsHandler apiVersions;
    private final ResponseQueue responses = new ResponseQueue();
    private final RequestObserver observer;
    private final InFlightRequests inFlight;
    /**
     * Changed only on the event loop: a TLS connection's principal is known once its handshake is done; null until
     * then, and no request is dispatched while it is.
     */
    private ConnectionIdentity identity;

    public RequestDispatcher(ApiRegistry registry, ApiVersionsHandler apiVersions) {
        this(registry, apiVersions, RequestObserver.NONE);
    }

    public RequestDispatcher(ApiRegistry registry, ApiVersionsHandler apiVersions, RequestObserver observer) {
        this(registry, apiVersions, observer, new InFlightRequests(Integer.MAX_VALUE));
    }

    public RequestDispatcher(ApiRegistry registry, ApiVersionsHandler apiVersions, RequestObserver observer,
                             InFlightRequests inFlight) {
        this(registry, apiVersions, observer, inFlight, ConnectionIdentity.plaintext("PLAINTEXT"));
    }

    public RequestDispatcher(ApiRegistry registry, ApiVersionsHandler apiVersions, RequestObserver observer,
                             InFlightRequests inFlight, ConnectionIdentity identity) {
        this.identity = identity;
        this.registry = registry;
        this.apiVersions = apiVersions;
        this.observer = observer;
        this.inFlight = inFlight;
    }

    /** On the event loop, before the connection's first request: who it authenticated as. */
    /**
     * Runs {@code then} on the event loop once the responses to every request dispatched so far are written (now, if
     * none is waiting): what must not overtake them, such as a SASL answer, waits for it.
     */
    void afterPendingResponses(Runnable then) {
        responses.whenEmpty(then);
    }

    void identify(ConnectionIdentity authenticated) {
        this.identity = authenticated;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        observer.onConnectionOpened();
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        ByteBuf frame = (ByteBuf) message;
        boolean handedOff = false;
        try {
            handedOff = dispatch(ctx, frame);
        } catch (MessageParseException e) {
            closeWithReason(ctx, "malformed request: " + e.getMessage());
        } finally {
            if (!handedOff) {
                frame.release();
            }
        }
    }

    /** Returns true when a handler took the frame, which is then released when its answer comes. */
    private boolean dispatch(ChannelHandlerContext ctx, ByteBuf frame) {
        long receivedNanos = System.nanoTime();
        if (identity == null) {
            // A TLS connection whose principal was never named: its certificate mapped to none (it is closing).
            closeWithReason(ctx, "request from a connection without a principal");
            return false;
        }
        if (frame.readableBytes() < HEADER_PEEK_BYTES) {
            closeWithReason(ctx, "request frame of " + frame.readableBytes() + " bytes has no header");
            return false;
        }
        short apiKeyId = frame.getShort(frame.readerIndex());
        short version = frame.getShort(frame.readerIndex() + 2);
        ApiKey apiKey = ApiKey.forId(apiKeyId);
        if (apiKey == null) {
            closeWithReason(ctx, "unknown API key " + apiKeyId);
            return false;
        }
        ProtocolReader reader = new ProtocolReader(nioView(frame));
        RequestHeaderData header = new RequestHeaderData(reader, apiKey.requestHeaderVersion(version));
        RequestContext context = new RequestContext(apiKey, version, header.correlationId(), header.clientId(),
                ctx.channel().remoteAddress(), identity);
        ApiRegistry.RegisteredApi api = registry.get(apiKey);
        if (apiKey == ApiKey.API_VERSIONS && (api == null || !api.supports(version))) {
            ResponseQueue.Slot slot = responses.reserve();
            responses.complete(ctx, slot, serialize(ctx, context, (short) 0, apiVersions.unsupportedVersion()));
            return false;
        }
        if (api == null || !api.supports(version)) {
            closeWithReason(ctx, context + ": API or version not supported by this broker");
            return false;
        }
        Message request = apiKey.newRequest();
        request.read(reader, version);
        ResponseQueue.Slot slot = responses.reserve();
        inFlight.started(ctx.channel());
        CompletableFuture<Message> answer = api.handler().handle(context, request);
        answer.whenComplete((response, failure) -> {
            if (ctx.executor().inEventLoop()) {
                onAnswer(ctx, slot, context, frame, request, receivedNanos, response, failure);
            } else {
                ctx.executor().execute(() -> onAnswer(ctx, slot, context, frame, request, receivedNanos, response,
                        failure));
            }
        });
        return true;
    }

    private void onAnswer(ChannelHandlerContext ctx, ResponseQueue.Slot slot, RequestContext context, ByteBuf frame,
                          Message request, long receivedNanos, Message response, Throwable failure) {
        // A throttled acks=0 Produce: nothing to write, the connection muted all the same.
        Message answered = response instanceof NoResponse ? null : response;
        if (failure == null) {
            observer.onAnswered(context, request, answered, System.nanoTime() - receivedNanos);
        }
        frame.release();
        inFlight.finished(ctx.channel());
        if (failure != null) {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (cause instanceof ConnectionCloseRequest) {
                LOG.info("Closing connection: {}", cause.getMessage()); // the protocol's answer (Kafka: INFO), no fault
            } else {
                LOG.error("Closing connection: handler of {} failed", context, failure);
            }
            ctx.close();
            return;
        }
        if (!ctx.channel().isActive()) {
            return;
        }
        OutboundResponse serialized;
        try {
            serialized = answered == null ? null : serialize(ctx, context, context.apiVersion(), answered);
        } catch (RuntimeException e) {
            // Thrown here it would vanish into the future's whenComplete and leave the slot open forever.
            LOG.error("Closing connection: response to {} cannot be written", context, e);
            ctx.close();
            return;
        }
        if (response instanceof ThrottledResponse throttled && throttled.throttleTimeMs() > 0) {
            // KIP-219: answered at once, then nothing more read from the client until its throttle time is over.
            ReadGate.of(ctx.channel()).throttle(throttled.throttleTimeMs());
        }
        responses.complete(ctx, slot, serialized);
    }

    /**
     * A response frame: size, header of the version the API uses at this version, body. Records in
     * segment files become file regions between buffer pieces (sendfile), the rest one buffer.
     */
    private static OutboundResponse serialize(ChannelHandlerContext ctx, RequestContext context, short bodyVersion,
                                              Message body) {
        ResponseHeaderData header = new ResponseHeaderData().setCorrelationId(context.correlationId());
        short headerVersion = context.apiKey().responseHeaderVersion(bodyVersion);
        int size = header.size(headerVersion) + body.size(bodyVersion);
        long fileBytes = 0;
        if (mayHoldFileRecords(context.apiKey())) {
            FileRecordsCounter counter = new FileRecordsCounter();
            body.write(counter, bodyVersion);
            fileBytes = counter.fileBytes();
        }
        ByteBufWriter writer = new ByteBufWriter(ctx.alloc().buffer((int) (4 + size - fileBytes)));
        try {
            writer.writeInt32(size);
            header.write(writer, headerVersion);
            body.write(writer, bodyVersion);
            return writer.finish();
        } catch (RuntimeException e) {
            writer.discard();
            throw e;
        }
    }

    /** The APIs whose responses carry records fields, which handlers may fill with {@link FileRecords}. */
    private static boolean mayHoldFileRecords(ApiKey apiKey) {
        return apiKey == ApiKey.FETCH || apiKey == ApiKey.SHARE_FETCH;
    }

    private static ByteBuffer nioView(ByteBuf frame) {
        if (frame.nioBufferCount() == 1) {
            return frame.nioBuffer();
        }
        ByteBuffer copy = ByteBuffer.allocate(frame.readableBytes());
        frame.getBytes(frame.readerIndex(), copy);
        return copy.flip();
    }

    private static void closeWithReason(ChannelHandlerContext ctx, String reason) {
        LOG.warn("Closing connection from {}: {}", ctx.channel().remoteAddress(), reason);
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        observer.onConnectionClosed(ctx.channel().remoteAddress());
        responses.releaseAll();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (PeerDisconnect.isPeerGone(cause)) {
            LOG.debug("Connection from {} closed by the client: {}", ctx.channel().remoteAddress(), cause.toString());
        } else {
            LOG.warn("Closing connection from {}: {}", ctx.channel().remoteAddress(), cause.toString());
        }
        ctx.close();
    }
}

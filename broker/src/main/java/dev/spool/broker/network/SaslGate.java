package dev.spool.broker.network;

import dev.spool.broker.api.ConnectionIdentity;
import dev.spool.broker.api.Principal;
import dev.spool.broker.config.ListenerSasl;
import dev.spool.broker.security.SaslExchange;
import dev.spool.broker.security.SaslExchanges;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.RequestHeaderData;
import dev.spool.protocol.message.ResponseHeaderData;
import dev.spool.protocol.message.SaslAuthenticateRequestData;
import dev.spool.protocol.message.SaslAuthenticateResponseData;
import dev.spool.protocol.message.SaslHandshakeRequestData;
import dev.spool.protocol.message.SaslHandshakeResponseData;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.MessageParseException;
import dev.spool.protocol.types.ProtocolReader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not thread-safe: one connection's, on its event loop. A SASL listener's connection until it authenticates, as
 * Kafka's brokers keep it: ApiVersions passes through to the dispatcher; SaslHandshake names a mechanism the
 * listener enables, then SaslAuthenticate carries the exchange (or, after a v0 handshake, the mechanism's messages
 * travel as bare frames); anything else ends the connection unanswered, so no handler sees a request of a client
 * that has not authenticated. A failed login is answered SASL_AUTHENTICATION_FAILED and the connection closed
 * after {@value #FAILED_LOGIN_DELAY_MS} ms (Kafka's {@code connection.failed.authentication.delay.ms}), which
 * slows a client guessing passwords. Once authenticated, the principal is {@code User:<name>} and every frame
 * passes through, until the session ends ({@code connections.max.reauth.ms}, KIP-368): a client authenticates again
 * on the same connection (SaslHandshake, SaslAuthenticate; the same mechanism and principal), and a connection whose
 * session has ended is closed at its next request.
 */
final class SaslGate extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(SaslGate.class);
    private static final long FAILED_LOGIN_DELAY_MS = 100;
    /** Kafka's {@code sasl.server.max.receive.size} default. */
    private static final int MAX_FRAME_BEFORE_AUTHENTICATION = 524_288;
    private static final int HEADER_PEEK_BYTES = 4;
    private static final short RAW_TOKENS_VERSION = 0;

    /** HOLDING: a re-authentication handshake waits for the responses before it. */
    private enum State { HANDSHAKE, AUTHENTICATE, RAW_TOKENS, DONE, HOLDING, REAUTHENTICATE, FAILED }

    private final ListenerSasl sasl;
    private final SaslExchanges exchanges;
    private final FailedLogins failures;
    private final LongSupplier clock;
    private State state = State.HANDSHAKE;
    private SaslExchange exchange;
    private String mechanism;
    /** Who the connection authenticated as, once it has. */
    private String user;
    /** When the session ends (epoch ms), or 0 when it does not; how long it was when it began. */
    private long sessionEndsAtMs;
    private long sessionLifetimeMs;
    /** A re-authentication handshake waiting for the responses before it (state HOLDING). */
    private ByteBuf held;

    SaslGate(ListenerSasl sasl, SaslExchanges exchanges, FailedLogins failures, LongSupplier clock) {
        this.sasl = sasl;
        this.exchanges = exchanges;
        this.failures = failures;
        this.clock = clock;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        ctx.pipeline().get(FrameDecoder.class).limitUntilAuthenticated(MAX_FRAME_BEFORE_AUTHENTICATION);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        read(ctx, (ByteBuf) message, false);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (held != null) {
            held.release();
            held = null;
        }
        ctx.fireChannelInactive();
    }

    /** {@code earlierAnswered}: a held re-authentication handshake, read again once the responses before it went. */
    private void read(ChannelHandlerContext ctx, ByteBuf frame, boolean earlierAnswered) {
        if (state == State.HOLDING) {
            frame.release();
            close(ctx, "a request while its re-authentication waited for earlier responses");
            return;
        }
        if (state == State.DONE) {
            ApiKey apiKey = peekApiKey(frame);
            if (apiKey == ApiKey.SASL_HANDSHAKE && !earlierAnswered) {
                hold(ctx, frame);
                return;
            }
            if (apiKey != ApiKey.SASL_HANDSHAKE) {
                if (sessionEndsAtMs != 0 && clock.getAsLong() >= sessionEndsAtMs) {
                    frame.release();
                    close(ctx, "its SASL session ended at " + sessionEndsAtMs + " and it did not authenticate again");
                    return;
                }
                ctx.fireChannelRead(frame);
                return;
            }
        }
        try {
            if (state == State.FAILED) {
                return; // closing: what was read after the failure is dropped
            }
            if (state == State.RAW_TOKENS) {
                byte[] token = new byte[frame.readableBytes()];
                frame.readBytes(token);
                evaluateRawToken(ctx, token);
                return;
            }
            ApiKey apiKey = peekApiKey(frame);
            if (apiKey == ApiKey.API_VERSIONS && state != State.REAUTHENTICATE) {
                ctx.fireChannelRead(frame.retain());
                return;
            }
            if (apiKey == ApiKey.SASL_HANDSHAKE && (state == State.HANDSHAKE || state == State.DONE)
                    || apiKey == ApiKey.SASL_AUTHENTICATE
                    && (state == State.AUTHENTICATE || state == State.REAUTHENTICATE)) {
                answer(ctx, apiKey, frame);
                return;
            }
            close(ctx, (apiKey == null ? "an unknown request" : apiKey + " request") + " in SASL state " + state
                    + ": a client must authenticate first");
        } catch (MessageParseException | IndexOutOfBoundsException e) {
            close(ctx, "malformed SASL request: " + e.getMessage());
        } finally {
            frame.release();
        }
    }

    /**
     * Holds a re-authentication handshake until the responses to every request before it are written, as Kafka's
     * broker (which reads one request at a time) answers it: a client may match answers to requests in order.
     */
    private void hold(ChannelHandlerContext ctx, ByteBuf frame) {
        state = State.HOLDING;
        held = frame;
        ReadGate.of(ctx.channel()).hold(ReadGate.Hold.SASL_ORDER);
        ctx.pipeline().get(RequestDispatcher.class).afterPendingResponses(() -> {
            ByteBuf handshake = held;
            held = null;
            if (handshake == null || state != State.HOLDING) {
                return;
            }
            state = State.DONE;
            ReadGate.of(ctx.channel()).release(ReadGate.Hold.SASL_ORDER);
            read(ctx, handshake, true);
        });
    }

    private static ApiKey peekApiKey(ByteBuf frame) {
        return frame.readableBytes() < HEADER_PEEK_BYTES ? null : ApiKey.forId(frame.getShort(frame.readerIndex()));
    }

    private void answer(ChannelHandlerContext ctx, ApiKey apiKey, ByteBuf frame) {
        short version = frame.getShort(frame.readerIndex() + 2);
        if (version < apiKey.lowestVersion || version > apiKey.highestVersion) {
            close(ctx, apiKey + " v" + version + " is not supported");
            return;
        }
        ProtocolReader reader = new ProtocolReader(frame.nioBuffer());
        RequestHeaderData header = new RequestHeaderData(reader, apiKey.requestHeaderVersion(version));
        Message request = apiKey.newRequest();
        request.read(reader, version);
        if (apiKey == ApiKey.SASL_HANDSHAKE) {
            handshake(ctx, (SaslHandshakeRequestData) request, version, header.correlationId());
        } else {
            authenticate(ctx, (SaslAuthenticateRequestData) request, version, header.correlationId());
        }
    }

    private void handshake(ChannelHandlerContext ctx, SaslHandshakeRequestData request, short version,
                           int correlationId) {
        String requested = request.mechanism();
        SaslHandshakeResponseData response = new SaslHandshakeResponseData()
                .setMechanisms(sasl.enabledMechanisms());
        if (!sasl.enabledMechanisms().contains(requested)) {
            write(ctx, ApiKey.SASL_HANDSHAKE, version, correlationId,
                    response.setErrorCode(Errors.UNSUPPORTED_SASL_MECHANISM.code()))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        boolean again = state == State.DONE;
        if (again && sessionEndsAtMs == 0) {
            // A session that does not end is not renewed (as Kafka answers it); the connection goes on.
            write(ctx, ApiKey.SASL_HANDSHAKE, version, correlationId,
                    response.setErrorCode(Errors.ILLEGAL_SASL_STATE.code()));
            return;
        }
        if (again && (version == RAW_TOKENS_VERSION || !requested.equals(mechanism))) {
            // Re-authentication goes through SaslAuthenticate (v1+ handshakes), with the mechanism first used.
            state = State.FAILED;
            write(ctx, ApiKey.SASL_HANDSHAKE, version, correlationId,
                    response.setErrorCode(Errors.ILLEGAL_SASL_STATE.code())).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        mechanism = requested;
        exchange = exchanges.start(requested);
        state = again ? State.REAUTHENTICATE : version == RAW_TOKENS_VERSION ? State.RAW_TOKENS : State.AUTHENTICATE;
        write(ctx, ApiKey.SASL_HANDSHAKE, version, correlationId, response.setErrorCode(Errors.NONE.code()));
    }

    private void authenticate(ChannelHandlerContext ctx, SaslAuthenticateRequestData request, short version,
                              int correlationId) {
        SaslExchange.Step step = exchange.evaluate(request.authBytes());
        SaslAuthenticateResponseData response = new SaslAuthenticateResponseData().setAuthBytes(step.challenge())
                .setSessionLifetimeMs(0);
        if (step.isFailed()) {
            fail(ctx, step.reason(), write(ctx, ApiKey.SASL_AUTHENTICATE, version, correlationId, response
                    .setErrorCode(Errors.SASL_AUTHENTICATION_FAILED.code()).setErrorMessage(step.failure())));
            return;
        }
        if (step.isComplete()) {
            String refused = completed(ctx, step);
            if (refused != null) {
                fail(ctx, refused, write(ctx, ApiKey.SASL_AUTHENTICATE, version, correlationId, response
                        .setErrorCode(Errors.SASL_AUTHENTICATION_FAILED.code()).setErrorMessage(refused)));
                return;
            }
            response.setSessionLifetimeMs(sessionLifetimeMs);
        }
        write(ctx, ApiKey.SASL_AUTHENTICATE, version, correlationId, response.setErrorCode(Errors.NONE.code()));
    }

    /**
     * The end of a successful exchange: the session starts (or, on re-authentication, goes on) and its end is set;
     * the reason it is refused instead (another principal than the session's, a credential already expired). As
     * Kafka sets it (KIP-368), whatever the client's version: a credential's expiry (a bearer token's) ends the
     * session, and connections.max.reauth.ms, when set, ends it sooner; with neither it does not end.
     */
    private String completed(ChannelHandlerContext ctx, SaslExchange.Step step) {
        if (state == State.REAUTHENTICATE && !step.authenticatedUser().equals(user)) {
            return "Cannot change principals during re-authentication from User:" + user + ": User:"
                    + step.authenticatedUser();
        }
        long now = clock.getAsLong();
        long maxReauthMs = sasl.reauthMsByMechanism().getOrDefault(mechanism, 0L);
        long lifetime = maxReauthMs;
        if (step.credentialExpiresAtMs() != 0) {
            lifetime = step.credentialExpiresAtMs() - now;
            if (lifetime <= 0) {
                return "Authentication failed: the credential has expired";
            }
            if (maxReauthMs > 0) {
                lifetime = Math.min(lifetime, maxReauthMs);
            }
        }
        sessionLifetimeMs = lifetime;
        sessionEndsAtMs = lifetime > 0 ? now + lifetime : 0;
        authenticated(ctx, step.authenticatedUser());
        return null;
    }

    /** After a v0 handshake: the mechanism's message as a bare frame, answered with a bare (size-prefixed) one. */
    private void evaluateRawToken(ChannelHandlerContext ctx, byte[] token) {
        SaslExchange.Step step = exchange.evaluate(token);
        if (step.isFailed()) {
            fail(ctx, step.reason(), null);
            return;
        }
        if (step.isComplete()) {
            String refused = completed(ctx, step);
            if (refused != null) {
                fail(ctx, refused, null);
                return;
            }
        }
        ByteBuf challenge = ctx.alloc().buffer(4 + step.challenge().length);
        challenge.writeInt(step.challenge().length).writeBytes(step.challenge());
        ctx.writeAndFlush(challenge);
    }

    private void authenticated(ChannelHandlerContext ctx, String user) {
        this.user = user;
        exchange = null;
        state = State.DONE;
        ctx.pipeline().get(FrameDecoder.class).authenticated();
        ctx.pipeline().get(RequestDispatcher.class).identify(new ConnectionIdentity(sasl.listenerName(),
                sasl.securityProtocol(), new Principal("User", user)));
    }

    /** Closes the connection {@value #FAILED_LOGIN_DELAY_MS} ms after the answer (if any) is sent. */
    private void fail(ChannelHandlerContext ctx, String reason, ChannelFuture answered) {
        failures.failed(sasl.listenerName(), ctx.channel().remoteAddress(), reason);
        state = State.FAILED;
        exchange = null;
        ReadGate.of(ctx.channel()).hold(ReadGate.Hold.FAILED_LOGIN);
        Runnable closeLater = () -> ctx.executor().schedule(() -> ctx.close(), FAILED_LOGIN_DELAY_MS,
                TimeUnit.MILLISECONDS);
        if (answered == null) {
            closeLater.run();
        } else {
            answered.addListener(sent -> closeLater.run());
        }
    }

    private static ChannelFuture write(ChannelHandlerContext ctx, ApiKey apiKey, short version, int correlationId,
                                       Message body) {
        ResponseHeaderData header = new ResponseHeaderData().setCorrelationId(correlationId);
        short headerVersion = apiKey.responseHeaderVersion(version);
        int size = header.size(headerVersion) + body.size(version);
        ByteBufWriter writer = new ByteBufWriter(ctx.alloc().buffer(4 + size));
        try {
            writer.writeInt32(size);
            header.write(writer, headerVersion);
            body.write(writer, version);
        } catch (RuntimeException e) {
            writer.discard();
            throw e;
        }
        writer.finish().writeTo(ctx);
        // Completes once the answer before it is written.
        return ctx.writeAndFlush(Unpooled.EMPTY_BUFFER);
    }

    private static void close(ChannelHandlerContext ctx, String reason) {
        LOG.info("Closing connection from {}: {}", ctx.channel().remoteAddress(), reason);
        ctx.close();
    }
}

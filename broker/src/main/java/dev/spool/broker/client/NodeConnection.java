package dev.spool.broker.client;

import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.types.ByteBufferWriter;
import dev.spool.protocol.types.Message;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOption;
import java.io.IOException;
import java.net.ConnectException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Thread-safe: one TCP connection to one node, over which any thread sends Kafka requests and gets their
 * responses as futures. It connects on the first send, and again on the first send after the connection
 * dropped; in between, requests are pipelined on the one connection, as Kafka's clients do.
 *
 * <p>A request's future completes with the response body, or fails with:
 * <ul>
 *   <li>a {@link ConnectException} when the node cannot be reached (refused, or no connection within
 *       {@link ClientSettings#connectTimeoutMs}), at once: there is no retry or backoff here, the caller decides
 *       when to try again (a heartbeat at its next interval, registration after its backoff);</li>
 *   <li>an {@link IOException} when the connection drops or is closed with the request in flight: every request
 *       in flight fails then, since none of them can be answered on a new connection;</li>
 *   <li>a {@link java.util.concurrent.TimeoutException} when no response came within
 *       {@link ClientSettings#requestTimeoutMs}; the connection is closed then, see {@link NodeChannelHandler}.</li>
 * </ul>
 *
 * <p>Futures complete on the connection's event loop, so callbacks chained to them run there: a callback that
 * blocks or works long must move to an executor of its own ({@code thenApplyAsync(fn, executor)}), or it stalls
 * every connection on that loop, and on borrowed loops the broker's clients too.
 */
public final class NodeConnection implements AutoCloseable {

    private final NodeAddress address;
    private final ChannelSecurity security;
    private final Bootstrap bootstrap;
    /** Correlation ids of this connection's requests, increasing across reconnects, non-negative. */
    private final AtomicInteger correlationIds = new AtomicInteger();
    /** The latest connect attempt, done or not; null before the first send. Guarded by this. */
    private ChannelFuture connecting;
    private volatile boolean closed;

    public NodeConnection(NodeAddress address, ClientSettings settings, ClientEventLoops loops) {
        this(address, settings, ChannelSecurity.PLAINTEXT, loops);
    }

    /** A connection secured by {@code security}: each new connection does its TLS handshake and SASL login first. */
    public NodeConnection(NodeAddress address, ClientSettings settings, ChannelSecurity security,
                          ClientEventLoops loops) {
        this.address = address;
        this.security = security;
        this.bootstrap = new Bootstrap()
                .group(loops.group())
                .channel(loops.channelType())
                // Requests are small and each is waited for: Nagle's algorithm would only hold them back.
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, settings.connectTimeoutMs())
                .handler(new NodeChannelInitializer(address, settings, security,
                        () -> correlationIds.getAndIncrement() & Integer.MAX_VALUE));
    }

    public NodeAddress address() {
        return address;
    }

    /**
     * Sends {@code request} as {@code api} at {@code version}, connecting first if there is no connection. The
     * request is serialized before this returns, so the caller may change or reuse it at once.
     *
     * @param <R> the response class of {@code api} (the class of {@link ApiKey#newResponse()}); the future is cast
     *            to it unchecked, so a wrong one fails with a ClassCastException where the response is used
     * @throws IllegalArgumentException if {@code api} has no version {@code version}
     */
    public <R extends Message> CompletableFuture<R> send(ApiKey api, short version, Message request) {
        if (!api.isVersionDefined(version)) {
            throw new IllegalArgumentException(api.displayName + " has versions " + api.lowestVersion + "-"
                    + api.highestVersion + ", not " + version);
        }
        PendingRequest pending = new PendingRequest(api, version, ByteBufferWriter.serialize(request, version));
        ChannelFuture channel;
        synchronized (this) {
            if (closed) {
                return CompletableFuture.failedFuture(new IOException("Connection to " + address + " is closed"));
            }
            channel = connectedOrConnecting();
        }
        channel.addListener((ChannelFutureListener) connected -> writeOnceConnected(connected, pending));
        return responseOf(pending);
    }

    @SuppressWarnings("unchecked")
    private static <R extends Message> CompletableFuture<R> responseOf(PendingRequest pending) {
        return (CompletableFuture<R>) (CompletableFuture<?>) pending.response;
    }

    /** Sends on {@code channel} as it is, before it is ready: the login's own requests. */
    private static CompletableFuture<Message> sendOn(Channel channel, ApiKey api, short version, Message request) {
        PendingRequest pending = new PendingRequest(api, version, ByteBufferWriter.serialize(request, version));
        channel.writeAndFlush(pending).addListener((ChannelFutureListener) written -> {
            if (!written.isSuccess()) {
                pending.fail(new IOException("Cannot send " + pending.describe() + ": " + written.cause().getMessage(),
                        written.cause()));
            }
        });
        return pending.response;
    }

    /** Guarded by this: the connection or connect attempt to use, a new one if the last failed or dropped. */
    private ChannelFuture connectedOrConnecting() {
        if (connecting == null || connecting.isDone() && !(connecting.isSuccess() && connecting.channel().isActive()
                && !Boolean.TRUE.equals(connecting.channel().attr(ChannelLogin.RETIRING).get()))) {
            connecting = ChannelLogin.of(bootstrap.connect(address.host(), address.port()), security, address,
                    NodeConnection::sendOn);
        }
        return connecting;
    }

    /** On the event loop, once the connect attempt is over. */
    private void writeOnceConnected(ChannelFuture connected, PendingRequest pending) {
        if (!connected.isSuccess()) {
            pending.fail(closed ? new IOException("Connection to " + address + " closed while connecting")
                    : connectFailure(connected.cause()));
            return;
        }
        connected.channel().writeAndFlush(pending).addListener((ChannelFutureListener) written -> {
            if (!written.isSuccess()) {
                // Also when the channel closed before the request reached the pipeline's handler.
                pending.fail(new IOException("Cannot send " + pending.describe() + " to " + address + ": "
                        + written.cause().getMessage(), written.cause()));
            }
        });
    }

    /** A ConnectException of this request's own (the attempt's is shared by every request that waited on it). */
    private ConnectException connectFailure(Throwable cause) {
        ConnectException failure = new ConnectException("Cannot connect to node " + address + ": "
                + cause.getMessage());
        failure.initCause(cause);
        return failure;
    }

    /** Whether a connection is open now (it may still drop before the next send). */
    public synchronized boolean isConnected() {
        return connecting != null && connecting.isSuccess() && connecting.channel().isActive();
    }

    /**
     * Closes the connection, failing every request in flight or waiting for the connect with an IOException;
     * sends after this fail at once. Does not wait for the socket to close, so that it may be called from an event
     * loop. Idempotent.
     */
    @Override
    public void close() {
        ChannelFuture last;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            last = connecting;
            connecting = null;
        }
        if (last != null) {
            last.channel().close();
        }
    }
}

package dev.spool.broker.network;

import dev.spool.broker.api.ApiRegistry;
import dev.spool.broker.api.ApiVersionsHandler;
import dev.spool.broker.api.ConnectionIdentity;
import dev.spool.broker.api.Principal;
import dev.spool.broker.config.Endpoint;
import dev.spool.broker.config.ListenerSasl;
import dev.spool.broker.quota.ConnectionRates;
import dev.spool.broker.security.SaslExchanges;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Accepts client connections on the configured listeners and wires each into a pipeline of
 * {@link FrameDecoder} and {@link RequestDispatcher}, behind the {@link NetworkLimits} (connection
 * counts, idle timeout, queued requests, socket buffers), on a {@link NetworkTransport}. Thread-safe:
 * start and stop are called by the broker's lifecycle.
 */
public final class NetworkServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NetworkServer.class);
    private static final long DRAIN_MILLIS = 5_000;

    private final ApiRegistry registry;
    private final ApiVersionsHandler apiVersions;
    private final int maxFrameBytes;
    private final NetworkTransport transport;
    private final List<Channel> serverChannels = new ArrayList<>();
    private final RequestObserver observer;
    private final NetworkLimits limits;
    private final ConnectionLimiter connectionLimiter;
    private final ConnectionRates connectionRates;
    private final Predicate<String> nodeListener;
    private final AtomicInteger inFlightTotal = new AtomicInteger();
    private final ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final FailedLogins failedLogins = new FailedLogins();

    /** A server on this transport, which it owns from now on (closes it in {@link #close()}). */
    public NetworkServer(ApiRegistry registry, ApiVersionsHandler apiVersions, int maxFrameBytes,
                         NetworkTransport transport, RequestObserver observer, NetworkLimits limits) {
        this(registry, apiVersions, maxFrameBytes, transport, observer, limits, null, listener -> false);
    }

    /**
     * As above, new connections also limited by {@code connectionRates} (null: not), the broker's rate on every
     * listener but those {@code nodeListener} names (nodes of the cluster connect there).
     */
    public NetworkServer(ApiRegistry registry, ApiVersionsHandler apiVersions, int maxFrameBytes,
                         NetworkTransport transport, RequestObserver observer, NetworkLimits limits,
                         ConnectionRates connectionRates, Predicate<String> nodeListener) {
        this.connectionRates = connectionRates;
        this.nodeListener = nodeListener;
        this.limits = limits;
        this.connectionLimiter = new ConnectionLimiter(limits.maxConnections(), limits.maxConnectionsPerIp());
        this.observer = observer;
        this.registry = registry;
        this.apiVersions = apiVersions;
        this.maxFrameBytes = maxFrameBytes;
        this.transport = transport;
    }

    /** Binds a PLAINTEXT listener (as {@link #bind(Endpoint, String)}). */
    public Endpoint bind(Endpoint endpoint) throws IOException, InterruptedException {
        return bind(endpoint, "PLAINTEXT");
    }

    /**
     * Binds a PLAINTEXT listener and returns the endpoint actually bound (port 0 becomes the chosen port); an SSL one
     * goes through {@link #bindTls}. Each of its connections carries that listener's identity into every request's
     * context. A listener that cannot be bound (the port is taken, the address is not this machine's) is an
     * IOException naming the listener and its address.
     */
    public Endpoint bind(Endpoint endpoint, String securityProtocol) throws IOException, InterruptedException {
        if (!"PLAINTEXT".equals(securityProtocol)) {
            throw new IllegalArgumentException("Cannot serve " + securityProtocol + " on " + endpoint);
        }
        return bind(endpoint, ConnectionIdentity.plaintext(endpoint.listenerName()), null, null);
    }

    /**
     * Binds an SSL listener (as {@link #bind(Endpoint, String)}): TLS as {@code tls} says, each connection's
     * principal named by its client certificate.
     */
    public Endpoint bindTls(Endpoint endpoint, ServerTls tls) throws IOException, InterruptedException {
        TlsPrincipalHandler principals = new TlsPrincipalHandler(endpoint.listenerName(), tls.principalRules());
        // No identity until the handshake names the principal: a frame before that is refused (RequestDispatcher).
        return bind(endpoint, null, tls, principals);
    }

    /**
     * Binds a SASL_PLAINTEXT listener, or with {@code tls} a SASL_SSL one (as {@link #bind(Endpoint, String)}): a
     * connection's requests reach the handlers only once it has authenticated ({@link SaslGate}), and carry the
     * principal it authenticated as.
     */
    public Endpoint bindSasl(Endpoint endpoint, ListenerSasl sasl, ServerTls tls, SaslExchanges exchanges)
            throws IOException, InterruptedException {
        return bind(endpoint, new ConnectionIdentity(endpoint.listenerName(), sasl.securityProtocol(),
                Principal.ANONYMOUS), tls, null,
                () -> new SaslGate(sasl, exchanges, failedLogins, System::currentTimeMillis));
    }

    private Endpoint bind(Endpoint endpoint, ConnectionIdentity identity, ServerTls tls,
                          TlsPrincipalHandler principals) throws IOException, InterruptedException {
        return bind(endpoint, identity, tls, principals, null);
    }

    private Endpoint bind(Endpoint endpoint, ConnectionIdentity identity, ServerTls tls,
                          TlsPrincipalHandler principals, Supplier<SaslGate> sasl)
            throws IOException, InterruptedException {
        ConnectionRateLimiter rateLimiter = connectionRates == null ? null : new ConnectionRateLimiter(connectionRates,
                !nodeListener.test(endpoint.listenerName()), () -> System.nanoTime() / 1_000_000);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(transport.acceptors, transport.workers)
                .channel(transport.serverChannelType)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true);
        // A size set here is fixed for the connection's life: Linux no longer grows the buffer with its
        // traffic. 0 or less leaves the kernel's autotuning. The receive buffer goes on the listening socket
        // as well, as Kafka does, so that the window scale agreed in the handshake fits it.
        if (limits.sendBufferBytes() > 0) {
            bootstrap.childOption(ChannelOption.SO_SNDBUF, limits.sendBufferBytes());
        }
        if (limits.receiveBufferBytes() > 0) {
            bootstrap.option(ChannelOption.SO_RCVBUF, limits.receiveBufferBytes())
                    .childOption(ChannelOption.SO_RCVBUF, limits.receiveBufferBytes());
        }
        bootstrap
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        if (limits.connectionsMaxIdleMs() > 0) {
                            channel.pipeline().addLast("idle", new IdleStateHandler(0, 0, limits.connectionsMaxIdleMs(),
                                    TimeUnit.MILLISECONDS));
                        }
                        if (tls != null) {
                            // Outermost, so that the limits and frames see plaintext; regions become buffers.
                            // The context of now: a renewed key store serves the connections after it.
                            channel.pipeline().addFirst("tls", tls.context().newHandler(channel.alloc()))
                                    .addAfter("tls", "chunks", new ChunkedWriteHandler())
                                    .addLast("file-regions", FileRegionCopier.INSTANCE);
                        }
                        if (principals != null) {
                            channel.pipeline().addLast("principal", principals);
                        }
                        channel.pipeline()
                                .addLast("limits", connectionLimiter);
                        if (rateLimiter != null) {
                            channel.pipeline().addLast("rates", rateLimiter);
                        }
                        channel.pipeline().addLast("frames", new FrameDecoder(maxFrameBytes));
                        if (sasl != null) {
                            channel.pipeline().addLast("sasl", sasl.get());
                        }
                        channel.pipeline()
                                .addLast("requests", new RequestDispatcher(registry, apiVersions, observer,
                                        new InFlightRequests(limits.queuedMaxRequests(), inFlightTotal), identity));
                        connections.add(channel);
                    }
                });
        ChannelFuture binding = bootstrap.bind(endpoint.host(), endpoint.port()).await();
        if (!binding.isSuccess()) {
            throw new IOException("Cannot bind listener " + endpoint.listenerName() + " to " + endpoint.host() + ":"
                    + endpoint.port() + ": " + binding.cause().getMessage(), binding.cause());
        }
        Channel channel = binding.channel();
        serverChannels.add(channel);
        InetSocketAddress bound = (InetSocketAddress) channel.localAddress();
        return endpoint.withPort(bound.getPort());
    }

    /** The client connections open now (for tests of what a connection is given). */
    Collection<Channel> openConnections() {
        return List.copyOf(connections);
    }

    /**
     * A graceful stop: no new connections, no new requests read, the requests in flight answered (for
     * up to {@value #DRAIN_MILLIS} ms: a produce acknowledged now is not retried into a duplicate after
     * the restart) and their answers written, then every connection closed.
     */
    @Override
    public void close() {
        for (Channel channel : serverChannels) {
            channel.close().syncUninterruptibly();
        }
        for (Channel channel : connections) {
            ReadGate.of(channel).hold(ReadGate.Hold.SHUTDOWN);
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MILLIS);
        while (inFlightTotal.get() > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (inFlightTotal.get() > 0) {
            LOG.warn("Closing {} connections with {} requests still unanswered after {} ms", connections.size(),
                    inFlightTotal.get(), DRAIN_MILLIS);
        }
        for (Channel channel : connections) {
            // Queued behind the answers already written: the connection closes once they are sent.
            channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
        connections.newCloseFuture().awaitUninterruptibly(DRAIN_MILLIS);
        transport.close();
    }
}

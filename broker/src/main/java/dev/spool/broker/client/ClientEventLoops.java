package dev.spool.broker.client;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Thread-safe: the event loops {@link NodeConnection}s run on, with the socket channel type that matches them
 * (epoll loops take an {@link EpollSocketChannel}, NIO loops a {@link NioSocketChannel}; Netty refuses a mix).
 *
 * <p>Design note: the loops are either borrowed or owned. Borrowed ({@link #shared}) is for the requests a
 * broker sends its controller (registration, a heartbeat every {@code broker.heartbeat.interval.ms}, forwarded
 * CreateTopics): small and rare, they can ride on the broker's own network threads and cost no thread and no
 * start-up time. Owned ({@link #ownThreads}) is for a client whose responses are large enough that reading them
 * on a server thread would delay that thread's clients (the replica fetcher, as Kafka gives each fetcher a
 * thread), and for tests. {@link #close} shuts down only loops this made.
 */
public final class ClientEventLoops implements AutoCloseable {

    private final EventLoopGroup group;
    private final Class<? extends Channel> channelType;
    private final boolean owned;

    private ClientEventLoops(EventLoopGroup group, Class<? extends Channel> channelType, boolean owned) {
        this.group = Objects.requireNonNull(group, "group");
        this.channelType = Objects.requireNonNull(channelType, "channelType");
        this.owned = owned;
    }

    /** Loops someone else made and shuts down; {@code channelType} must be the socket channel of their transport. */
    public static ClientEventLoops shared(EventLoopGroup group, Class<? extends Channel> channelType) {
        return new ClientEventLoops(group, channelType, false);
    }

    /**
     * {@code threads} loops of this client's own, on epoll when the platform has it and NIO otherwise (as the
     * broker's {@code NetworkTransport} chooses), on daemon threads named {@code threadName-N}.
     */
    public static ClientEventLoops ownThreads(int threads, String threadName) {
        if (threads < 1) {
            throw new IllegalArgumentException("A client needs at least one event loop thread, got " + threads);
        }
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(threadName, true), io);
        return new ClientEventLoops(group, epoll ? EpollSocketChannel.class : NioSocketChannel.class, true);
    }

    public EventLoopGroup group() {
        return group;
    }

    public Class<? extends Channel> channelType() {
        return channelType;
    }

    /** Shuts the loops down and waits for them, if this made them; does nothing to borrowed loops. */
    @Override
    public void close() {
        if (owned) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}

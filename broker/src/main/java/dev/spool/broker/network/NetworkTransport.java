package dev.spool.broker.network;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thread-safe: the event loops of the {@link NetworkServer}, one accepting and {@code threads} serving
 * connections, on the native epoll transport when the platform has it, NIO otherwise.
 */
public final class NetworkTransport implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NetworkTransport.class);

    final EventLoopGroup acceptors;
    final EventLoopGroup workers;
    final Class<? extends ServerChannel> serverChannelType;

    public NetworkTransport(int threads) {
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        this.acceptors = new MultiThreadIoEventLoopGroup(1, io);
        this.workers = new MultiThreadIoEventLoopGroup(threads, io);
        this.serverChannelType = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        LOG.debug("Network transport: {}, {} threads", epoll ? "epoll" : "nio", threads);
    }

    /**
     * A transport made on a thread of its own: loading the native transport and starting the event loops take
     * 30-40 ms of a broker's start-up, which the broker spends loading its logs meanwhile.
     */
    public static CompletableFuture<NetworkTransport> startInBackground(int threads) {
        CompletableFuture<NetworkTransport> transport = new CompletableFuture<>();
        Thread starter = new Thread(() -> {
            try {
                transport.complete(new NetworkTransport(threads));
            } catch (Throwable e) {
                transport.completeExceptionally(e);
            }
        }, "spool-network-start");
        starter.setDaemon(true);
        starter.start();
        return transport;
    }

    @Override
    public void close() {
        acceptors.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}

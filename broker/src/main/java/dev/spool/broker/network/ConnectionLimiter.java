package dev.spool.broker.network;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.AttributeKey;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Enforces {@code max.connections} (over all listeners) and {@code max.connections.per.ip}: a
 * connection beyond either limit is closed as soon as it is accepted, before it can send anything.
 * Also closes a connection on the idle event of the {@link io.netty.handler.timeout.IdleStateHandler}
 * placed before it ({@code connections.max.idle.ms}: no byte read or written for that long).
 * Thread-safe: one instance shared by every channel.
 */
@ChannelHandler.Sharable
public final class ConnectionLimiter extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionLimiter.class);
    private static final AttributeKey<InetAddress> COUNTED = AttributeKey.valueOf("spool.connection.counted");

    private final int maxConnections;
    private final int maxConnectionsPerIp;
    private final AtomicInteger connections = new AtomicInteger();
    private final ConcurrentHashMap<InetAddress, Integer> connectionsPerIp = new ConcurrentHashMap<>();

    public ConnectionLimiter(int maxConnections, int maxConnectionsPerIp) {
        this.maxConnections = maxConnections;
        this.maxConnectionsPerIp = maxConnectionsPerIp;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        InetAddress address = ((InetSocketAddress) ctx.channel().remoteAddress()).getAddress();
        if (connections.incrementAndGet() > maxConnections) {
            connections.decrementAndGet();
            refuse(ctx, "max.connections (" + maxConnections + ") reached");
            return;
        }
        int fromAddress = connectionsPerIp.merge(address, 1, Integer::sum);
        if (fromAddress > maxConnectionsPerIp) {
            connectionsPerIp.computeIfPresent(address, (key, count) -> count == 1 ? null : count - 1);
            connections.decrementAndGet();
            refuse(ctx, "max.connections.per.ip (" + maxConnectionsPerIp + ") reached for " + address.getHostAddress());
            return;
        }
        ctx.channel().attr(COUNTED).set(address);
        ctx.fireChannelActive();
    }

    private static void refuse(ChannelHandlerContext ctx, String reason) {
        LOG.info("Refusing connection from {}: {}", ctx.channel().remoteAddress(), reason);
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        InetAddress address = ctx.channel().attr(COUNTED).getAndSet(null);
        if (address != null) {
            connectionsPerIp.computeIfPresent(address, (key, count) -> count == 1 ? null : count - 1);
            connections.decrementAndGet();
            ctx.fireChannelInactive();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof IdleStateEvent) {
            LOG.debug("Closing idle connection from {} (connections.max.idle.ms)", ctx.channel().remoteAddress());
            ctx.close();
            return;
        }
        ctx.fireUserEventTriggered(event);
    }

    /** Connections open now (accepted and within the limits). */
    public int connections() {
        return connections.get();
    }
}

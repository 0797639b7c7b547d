package dev.spool.broker.network;

import dev.spool.broker.quota.ConnectionRates;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AttributeKey;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies {@link ConnectionRates} to each new connection of a listener: one over its IP address's quota is closed
 * after the quota's throttle time, before it can send anything; one over the broker's rate is not read until its
 * turn (and, closed before it, is not counted). A controller listener's connections (nodes of the cluster) are not
 * limited by the broker's rate. Thread-safe: one per listener, shared by its channels.
 */
@ChannelHandler.Sharable
final class ConnectionRateLimiter extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionRateLimiter.class);
    private static final AttributeKey<Boolean> WAITING = AttributeKey.valueOf("spool.connection.rate.waiting");

    private final ConnectionRates rates;
    private final boolean brokerRateApplies;
    private final LongSupplier clockMs;

    /** {@code clockMs}: a monotonic clock, so that a wall clock set back never stops the rates from refilling. */
    ConnectionRateLimiter(ConnectionRates rates, boolean brokerRateApplies, LongSupplier clockMs) {
        this.rates = rates;
        this.brokerRateApplies = brokerRateApplies;
        this.clockMs = clockMs;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        long nowMs = clockMs.getAsLong();
        InetSocketAddress peer = (InetSocketAddress) ctx.channel().remoteAddress();
        long throttleMs = rates.addressThrottleMs(peer.getAddress(), nowMs);
        if (throttleMs > 0) {
            // Debug, not info: a storm of them is what the quota is for.
            LOG.debug("Closing connection from {} in {} ms: connection_creation_rate of its IP address exceeded",
                    peer, throttleMs);
            ReadGate.of(ctx.channel()).hold(ReadGate.Hold.CONNECTION_RATE);
            ctx.executor().schedule(() -> ctx.close(), throttleMs, TimeUnit.MILLISECONDS);
        } else if (brokerRateApplies) {
            long delayMs = rates.brokerDelayMs(nowMs);
            if (delayMs > 0) {
                ReadGate gate = ReadGate.of(ctx.channel());
                gate.hold(ReadGate.Hold.CONNECTION_RATE);
                ctx.channel().attr(WAITING).set(Boolean.TRUE);
                ctx.executor().schedule(() -> {
                    ctx.channel().attr(WAITING).set(null);
                    gate.release(ReadGate.Hold.CONNECTION_RATE);
                }, delayMs, TimeUnit.MILLISECONDS);
            }
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (ctx.channel().attr(WAITING).getAndSet(null) != null) {
            rates.brokerConnectionGone();
        }
        ctx.fireChannelInactive();
    }
}

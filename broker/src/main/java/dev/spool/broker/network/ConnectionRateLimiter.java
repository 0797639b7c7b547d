package dev.spool.broker.network;

import dev.spool.broker.quota.ConnectionRates;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies {@link ConnectionRates} to each new connection of a listener: one over its IP address's quota is closed
 * after the quota's throttle time, before it can send anything; one over the broker's rate is not read until its
 * turn. A controller listener's connections (nodes of the cluster) are not limited by the broker's rate. Thread-safe:
 * one per listener, shared by its channels.
 */
@ChannelHandler.Sharable
final class ConnectionRateLimiter extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionRateLimiter.class);

    private final ConnectionRates rates;
    private final boolean brokerRateApplies;
    private final LongSupplier clockMs;

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
            LOG.info("Closing connection from {} in {} ms: connection_creation_rate of its IP address exceeded", peer,
                    throttleMs);
            ReadGate.of(ctx.channel()).hold(ReadGate.Hold.CONNECTION_RATE);
            ctx.executor().schedule(() -> ctx.close(), throttleMs, TimeUnit.MILLISECONDS);
        } else if (brokerRateApplies) {
            long delayMs = rates.brokerDelayMs(nowMs);
            if (delayMs > 0) {
                ReadGate gate = ReadGate.of(ctx.channel());
                gate.hold(ReadGate.Hold.CONNECTION_RATE);
                ctx.executor().schedule(() -> gate.release(ReadGate.Hold.CONNECTION_RATE), delayMs,
                        TimeUnit.MILLISECONDS);
            }
        }
        ctx.fireChannelActive();
    }
}

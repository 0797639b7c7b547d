package dev.spool.broker.network;

import io.netty.channel.Channel;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Backpressure for {@code queued.max.requests}, per connection: the requests a connection sent that are
 * read but not yet answered. When a request brings the count to the limit the connection stops reading
 * (auto-read off; the kernel's socket buffer then pushes back on the client), and the answer that
 * brings it below the limit lets it read again. Per connection, so that requests parked on purpose
 * (long-poll fetches, joins waiting for a rebalance) on many connections never stop the others, and a
 * client pipelining without bound only slows itself. Each request is also counted in a broker-wide
 * total, which a graceful shutdown waits to drain. Not thread-safe: one per channel, called on its
 * event loop (the total is thread-safe).
 */
public final class InFlightRequests {

    private final int maxQueuedRequests;
    private final AtomicInteger brokerWide;
    private int inFlight;

    public InFlightRequests(int maxQueuedRequests) {
        this(maxQueuedRequests, new AtomicInteger());
    }

    public InFlightRequests(int maxQueuedRequests, AtomicInteger brokerWide) {
        this.maxQueuedRequests = maxQueuedRequests;
        this.brokerWide = brokerWide;
    }

    /** A request of {@code channel} was handed to its handler. */
    public void started(Channel channel) {
        brokerWide.incrementAndGet();
        if (++inFlight >= maxQueuedRequests) {
            ReadGate.of(channel).hold(ReadGate.Hold.QUEUE_FULL);
        }
    }

    /** A request of {@code channel} was answered (or dropped with its connection). */
    public void finished(Channel channel) {
        brokerWide.decrementAndGet();
        if (inFlight-- == maxQueuedRequests) {
            ReadGate.of(channel).release(ReadGate.Hold.QUEUE_FULL);
        }
    }

    public int inFlight() {
        return inFlight;
    }
}

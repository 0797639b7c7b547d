package dev.spool.broker.network;

import io.netty.channel.Channel;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Backpressure for {@code queued.max.requests}: the requests read but not yet answered, over all
 * connections. When a request brings the count to the limit, the connection it came on stops reading
 * (auto-read off; the kernel's socket buffer then pushes back on the client); every answer that
 * brings the count below the limit lets the stopped connections read again. A stopped connection
 * always has a request of its own in flight, whose answer resumes it. Thread-safe: one instance shared
 * by every channel.
 */
public final class InFlightRequests {

    private final int maxQueuedRequests;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Queue<Channel> paused = new ConcurrentLinkedQueue<>();

    public InFlightRequests(int maxQueuedRequests) {
        this.maxQueuedRequests = maxQueuedRequests;
    }

    /** A request of {@code channel} was handed to its handler. */
    public void started(Channel channel) {
        if (inFlight.incrementAndGet() >= maxQueuedRequests) {
            channel.config().setAutoRead(false);
            paused.add(channel);
        }
    }

    /** A request was answered (or dropped with its connection). */
    public void finished() {
        if (inFlight.decrementAndGet() < maxQueuedRequests) {
            Channel channel;
            while ((channel = paused.poll()) != null) {
                channel.config().setAutoRead(true);
            }
        }
    }

    public int inFlight() {
        return inFlight.get();
    }
}

package dev.spool.broker.network;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;

/**
 * Whether a connection reads requests: it does while nothing holds it. Several parts of the network layer stop a
 * connection reading for their own reasons and at their own times (too many requests in flight, a SASL exchange
 * waiting for earlier answers, a failed login, a quota's throttle, a connection rate, the broker stopping); each
 * holds and releases only its own reason, so that one ending never lets a connection read while another still
 * holds it. Thread-safe: one per channel.
 */
public final class ReadGate {

    /** Why a connection does not read. */
    public enum Hold {
        /** {@code queued.max.requests} requests of the connection are unanswered. */
        QUEUE_FULL,
        /** A SASL re-authentication waits for the answers to the requests before it. */
        SASL_ORDER,
        /** A failed login: the connection closes soon. */
        FAILED_LOGIN,
        /** Over a client quota: muted for the throttle time its response told (KIP-219). */
        THROTTLED,
        /** A new connection over a connection creation rate: served later, or closed. */
        CONNECTION_RATE,
        /** The broker is stopping. */
        SHUTDOWN
    }

    private static final AttributeKey<ReadGate> GATE = AttributeKey.valueOf("spool.read.gate");

    private final Channel channel;
    private final EnumSet<Hold> holds = EnumSet.noneOf(Hold.class);
    private long throttledUntilNanos;

    private ReadGate(Channel channel) {
        this.channel = channel;
    }

    /** The gate of {@code channel}, made on first use. */
    public static ReadGate of(Channel channel) {
        ReadGate gate = channel.attr(GATE).get();
        if (gate == null) {
            ReadGate made = new ReadGate(channel);
            gate = channel.attr(GATE).setIfAbsent(made);
            gate = gate == null ? made : gate;
        }
        return gate;
    }

    public synchronized void hold(Hold reason) {
        holds.add(reason);
        channel.config().setAutoRead(false);
    }

    public synchronized void release(Hold reason) {
        if (holds.remove(reason) && holds.isEmpty()) {
            channel.config().setAutoRead(true);
        }
    }

    /**
     * Holds the connection for {@code millis} (THROTTLED), or until a later time an earlier throttle set: a client
     * over its quota again while muted waits for the longer of the two.
     */
    public void throttle(long millis) {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        synchronized (this) {
            if (holds.contains(Hold.THROTTLED) && until <= throttledUntilNanos) {
                return;
            }
            throttledUntilNanos = until;
            hold(Hold.THROTTLED);
        }
        channel.eventLoop().schedule(this::endThrottleIfDue, millis, TimeUnit.MILLISECONDS);
    }

    private synchronized void endThrottleIfDue() {
        long left = throttledUntilNanos - System.nanoTime();
        if (left > 0) {
            channel.eventLoop().schedule(this::endThrottleIfDue, left, TimeUnit.NANOSECONDS);
            return;
        }
        release(Hold.THROTTLED);
    }
}

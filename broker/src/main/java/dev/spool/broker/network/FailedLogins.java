package dev.spool.broker.network;

import java.net.SocketAddress;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thread-safe: the failed SASL logins of the broker's listeners, logged at most once every {@value #LOG_EVERY_MS}
 * ms with how many failed since, so that a client guessing passwords cannot flood the log.
 */
final class FailedLogins {

    private static final Logger LOG = LoggerFactory.getLogger(FailedLogins.class);
    private static final long LOG_EVERY_MS = 10_000;

    private final AtomicLong count = new AtomicLong();
    private static final long NEVER = Long.MIN_VALUE;

    private final AtomicLong lastLoggedMs = new AtomicLong(NEVER);

    /** Counts a failed login; true when it was logged. */
    boolean failed(String listenerName, SocketAddress client, String reason) {
        return failed(listenerName, client, reason, System.nanoTime() / 1_000_000);
    }

    boolean failed(String listenerName, SocketAddress client, String reason, long nowMs) {
        long failed = count.incrementAndGet();
        long last = lastLoggedMs.get();
        // NEVER is compared, not subtracted: now - Long.MIN_VALUE overflows.
        if ((last == NEVER || nowMs - last >= LOG_EVERY_MS) && lastLoggedMs.compareAndSet(last, nowMs)) {
            LOG.warn("Failed authentication with {} on listener {} ({}); {} failed logins since the broker started",
                    client, listenerName, reason, failed);
            return true;
        }
        return false;
    }
}

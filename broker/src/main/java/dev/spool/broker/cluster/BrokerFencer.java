package dev.spool.broker.cluster;

import dev.spool.broker.metadata.BrokerRegistration;
import dev.spool.broker.metadata.BrokerRegistrations;
import dev.spool.broker.metadata.ElectionRules;
import dev.spool.broker.metadata.MetadataChange;
import dev.spool.broker.metadata.MetadataManager;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fences the brokers whose sessions expired, on the active controller only: every so often it looks for
 * unfenced brokers not heard from within {@code broker.session.timeout.ms} and fences each (which moves its
 * partitions' leadership away). When this node becomes the active controller, every broker starts a full
 * session. Runs on the scheduler; thread-safe.
 */
public final class BrokerFencer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerFencer.class);

    private final MetadataManager metadata;
    private final BrokerSessions sessions;
    private final LongSupplier clockMs;
    private final ElectionRules rules;
    private final ScheduledFuture<?> task;
    private boolean wasActive;

    /** Checks every {@code checkIntervalMs} on {@code scheduler} until closed. */
    public BrokerFencer(MetadataManager metadata, BrokerSessions sessions, LongSupplier clockMs,
                        ScheduledExecutorService scheduler, long checkIntervalMs, ElectionRules rules) {
        this.metadata = metadata;
        this.sessions = sessions;
        this.clockMs = clockMs;
        this.rules = rules;
        this.task = scheduler.scheduleWithFixedDelay(this::check, checkIntervalMs, checkIntervalMs,
                TimeUnit.MILLISECONDS);
    }

    synchronized void check() {
        try {
            boolean active = metadata.quorum().isActiveController();
            List<Integer> unfenced = new ArrayList<>();
            for (BrokerRegistration broker : metadata.image().brokers().values()) {
                if (!broker.fenced()) {
                    unfenced.add(broker.brokerId());
                }
            }
            long nowMs = clockMs.getAsLong();
            if (active && !wasActive) {
                sessions.restartAll(unfenced, nowMs);
            }
            wasActive = active;
            if (!active) {
                return;
            }
            for (int brokerId : sessions.expired(unfenced, nowMs)) {
                LOG.warn("Fencing broker {}: no heartbeat within its session timeout", brokerId);
                // Checked again on the controller thread: a heartbeat may have come in meanwhile.
                metadata.submit(image -> sessions.isExpired(brokerId, clockMs.getAsLong())
                        ? BrokerRegistrations.fence(image, brokerId, rules)
                        : new MetadataChange<>(List.of(), false)).exceptionally(failure -> {
                    LOG.warn("Cannot fence broker {} (retried at the next check)", brokerId, failure);
                    return false;
                });
            }
        } catch (RuntimeException e) {
            LOG.error("Broker session check failed", e); // a thrown exception would end the periodic task
        }
    }

    @Override
    public void close() {
        task.cancel(false);
    }
}

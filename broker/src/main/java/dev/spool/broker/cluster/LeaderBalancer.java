package dev.spool.broker.cluster;

import dev.spool.broker.metadata.ElectionRules;
import dev.spool.broker.metadata.LeaderElections;
import dev.spool.broker.metadata.MetadataManager;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code auto.leader.rebalance.enable}: every {@code leader.imbalance.check.interval.seconds}, the active controller
 * gives each partition led by another replica than its preferred one (the first of its replicas) back to the
 * preferred one, where that is an unfenced member of the ISR. After a broker's restart, its partitions' leadership
 * comes back to it this way, so the load spreads again. Runs on the scheduler; thread-safe.
 */
public final class LeaderBalancer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderBalancer.class);

    private final MetadataManager metadata;
    private final ElectionRules rules;
    private final ScheduledFuture<?> task;

    public LeaderBalancer(MetadataManager metadata, ScheduledExecutorService scheduler, long intervalMs,
                          ElectionRules rules) {
        this.metadata = metadata;
        this.rules = rules;
        this.task = scheduler.scheduleWithFixedDelay(this::balance, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
    }

    private void balance() {
        if (!metadata.quorum().isActiveController()) {
            return;
        }
        metadata.submit(image -> LeaderElections.balance(image, rules)).whenComplete((moved, failure) -> {
            if (failure != null) {
                LOG.warn("Preferred leader elections failed (retried at the next check)", failure);
            } else if (moved > 0) {
                LOG.info("Gave {} partitions back to their preferred leaders", moved);
            }
        });
    }

    @Override
    public void close() {
        task.cancel(false);
    }
}

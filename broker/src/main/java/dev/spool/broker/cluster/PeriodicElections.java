package dev.spool.broker.cluster;

import dev.spool.broker.metadata.ElectionRules;
import dev.spool.broker.metadata.LeaderElections;
import dev.spool.broker.metadata.MetadataChange;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.MetadataManager;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Elections the active controller runs by itself, every so often, as Kafka's controller does:
 * <ul>
 * <li>{@link #preferred} ({@code auto.leader.rebalance.enable}, every {@code leader.imbalance.check.interval.seconds}):
 * each partition led by another replica than its preferred one (the first of its replicas) goes back to the
 * preferred one where that is an unfenced member of the ISR. After a broker's restart its partitions' leadership
 * comes back to it this way, so the load spreads again.
 * <li>{@link #unclean} (every {@code unclean.leader.election.interval.ms}): a partition without a leader whose topic
 * allows unclean elections is led by any unfenced replica. A fence or an unfence elects so at once; this catches
 * the partitions that were leaderless before the setting was turned on.
 * </ul>
 * Runs on the scheduler; thread-safe.
 */
public final class PeriodicElections implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PeriodicElections.class);

    private final MetadataManager metadata;
    private final Function<MetadataImage, MetadataChange<Integer>> election;
    private final String done;
    private final ScheduledFuture<?> task;

    private PeriodicElections(MetadataManager metadata, ScheduledExecutorService scheduler, long intervalMs,
                              Function<MetadataImage, MetadataChange<Integer>> election, String done) {
        this.metadata = metadata;
        this.election = election;
        this.done = done;
        this.task = scheduler.scheduleWithFixedDelay(this::elect, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
    }

    public static PeriodicElections preferred(MetadataManager metadata, ScheduledExecutorService scheduler,
                                              long intervalMs, ElectionRules rules) {
        return new PeriodicElections(metadata, scheduler, intervalMs, image -> LeaderElections.balance(image, rules),
                "Gave {} partitions back to their preferred leaders");
    }

    public static PeriodicElections unclean(MetadataManager metadata, ScheduledExecutorService scheduler,
                                            long intervalMs, ElectionRules rules) {
        return new PeriodicElections(metadata, scheduler, intervalMs,
                image -> LeaderElections.uncleanWhereAllowed(image, rules),
                "Elected out of sync leaders for {} partitions whose topics allow unclean elections");
    }

    private void elect() {
        if (!metadata.quorum().isActiveController()) {
            return;
        }
        metadata.submit(election).whenComplete((elected, failure) -> {
            if (failure != null) {
                LOG.warn("Periodic leader elections failed (retried at the next run)", failure);
            } else if (elected > 0) {
                LOG.info(done, elected);
            }
        });
    }

    @Override
    public void close() {
        task.cancel(false);
    }
}

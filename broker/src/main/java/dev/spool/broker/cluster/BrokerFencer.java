package dev.spool.broker.cluster;

import dev.spool.broker.metadata.BrokerRegistration;
import dev.spool.broker.metadata.BrokerRegistrations;
import dev.spool.broker.metadata.ElectionRules;
import dev.spool.broker.metadata.MetadataChange;
import dev.spool.broker.metadata.MetadataManager;
import dev.spool.broker.metadata.VoterProgress;
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
 *
 * <p>Design note: a broker that is also a voter of the metadata quorum (a combined node) is heard from by Raft
 * too. One whose Raft follower has answered nothing for {@link #VOTER_SILENCE_MS} is down or cut off (alive and
 * cut off, it would have started an election after at most the longest election timeout, 2 s), so its session
 * ends then. This matters most right after a controller election: the new controller has no heartbeat from
 * anyone yet and gives every broker a full session, so a node that died with the old controller (often the old
 * controller itself) would otherwise keep its partitions leaderless for all of it. Kafka waits the session out.
 */
public final class BrokerFencer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerFencer.class);
    /** One and a half times the longest Raft election timeout: six of the leader's heartbeats unanswered. */
    static final long VOTER_SILENCE_MS = 3_000;

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
            endSilentVoters(unfenced, nowMs);
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

    /** Ends the sessions of the unfenced brokers whose voters Raft has not heard from (see the class comment). */
    private void endSilentVoters(List<Integer> unfenced, long nowMs) {
        for (VoterProgress voter : metadata.quorum().voterProgress(nowMs)) {
            if (voter.lastContactMs() >= 0 && nowMs - voter.lastContactMs() > VOTER_SILENCE_MS
                    && unfenced.contains(voter.nodeId()) && !sessions.isExpired(voter.nodeId(), nowMs)) {
                LOG.warn("Broker {}'s Raft voter has answered nothing for {} ms: its session ends now", voter.nodeId(),
                        nowMs - voter.lastContactMs());
                sessions.end(voter.nodeId());
            }
        }
    }

    @Override
    public void close() {
        task.cancel(false);
    }
}

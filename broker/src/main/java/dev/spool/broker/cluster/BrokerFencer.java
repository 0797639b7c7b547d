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
 * <p>Design note: that full session is all a new controller can give a broker it has not heard from yet, and the
 * node that died with the old controller (often the old controller itself) would keep its partitions leaderless
 * for all of it, as in Kafka. A broker that is also a voter of the metadata quorum (a combined node) is heard from
 * by Raft too: until such a broker's first heartbeat, a Raft follower that has answered nothing for
 * {@link #VOTER_SILENCE_MS}, or for the session timeout if that is shorter, ends its session (alive and merely cut
 * off, it would have started an election within the longest election timeout, 2 s; a shorter session is the
 * user's choice to fence sooner, and a voter is not given longer than the session a broker gets). Once a broker has heartbeated, only its session timeout (or its heartbeat
 * connection closing, see {@link BrokerSessions}) counts, so a short pause of a live node does not fence it.
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

    /** Ends the sessions of the brokers not heard from yet whose voters Raft has not heard from (see the class comment). */
    private void endSilentVoters(List<Integer> unfenced, long nowMs) {
        long silenceMs = Math.min(VOTER_SILENCE_MS, sessions.sessionTimeoutMs());
        for (VoterProgress voter : metadata.quorum().voterProgress(nowMs)) {
            int brokerId = voter.nodeId();
            if (voter.lastContactMs() >= 0 && nowMs - voter.lastContactMs() > silenceMs
                    && unfenced.contains(brokerId) && sessions.notHeardSinceRestart(brokerId)
                    && !sessions.isExpired(brokerId, nowMs)) {
                LOG.warn("Broker {} has not heartbeated to this controller and its Raft voter has answered nothing "
                        + "for {} ms: its session ends now", brokerId, nowMs - voter.lastContactMs());
                sessions.end(brokerId);
            }
        }
    }

    @Override
    public void close() {
        task.cancel(false);
    }
}

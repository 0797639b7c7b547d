package dev.spool.broker.cluster;

import dev.spool.broker.metadata.BrokerRegistration;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.BrokerHeartbeatRequestData;
import dev.spool.protocol.message.BrokerHeartbeatResponseData;
import dev.spool.protocol.message.BrokerRegistrationRequestData;
import dev.spool.protocol.message.BrokerRegistrationResponseData;
import dev.spool.protocol.types.Uuid;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker's side of its life in a cluster, as Kafka's brokers live it: it registers with the active controller
 * (BrokerRegistration, a new incarnation each start), then sends a heartbeat every
 * {@code broker.heartbeat.interval.ms} with the metadata offset it has reached; the controller unfences it once
 * that offset passes its registration and fences it when the heartbeats stop. On close it asks to be fenced
 * (a heartbeat wanting to shut down), so that clients and leadership leave it before it is gone. Thread-safe.
 */
public final class BrokerLifecycle implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerLifecycle.class);
    private static final long RETRY_MS = 200;
    private static final long SHUTDOWN_WAIT_MS = 5_000;
    /** While a starting broker catches up, its heartbeats come this often rather than every interval. */
    private static final long CATCH_UP_RETRY_MS = 100;

    private final int nodeId;
    private final String clusterId;
    private final ControllerChannel controller;
    private final Supplier<MetadataImage> image;
    private final Uuid incarnationId = Uuid.randomUuid();
    private volatile long brokerEpoch = -1;
    private volatile boolean fenced = true;
    private final CompletableFuture<Void> unfenced = new CompletableFuture<>();
    private ScheduledFuture<?> heartbeats;
    private volatile ScheduledExecutorService scheduler;

    public BrokerLifecycle(int nodeId, String clusterId, ControllerChannel controller, Supplier<MetadataImage> image) {
        this.nodeId = nodeId;
        this.clusterId = clusterId;
        this.controller = controller;
        this.image = image;
    }

    /**
     * Registers with the active controller, retrying while there is none (an election) or it cannot be reached,
     * for at most {@code timeoutMs}; returns the broker epoch. {@code previousBrokerEpoch} is the epoch the last
     * process of this broker shut down cleanly with, -1 when it did not (KIP-966: the controller then no longer
     * counts this broker's replicas as eligible leaders).
     */
    public long register(List<BrokerRegistration.Listener> listeners, String rack, long previousBrokerEpoch,
                         long timeoutMs) throws IOException, InterruptedException {
        List<BrokerRegistrationRequestData.Listener> advertised = new ArrayList<>();
        for (BrokerRegistration.Listener listener : listeners) {
            advertised.add(new BrokerRegistrationRequestData.Listener().setName(listener.name())
                    .setHost(listener.host()).setPort(listener.port()).setSecurityProtocol(listener.securityProtocol()));
        }
        BrokerRegistrationRequestData request = new BrokerRegistrationRequestData().setBrokerId(nodeId)
                .setClusterId(clusterId).setIncarnationId(incarnationId).setListeners(advertised).setRack(rack)
                .setPreviousBrokerEpoch(previousBrokerEpoch);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        String lastProblem = "no active controller";
        while (System.nanoTime() < deadline) {
            try {
                BrokerRegistrationResponseData response = (BrokerRegistrationResponseData) controller.send(
                        ApiKey.BROKER_REGISTRATION, ApiKey.BROKER_REGISTRATION.highestVersion, request)
                        .get(timeoutMs, TimeUnit.MILLISECONDS);
                if (response.errorCode() == Errors.NONE.code()) {
                    brokerEpoch = response.brokerEpoch();
                    return brokerEpoch;
                }
                if (response.errorCode() == Errors.INCONSISTENT_CLUSTER_ID.code()) {
                    throw new IOException("The controller belongs to another cluster than " + clusterId);
                }
                lastProblem = Errors.nameOf(response.errorCode());
            } catch (ExecutionException | TimeoutException e) {
                lastProblem = String.valueOf(e.getCause() != null ? e.getCause() : e);
            }
            Thread.sleep(RETRY_MS);
        }
        throw new IOException("Broker " + nodeId + " could not register with the active controller within "
                + timeoutMs + " ms: " + lastProblem);
    }

    /** Sends a heartbeat every {@code intervalMs} on {@code scheduler} until closed. */
    public synchronized void startHeartbeats(ScheduledExecutorService scheduler, long intervalMs) {
        this.scheduler = scheduler;
        heartbeats = scheduler.scheduleWithFixedDelay(() -> beat(false), 0, intervalMs, TimeUnit.MILLISECONDS);
    }

    /**
     * Waits until the controller first unfences this broker (it has caught up with the metadata up to its
     * registration), as a Kafka broker finishes starting only then: before, no client is sent to it.
     */
    public void awaitUnfenced(long timeoutMs) throws IOException, InterruptedException {
        try {
            unfenced.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("Broker " + nodeId + " was not unfenced by the controller within " + timeoutMs
                    + " ms", e);
        }
    }

    /** Sends one heartbeat; the future completes when it is answered or has failed (then logged). */
    private CompletableFuture<Void> beat(boolean wantShutDown) {
        return controller.send(ApiKey.BROKER_HEARTBEAT, ApiKey.BROKER_HEARTBEAT.highestVersion, heartbeat(wantShutDown))
                .handle((answer, failure) -> {
                    if (failure != null) {
                        // The next heartbeat goes to whichever controller is active by then.
                        LOG.debug("Heartbeat of broker {} failed: {}", nodeId, failure.toString());
                        return null;
                    }
                    BrokerHeartbeatResponseData response = (BrokerHeartbeatResponseData) answer;
                    if (response.errorCode() != Errors.NONE.code()) {
                        LOG.warn("Heartbeat of broker {} answered {}", nodeId, Errors.nameOf(response.errorCode()));
                        return null;
                    }
                    if (fenced != response.isFenced()) {
                        LOG.info("Broker {} is {} by the controller", nodeId,
                                response.isFenced() ? "fenced" : "unfenced");
                    }
                    fenced = response.isFenced();
                    if (!fenced) {
                        unfenced.complete(null);
                    } else if (!wantShutDown && !unfenced.isDone()) {
                        // Starting, not caught up yet: ask again soon rather than a heartbeat interval later.
                        catchUpSoon();
                    }
                    return null;
                });
    }

    private void catchUpSoon() {
        ScheduledExecutorService running = scheduler;
        try {
            if (running != null) {
                running.schedule(() -> beat(false), CATCH_UP_RETRY_MS, TimeUnit.MILLISECONDS);
            }
        } catch (RejectedExecutionException e) {
            // closing
        }
    }

    private BrokerHeartbeatRequestData heartbeat(boolean wantShutDown) {
        return new BrokerHeartbeatRequestData().setBrokerId(nodeId).setBrokerEpoch(brokerEpoch)
                .setCurrentMetadataOffset(image.get().offset()).setWantFence(false).setWantShutDown(wantShutDown);
    }

    /** Stops the heartbeats and asks the controller to fence this broker before it goes (a controlled shutdown). */
    @Override
    public void close() {
        synchronized (this) {
            if (heartbeats == null) {
                return;
            }
            heartbeats.cancel(false);
            heartbeats = null;
        }
        try {
            beat(true).get(SHUTDOWN_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("Broker {} leaves without the controller's word that it is fenced: {}", nodeId, e.toString());
        }
    }
}

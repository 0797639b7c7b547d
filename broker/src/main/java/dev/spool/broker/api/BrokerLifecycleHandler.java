package dev.spool.broker.api;

import dev.spool.broker.cluster.BrokerSessions;
import dev.spool.broker.metadata.BrokerRegistration;
import dev.spool.broker.metadata.BrokerRegistrations;
import dev.spool.broker.metadata.ElectionRules;
import dev.spool.broker.metadata.MetadataChange;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.MetadataManager;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.BrokerHeartbeatRequestData;
import dev.spool.protocol.message.BrokerHeartbeatResponseData;
import dev.spool.protocol.message.BrokerRegistrationRequestData;
import dev.spool.protocol.message.BrokerRegistrationResponseData;
import dev.spool.protocol.message.UnregisterBrokerRequestData;
import dev.spool.protocol.message.UnregisterBrokerResponseData;
import dev.spool.protocol.types.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * The controller's side of a broker's life (what the active controller answers, Kafka's APIs 62 and 63):
 * BrokerRegistration records a broker with a new broker epoch, fenced in a cluster; BrokerHeartbeat renews its
 * session, unfences it once it has caught up with the metadata up to its registration, fences it when it asks
 * (or wants to shut down); UnregisterBroker removes a registration. A node that is not the active controller
 * answers NOT_CONTROLLER. Thread-safe.
 */
public final class BrokerLifecycleHandler {

    private final String clusterId;
    private final MetadataManager metadata;
    private final BrokerSessions sessions;
    private final LongSupplier clockMs;
    private final ElectionRules rules;

    /** The controller of a cluster, whose brokers register fenced until they have caught up. */
    public BrokerLifecycleHandler(String clusterId, MetadataManager metadata, BrokerSessions sessions,
                                  LongSupplier clockMs, ElectionRules rules) {
        this.clusterId = clusterId;
        this.metadata = metadata;
        this.sessions = sessions;
        this.clockMs = clockMs;
        this.rules = rules;
    }

    public void registerIn(ApiRegistry registry) {
        registry.register(ApiKey.BROKER_REGISTRATION, 0, ApiKey.BROKER_REGISTRATION.highestVersion,
                        BrokerRegistrationRequestData.class, (context, request) -> register(request))
                .register(ApiKey.BROKER_HEARTBEAT, 0, ApiKey.BROKER_HEARTBEAT.highestVersion,
                        BrokerHeartbeatRequestData.class, (context, request) -> heartbeat(context, request))
                .register(ApiKey.UNREGISTER_BROKER, 0, ApiKey.UNREGISTER_BROKER.highestVersion,
                        UnregisterBrokerRequestData.class, (context, request) -> unregister(request));
    }

    /** UnregisterBroker (what {@code kafka-cluster unregister} sends): the broker's registration goes. */
    private CompletableFuture<Message> unregister(UnregisterBrokerRequestData request) {
        return metadata.submit(image -> BrokerRegistrations.unregister(image, request.brokerId(), rules))
                .handle((unregistered, failure) -> {
                    if (failure != null) {
                        return new UnregisterBrokerResponseData().setErrorCode(ControllerErrors.codeOf(failure));
                    }
                    return unregistered ? new UnregisterBrokerResponseData()
                            : new UnregisterBrokerResponseData().setErrorCode(Errors.BROKER_ID_NOT_REGISTERED.code())
                                    .setErrorMessage("Broker " + request.brokerId() + " is not registered");
                });
    }

    private CompletableFuture<Message> register(BrokerRegistrationRequestData request) {
        if (!clusterId.equals(request.clusterId())) {
            return CompletableFuture.completedFuture(new BrokerRegistrationResponseData()
                    .setErrorCode(Errors.INCONSISTENT_CLUSTER_ID.code()).setBrokerEpoch(-1));
        }
        List<BrokerRegistration.Listener> listeners = new ArrayList<>();
        for (BrokerRegistrationRequestData.Listener listener : request.listeners()) {
            listeners.add(new BrokerRegistration.Listener(listener.name(), listener.host(), listener.port(),
                    listener.securityProtocol()));
        }
        return metadata.submit(image -> isAnotherLiveIncarnation(image, request)
                        ? new MetadataChange<Long>(List.of(), null)
                        : BrokerRegistrations.reregister(image, request.brokerId(), request.incarnationId(), listeners,
                                request.rack(), request.previousBrokerEpoch(), rules))
                .<Message>handle((brokerEpoch, failure) -> {
                    if (failure != null) {
                        return new BrokerRegistrationResponseData().setErrorCode(ControllerErrors.codeOf(failure))
                                .setBrokerEpoch(-1);
                    }
                    if (brokerEpoch == null) {
                        // Two live processes with one id: the new one waits (retrying) until the old one's session
                        // ends, as Kafka's controller makes it wait.
                        return new BrokerRegistrationResponseData()
                                .setErrorCode(Errors.DUPLICATE_BROKER_REGISTRATION.code()).setBrokerEpoch(-1);
                    }
                    sessions.touch(request.brokerId(), clockMs.getAsLong());
                    return new BrokerRegistrationResponseData().setBrokerEpoch(brokerEpoch);
                });
    }

    /** Whether the id is registered by another process whose session still runs (and which is not fenced). */
    private boolean isAnotherLiveIncarnation(MetadataImage image, BrokerRegistrationRequestData request) {
        BrokerRegistration current = image.brokers().get(request.brokerId());
        return current != null && !current.fenced() && !current.incarnationId().equals(request.incarnationId())
                && !sessions.isExpired(request.brokerId(), clockMs.getAsLong());
    }

    private CompletableFuture<Message> heartbeat(RequestContext context, BrokerHeartbeatRequestData request) {
        // The session is renewed when the heartbeat arrives, not when the controller thread gets to it: a command
        // waiting for a slow commit must not have the brokers queued behind it fenced.
        BrokerRegistration known = metadata.image().brokers().get(request.brokerId());
        if (known != null && known.brokerEpoch() == request.brokerEpoch()) {
            sessions.touch(request.brokerId(), clockMs.getAsLong(), context.peer());
        }
        return metadata.submit(image -> beat(image, request)).handle((answer, failure) -> failure == null ? answer
                : new BrokerHeartbeatResponseData().setErrorCode(ControllerErrors.codeOf(failure)).setIsFenced(true));
    }

    /** The heartbeat's decision, on the controller thread: the records it takes and the answer once they commit. */
    private MetadataChange<Message> beat(MetadataImage image, BrokerHeartbeatRequestData request) {
        BrokerRegistration broker = image.brokers().get(request.brokerId());
        if (broker == null || broker.brokerEpoch() != request.brokerEpoch()) {
            return new MetadataChange<>(List.of(), new BrokerHeartbeatResponseData()
                    .setErrorCode(Errors.STALE_BROKER_EPOCH.code()).setIsFenced(true));
        }
        boolean caughtUp = request.currentMetadataOffset() >= broker.brokerEpoch();
        BrokerHeartbeatResponseData answer = new BrokerHeartbeatResponseData().setIsCaughtUp(caughtUp);
        if (request.wantShutDown() || (request.wantFence() && !broker.fenced())) {
            answer.setIsFenced(true).setShouldShutDown(request.wantShutDown());
            return new MetadataChange<>(BrokerRegistrations.fence(image, request.brokerId(), rules).records(), answer);
        }
        if (broker.fenced() && caughtUp && !request.wantFence()) {
            answer.setIsFenced(false);
            return new MetadataChange<>(BrokerRegistrations.unfence(image, request.brokerId(), rules).records(), answer);
        }
        return new MetadataChange<>(List.of(), answer.setIsFenced(broker.fenced()));
    }
}

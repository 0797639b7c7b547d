package dev.spool.broker.api;

import dev.spool.broker.fetch.ConsumerFetchQuota;
import dev.spool.broker.fetch.FetchHandler;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.quota.ClientMeter;
import dev.spool.broker.quota.ClientQuotaManager;
import dev.spool.broker.quota.ClientQuotas;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.FetchRequestData;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.ThrottledResponse;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Client quotas on the request path, as Kafka's broker applies them. A Produce counts its size against
 * {@code producer_byte_rate}; a consumer's Fetch asks for no more than its {@code consumer_byte_rate} allows in a
 * window and counts what it read, and one that would go over is answered empty instead, its usage taken back
 * ({@link #consumerFetches}, applied by the fetch handler, the only one to know what it read before it answers);
 * every request counts the time its handler ran against {@code request_percentage}; partitions created and deleted
 * count against {@code controller_mutation_rate} ({@link ControllerMutationQuota}). A client over a quota gets the
 * time to wait in the response's throttle_time_ms, and the network layer reads nothing more from its connection for
 * that long (KIP-219), an acks=0 producer's too. Exempt: what nodes send each other (requests on a controller
 * listener, a node's own requests, followers' fetches, the APIs only nodes use) and the SASL and ApiVersions
 * requests that precede everything. Nothing is measured for a client no quota applies to. Thread-safe.
 */
public final class ClientQuotaEnforcement {

    private static final Set<ApiKey> EXEMPT = EnumSet.of(ApiKey.API_VERSIONS, ApiKey.SASL_HANDSHAKE,
            ApiKey.SASL_AUTHENTICATE, ApiKey.BROKER_REGISTRATION, ApiKey.BROKER_HEARTBEAT, ApiKey.ALTER_PARTITION,
            ApiKey.ALLOCATE_PRODUCER_IDS, ApiKey.WRITE_TXN_MARKERS, ApiKey.VOTE, ApiKey.BEGIN_QUORUM_EPOCH,
            ApiKey.END_QUORUM_EPOCH, ApiKey.FETCH_SNAPSHOT, ApiKey.UPDATE_RAFT_VOTER);
    /** Handler time in nanoseconds as a percentage of one second: its rate per second is the share of a thread. */
    private static final double PERCENT_PER_NANO = 100.0 / 1_000_000_000L;

    /** A request of one of the APIs changing partitions, as the controller mutation quota handles it. */
    private interface Mutation {
        CompletableFuture<Message> handle(RequestContext context, Message request, ClientMeter meter, ApiHandler next);
    }

    private final ClientQuotas quotas;
    private final Predicate<String> isControllerListener;
    private final LongSupplier clockMs;

    public ClientQuotaEnforcement(ClientQuotas quotas, Predicate<String> isControllerListener, LongSupplier clockMs) {
        this.quotas = quotas;
        this.isControllerListener = isControllerListener;
        this.clockMs = clockMs;
    }

    /** Wraps every registered API but the exempt ones; before {@link ApiAuthorization}, so inside it. */
    public void install(ApiRegistry registry, Supplier<MetadataImage> image, IntSupplier defaultPartitions) {
        if (registry.get(ApiKey.PRODUCE) != null) {
            registry.wrap(ApiKey.PRODUCE, inner -> (context, request) -> produce(inner, context, request));
        }
        ControllerMutationQuota mutations = new ControllerMutationQuota(clockMs, image, defaultPartitions);
        wrapMutations(registry, ApiKey.CREATE_TOPICS, mutations::createTopics);
        wrapMutations(registry, ApiKey.CREATE_PARTITIONS, mutations::createPartitions);
        wrapMutations(registry, ApiKey.DELETE_TOPICS, mutations::deleteTopics);
        for (ApiRegistry.RegisteredApi api : new ArrayList<>(registry.all())) {
            if (!EXEMPT.contains(api.apiKey())) {
                registry.wrap(api.apiKey(), inner -> (context, request) -> timed(inner, context, request));
            }
        }
    }

    /** {@code consumer_byte_rate} for the fetch handler. */
    public ConsumerFetchQuota consumerFetches() {
        return context -> {
            ClientMeter meter = meterOf(quotas.fetch, context);
            return meter == null ? null : new ConsumerFetchQuota.Meter() {
                @Override
                public int maxBytes() {
                    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, meter.maxValueInWindow()));
                }

                @Override
                public long admit(long bytes) {
                    long throttleMs = meter.recordAndThrottleMs(bytes, clockMs.getAsLong());
                    if (throttleMs > 0) {
                        // As Kafka: over the quota, the records are not sent; the consumer asks again after the throttle.
                        meter.unrecord(bytes);
                    }
                    return throttleMs;
                }
            };
        };
    }

    /**
     * The client's meter of {@code manager}'s quota, resolved once for the request; null when no quota of that kind
     * applies or the request is exempt.
     */
    private ClientMeter meterOf(ClientQuotaManager manager, RequestContext context) {
        // The manager first: with no quota set it answers at once, which is the common case.
        ClientMeter meter = manager.meter(context.principal().name(), context.clientId());
        return meter == null || exempt(context) ? null : meter;
    }

    private void wrapMutations(ApiRegistry registry, ApiKey apiKey, Mutation mutation) {
        if (registry.get(apiKey) != null) {
            registry.wrap(apiKey, inner -> (context, request) -> {
                ClientMeter meter = meterOf(quotas.mutations, context);
                return meter == null ? inner.handle(context, request) : mutation.handle(context, request, meter, inner);
            });
        }
    }

    /** What nodes send each other: their own requests, and what comes in on a controller listener. */
    private boolean exempt(RequestContext context) {
        return context.principal() == Principal.THIS_NODE
                || isControllerListener.test(context.connection().listenerName());
    }

    private CompletableFuture<Message> produce(ApiHandler inner, RequestContext context, Message request) {
        ClientMeter meter = meterOf(quotas.produce, context);
        if (meter == null) {
            return inner.handle(context, request);
        }
        int bytes = request.size(context.apiVersion());
        return inner.handle(context, request).thenApply(response -> {
            long throttleMs = meter.recordAndThrottleMs(bytes, clockMs.getAsLong());
            // acks=0 has no response, but its connection is muted all the same.
            return response == null && throttleMs > 0 ? new NoResponse(clamp(throttleMs))
                    : throttled(response, throttleMs);
        });
    }

    private CompletableFuture<Message> timed(ApiHandler inner, RequestContext context, Message request) {
        ClientMeter meter = meterOf(quotas.requestTime, context);
        if (meter == null || isFollowerFetch(context, request)) {
            return inner.handle(context, request);
        }
        long started = System.nanoTime();
        CompletableFuture<Message> answer = inner.handle(context, request);
        long throttleMs = meter.recordAndThrottleMs((System.nanoTime() - started) * PERCENT_PER_NANO,
                clockMs.getAsLong());
        return throttleMs == 0 ? answer : answer.thenApply(response -> throttled(response, throttleMs));
    }

    /** A follower's fetch: replication quotas govern it, not the client ones. */
    private static boolean isFollowerFetch(RequestContext context, Message request) {
        return context.apiKey() == ApiKey.FETCH
                && FetchHandler.replicaIdOf((FetchRequestData) request, context.apiVersion()) >= 0;
    }

    /** The response telling the longer of its own throttle time and {@code throttleMs}. */
    static Message throttled(Message response, long throttleMs) {
        if (response instanceof ThrottledResponse throttled && throttleMs > throttled.throttleTimeMs()) {
            throttled.setThrottleTimeMs(clamp(throttleMs));
        }
        return response;
    }

    private static int clamp(long throttleMs) {
        return (int) Math.min(Integer.MAX_VALUE, throttleMs);
    }
}

package dev.spool.broker.api;

import dev.spool.broker.fetch.FetchHandler;
import dev.spool.broker.quota.ClientQuotaManager;
import dev.spool.broker.quota.ClientQuotas;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.FetchRequestData;
import dev.spool.protocol.message.FetchResponseData;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.ThrottledResponse;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * Client quotas on the request path, as Kafka's broker applies them. A Produce counts its size against
 * {@code producer_byte_rate}; a consumer's Fetch asks for no more than its {@code consumer_byte_rate} allows in a
 * window and counts its response's size, and one that would go over is answered empty instead (its usage taken
 * back); every request counts the time its handler ran against {@code request_percentage}. A client over a quota
 * gets the time to wait in the response's throttle_time_ms, and the network layer reads nothing more from its
 * connection for that long (KIP-219). Exempt: what nodes send each other (requests on a controller listener, a
 * node's own requests, followers' fetches, the APIs only nodes use) and the SASL and ApiVersions requests that
 * precede everything. Nothing is measured for a client no quota applies to. Thread-safe.
 */
public final class ClientQuotaEnforcement {

    private static final Set<ApiKey> EXEMPT = EnumSet.of(ApiKey.API_VERSIONS, ApiKey.SASL_HANDSHAKE,
            ApiKey.SASL_AUTHENTICATE, ApiKey.BROKER_REGISTRATION, ApiKey.BROKER_HEARTBEAT, ApiKey.ALTER_PARTITION,
            ApiKey.ALLOCATE_PRODUCER_IDS, ApiKey.WRITE_TXN_MARKERS, ApiKey.VOTE, ApiKey.BEGIN_QUORUM_EPOCH,
            ApiKey.END_QUORUM_EPOCH, ApiKey.FETCH_SNAPSHOT, ApiKey.UPDATE_RAFT_VOTER);
    /** Handler time in nanoseconds as a percentage of one second: its rate per second is the share of a thread. */
    private static final double PERCENT_PER_NANO = 100.0 / 1_000_000_000L;

    private final ClientQuotas quotas;
    private final Predicate<String> isControllerListener;
    private final LongSupplier clockMs;

    private ClientQuotaEnforcement(ClientQuotas quotas, Predicate<String> isControllerListener, LongSupplier clockMs) {
        this.quotas = quotas;
        this.isControllerListener = isControllerListener;
        this.clockMs = clockMs;
    }

    /** Wraps every registered API but the exempt ones; before {@link ApiAuthorization}, so inside it. */
    public static void install(ApiRegistry registry, ClientQuotas quotas, Predicate<String> isControllerListener,
                               LongSupplier clockMs) {
        ClientQuotaEnforcement enforcement = new ClientQuotaEnforcement(quotas, isControllerListener, clockMs);
        if (registry.get(ApiKey.PRODUCE) != null) {
            registry.wrap(ApiKey.PRODUCE, inner -> (context, request) -> enforcement.produce(inner, context, request));
        }
        if (registry.get(ApiKey.FETCH) != null) {
            registry.wrap(ApiKey.FETCH, inner -> (context, request) -> enforcement.fetch(inner, context, request));
        }
        for (ApiRegistry.RegisteredApi api : new ArrayList<>(registry.all())) {
            if (!EXEMPT.contains(api.apiKey())) {
                registry.wrap(api.apiKey(), inner -> (context, request) ->
                        enforcement.timed(inner, context, request));
            }
        }
    }

    private boolean exempt(RequestContext context) {
        return context.principal() == Principal.THIS_NODE
                || isControllerListener.test(context.connection().listenerName());
    }

    private CompletableFuture<Message> produce(ApiHandler inner, RequestContext context, Message request) {
        ClientQuotaManager produce = quotas.produce;
        if (!produce.applies(context.principal().name(), context.clientId()) || exempt(context)) {
            return inner.handle(context, request);
        }
        int bytes = request.size(context.apiVersion());
        return inner.handle(context, request).thenApply(response -> {
            long throttleMs = produce.recordAndThrottleMs(context.principal().name(), context.clientId(), bytes,
                    clockMs.getAsLong());
            return throttled(response, throttleMs);
        });
    }

    private CompletableFuture<Message> fetch(ApiHandler inner, RequestContext context, Message request) {
        ClientQuotaManager fetch = quotas.fetch;
        String user = context.principal().name();
        FetchRequestData fetchRequest = (FetchRequestData) request;
        if (!fetch.applies(user, context.clientId()) || exempt(context)
                || FetchHandler.replicaIdOf(fetchRequest, context.apiVersion()) >= 0) {
            return inner.handle(context, request);
        }
        double windowBytes = fetch.maxValueInWindow(user, context.clientId());
        if (fetchRequest.maxBytes() > windowBytes) {
            fetchRequest.setMaxBytes((int) Math.max(1, windowBytes));
        }
        return inner.handle(context, request).thenApply(answer -> {
            FetchResponseData response = (FetchResponseData) answer;
            int bytes = response.size(context.apiVersion());
            long nowMs = clockMs.getAsLong();
            long throttleMs = fetch.recordAndThrottleMs(user, context.clientId(), bytes, nowMs);
            if (throttleMs == 0) {
                return response;
            }
            // As Kafka: over the quota, the records are not sent at all; the consumer asks again after the throttle.
            fetch.unrecord(user, context.clientId(), bytes);
            return new FetchResponseData().setErrorCode(response.errorCode()).setSessionId(response.sessionId())
                    .setResponses(new ArrayList<>()).setThrottleTimeMs(clamp(throttleMs));
        });
    }

    private CompletableFuture<Message> timed(ApiHandler inner, RequestContext context, Message request) {
        ClientQuotaManager requestTime = quotas.requestTime;
        if (!requestTime.applies(context.principal().name(), context.clientId()) || exempt(context)) {
            return inner.handle(context, request);
        }
        long started = System.nanoTime();
        CompletableFuture<Message> answer = inner.handle(context, request);
        long throttleMs = requestTime.recordAndThrottleMs(context.principal().name(), context.clientId(),
                (System.nanoTime() - started) * PERCENT_PER_NANO, clockMs.getAsLong());
        return throttleMs == 0 ? answer : answer.thenApply(response -> throttled(response, throttleMs));
    }

    /** The response telling the longer of its own throttle time and {@code throttleMs}. */
    private static Message throttled(Message response, long throttleMs) {
        if (response instanceof ThrottledResponse throttled && throttleMs > throttled.throttleTimeMs()) {
            throttled.setThrottleTimeMs(clamp(throttleMs));
        }
        return response;
    }

    private static int clamp(long throttleMs) {
        return (int) Math.min(Integer.MAX_VALUE, throttleMs);
    }
}

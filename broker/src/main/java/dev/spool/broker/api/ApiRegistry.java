package dev.spool.broker.api;

import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.types.Message;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The APIs this broker implements, the versions of each it advertises in ApiVersions, and the handler
 * of each. Only what works is registered: ApiVersions advertises exactly this table. Immutable once
 * built.
 */
public final class ApiRegistry {

    /**
     * One implemented API: the versions served, the lowest version advertised (below minVersion only
     * for Produce, see {@link #registerAdvertisingFrom}) and who serves them.
     */
    public record RegisteredApi(ApiKey apiKey, short minVersion, short maxVersion, ApiHandler handler,
                                short advertisedMinVersion) {

        public boolean supports(short version) {
            return version >= minVersion && version <= maxVersion;
        }
    }

    /**
     * Handles one API's requests, typed: the registry casts each request to {@code R} once, so a handler of
     * several APIs has one method per API instead of a switch on the API key and a cast per case.
     */
    @FunctionalInterface
    public interface RequestHandler<R extends Message> {
        CompletableFuture<? extends Message> handle(RequestContext context, R request);
    }

    private final Map<ApiKey, RegisteredApi> apis = new EnumMap<>(ApiKey.class);

    /** Registers {@code handler} for one API, whose requests parse as {@code requestType}. */
    public <R extends Message> ApiRegistry register(ApiKey apiKey, int minVersion, int maxVersion, Class<R> requestType,
                                                    RequestHandler<R> handler) {
        return register(apiKey, minVersion, maxVersion,
                (context, request) -> widen(handler.handle(context, requestType.cast(request))));
    }

    @SuppressWarnings("unchecked") // a future only read from: a future of a Message subtype is one of Message
    private static CompletableFuture<Message> widen(CompletableFuture<? extends Message> answer) {
        return (CompletableFuture<Message>) answer;
    }

    /** Registers an API for versions min..max, which must lie within the versions the specs define. */
    public ApiRegistry register(ApiKey apiKey, int minVersion, int maxVersion, ApiHandler handler) {
        if (minVersion < apiKey.lowestVersion || maxVersion > apiKey.highestVersion || minVersion > maxVersion) {
            throw new IllegalArgumentException(apiKey + " versions " + minVersion + "-" + maxVersion
                    + " outside the spec's " + apiKey.lowestVersion + "-" + apiKey.highestVersion);
        }
        apis.put(apiKey, new RegisteredApi(apiKey, (short) minVersion, (short) maxVersion, handler, (short) minVersion));
        return this;
    }

    /**
     * Registers an API served for versions min..max but advertised from {@code advertisedMinVersion}:
     * requests of the versions in between are refused (the connection is closed) as for any version not
     * served. Kafka 4 does this for Produce, advertising v0 although v0-2 are gone (KIP-896), because
     * librdkafka turns compression off when Produce v0 is not advertised (KAFKA-18659).
     */
    public ApiRegistry registerAdvertisingFrom(ApiKey apiKey, int advertisedMinVersion, int minVersion, int maxVersion,
                                               ApiHandler handler) {
        if (advertisedMinVersion < 0 || advertisedMinVersion > minVersion) {
            throw new IllegalArgumentException(apiKey + " advertised minimum " + advertisedMinVersion
                    + " must lie in 0.." + minVersion);
        }
        register(apiKey, minVersion, maxVersion, handler);
        apis.put(apiKey, new RegisteredApi(apiKey, (short) minVersion, (short) maxVersion, handler,
                (short) advertisedMinVersion));
        return this;
    }

    /**
     * Replaces the handler of a registered API by {@code wrapping} applied to it (versions unchanged): forwarding,
     * later authorization, without each handler knowing of it.
     */
    public ApiRegistry wrap(ApiKey apiKey, java.util.function.UnaryOperator<ApiHandler> wrapping) {
        RegisteredApi api = apis.get(apiKey);
        if (api == null) {
            throw new IllegalArgumentException(apiKey + " is not registered");
        }
        apis.put(apiKey, new RegisteredApi(apiKey, api.minVersion(), api.maxVersion(), wrapping.apply(api.handler()),
                api.advertisedMinVersion()));
        return this;
    }

    /** The registered API, or null when this broker does not implement it. */
    public RegisteredApi get(ApiKey apiKey) {
        return apis.get(apiKey);
    }

    public Collection<RegisteredApi> all() {
        return Collections.unmodifiableCollection(apis.values());
    }
}

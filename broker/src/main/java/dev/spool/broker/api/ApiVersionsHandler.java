package dev.spool.broker.api;

import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.ApiVersionsResponseData;
import dev.spool.protocol.message.ApiVersionsResponseData.ApiVersion;
import dev.spool.protocol.types.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * ApiVersions: lists exactly the APIs and versions of the {@link ApiRegistry}. Thread-safe.
 *
 * <p>A client may ask with a version newer than ours; it then gets {@link #unsupportedVersion}, a
 * v0-shaped answer naming our ApiVersions range, and retries (KIP-511).
 */
public final class ApiVersionsHandler implements ApiHandler {

    private final ApiRegistry registry;

    public ApiVersionsHandler(ApiRegistry registry) {
        this.registry = registry;
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message request) {
        List<ApiVersion> versions = new ArrayList<>();
        for (ApiRegistry.RegisteredApi api : registry.all()) {
            versions.add(new ApiVersion()
                    .setApiKey(api.apiKey().id)
                    .setMinVersion(api.advertisedMinVersion())
                    .setMaxVersion(api.maxVersion()));
        }
        return CompletableFuture.completedFuture(new ApiVersionsResponseData()
                .setErrorCode(Errors.NONE.code())
                .setApiKeys(versions));
    }

    /** The answer to an ApiVersions request of a version we do not know, to be written as version 0. */
    public ApiVersionsResponseData unsupportedVersion() {
        ApiRegistry.RegisteredApi self = registry.get(ApiKey.API_VERSIONS);
        List<ApiVersion> versions = new ArrayList<>();
        versions.add(new ApiVersion()
                .setApiKey(ApiKey.API_VERSIONS.id)
                .setMinVersion(self.minVersion())
                .setMaxVersion(self.maxVersion()));
        return new ApiVersionsResponseData()
                .setErrorCode(Errors.UNSUPPORTED_VERSION.code())
                .setApiKeys(versions);
    }
}

package dev.spool.broker.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.ApiVersionsResponseData;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class ApiRegistryTest {

    private static final ApiHandler NONE = (context, request) -> CompletableFuture.completedFuture(null);

    @Test
    void produceIsAdvertisedFromVersionZeroButServedFromThree() {
        ApiRegistry registry = new ApiRegistry()
                .register(ApiKey.API_VERSIONS, 0, ApiKey.API_VERSIONS.highestVersion, NONE)
                .registerAdvertisingFrom(ApiKey.PRODUCE, 0, 3, ApiKey.PRODUCE.highestVersion, NONE);
        ApiRegistry.RegisteredApi produce = registry.get(ApiKey.PRODUCE);
        assertThat(produce.supports((short) 2)).isFalse();
        assertThat(produce.supports((short) 3)).isTrue();
        ApiVersionsResponseData versions = (ApiVersionsResponseData) new ApiVersionsHandler(registry)
                .handle(null, null).join();
        assertThat(versions.apiKeys()).filteredOn(api -> api.apiKey() == ApiKey.PRODUCE.id).singleElement()
                .satisfies(api -> {
                    assertThat(api.minVersion()).isZero();
                    assertThat(api.maxVersion()).isEqualTo(ApiKey.PRODUCE.highestVersion);
                });
        assertThat(versions.apiKeys()).filteredOn(api -> api.apiKey() == ApiKey.API_VERSIONS.id).singleElement()
                .satisfies(api -> assertThat(api.minVersion()).isZero());
    }

    @Test
    void versionsOutsideTheSpecOrAnAdvertisedMinimumAboveTheServedOneAreRefused() {
        assertThatThrownBy(() -> new ApiRegistry().register(ApiKey.PRODUCE, 0, 13, NONE))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ApiRegistry().registerAdvertisingFrom(ApiKey.PRODUCE, 4, 3, 13, NONE))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void groupVersionOneIsFinalizedOnlyWhileTheConsumerGroupProtocolIsServed() {
        ApiRegistry classicOnly = new ApiRegistry().register(ApiKey.API_VERSIONS, 0, 3, NONE);
        ApiRegistry both = new ApiRegistry().register(ApiKey.API_VERSIONS, 0, 3, NONE)
                .register(ApiKey.CONSUMER_GROUP_HEARTBEAT, 0, 1, NONE);

        assertThat(finalizedGroupVersion(classicOnly)).isEmpty();
        assertThat(finalizedGroupVersion(both)).containsExactly((short) 1);
    }

    private static java.util.List<Short> finalizedGroupVersion(ApiRegistry registry) {
        ApiVersionsResponseData versions = (ApiVersionsResponseData) new ApiVersionsHandler(registry)
                .handle(null, null).join();
        assertThat(versions.supportedFeatures()).anyMatch(feature -> feature.name().equals("group.version")
                && feature.maxVersion() == 1);
        return versions.finalizedFeatures().stream().filter(feature -> feature.name().equals("group.version"))
                .map(feature -> feature.maxVersionLevel()).toList();
    }
}

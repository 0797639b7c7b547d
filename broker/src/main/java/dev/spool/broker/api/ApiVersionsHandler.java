package dev.spool.broker.api;

import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.ApiVersionsResponseData;
import dev.spool.protocol.message.ApiVersionsResponseData.FinalizedFeatureKey;
import dev.spool.protocol.message.ApiVersionsResponseData.SupportedFeatureKey;
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

    /**
     * The feature levels Spool's metadata is at, what {@code kafka-features describe} shows (KIP-584): its records
     * are those of {@code metadata.version} 3.3-IV3 (level 7, the oldest Kafka 4 reads), with the eligible leader
     * replicas of {@code eligible.leader.replicas.version} 1 (KIP-966, on as in Kafka 4.1+; their fields are tagged
     * ones of PartitionRecord and PartitionChangeRecord v2, written only when set); {@code kraft.version} 0 for a
     * static quorum (a level 0 is left out of the finalized features, as Kafka leaves it) and 1 for a dynamic one
     * (KIP-853); {@code transaction.version} 2, transactions v2 (KIP-890: the epoch bumped at each end, partitions
     * added by their leaders), which Kafka 4 clients use when it is finalized and the others ignore; {@code
     * group.version} 1, KIP-848's consumer group protocol, when the broker serves it (ConsumerGroupHeartbeat is
     * registered: {@code group.coordinator.rebalance.protocols} names consumer). Features Spool lacks (share.version,
     * streams.version, ...) are not advertised, so clients use the protocols of their level 0.
     */
    static final short METADATA_VERSION_LEVEL = 7;
    private static final String ELIGIBLE_LEADER_REPLICAS = "eligible.leader.replicas.version";
    private static final short ELIGIBLE_LEADER_REPLICAS_LEVEL = 1;
    private static final String TRANSACTION_VERSION = "transaction.version";
    private static final short TRANSACTION_VERSION_LEVEL = 2;
    private static final String GROUP_VERSION = "group.version";
    private static final short GROUP_VERSION_LEVEL = 1;
    private static final List<SupportedFeatureKey> SUPPORTED_FEATURES = List.of(
            new SupportedFeatureKey().setName("metadata.version").setMinVersion(METADATA_VERSION_LEVEL)
                    .setMaxVersion(METADATA_VERSION_LEVEL),
            new SupportedFeatureKey().setName("kraft.version").setMinVersion((short) 0).setMaxVersion((short) 1),
            new SupportedFeatureKey().setName(ELIGIBLE_LEADER_REPLICAS).setMinVersion((short) 0)
                    .setMaxVersion(ELIGIBLE_LEADER_REPLICAS_LEVEL),
            new SupportedFeatureKey().setName(TRANSACTION_VERSION).setMinVersion((short) 0)
                    .setMaxVersion(TRANSACTION_VERSION_LEVEL),
            new SupportedFeatureKey().setName(GROUP_VERSION).setMinVersion((short) 0)
                    .setMaxVersion(GROUP_VERSION_LEVEL));
    /** The levels never change, so their epoch (Kafka: the metadata offset of the last change) is the first. */
    private static final long FINALIZED_FEATURES_EPOCH = 0;

    private final ApiRegistry registry;
    private final List<FinalizedFeatureKey> finalizedFeatures;

    /** A node of a static quorum, or a single node. */
    public ApiVersionsHandler(ApiRegistry registry) {
        this(registry, (short) 0);
    }

    /** A node whose quorum is at {@code kraftVersion}: 1 for a dynamic quorum. */
    public ApiVersionsHandler(ApiRegistry registry, short kraftVersion) {
        this.registry = registry;
        List<FinalizedFeatureKey> finalized = new ArrayList<>(List.of(new FinalizedFeatureKey()
                .setName("metadata.version").setMinVersionLevel(METADATA_VERSION_LEVEL)
                .setMaxVersionLevel(METADATA_VERSION_LEVEL), new FinalizedFeatureKey()
                .setName(ELIGIBLE_LEADER_REPLICAS).setMinVersionLevel(ELIGIBLE_LEADER_REPLICAS_LEVEL)
                .setMaxVersionLevel(ELIGIBLE_LEADER_REPLICAS_LEVEL), new FinalizedFeatureKey()
                .setName(TRANSACTION_VERSION).setMinVersionLevel(TRANSACTION_VERSION_LEVEL)
                .setMaxVersionLevel(TRANSACTION_VERSION_LEVEL)));
        if (kraftVersion > 0) {
            finalized.add(new FinalizedFeatureKey().setName("kraft.version").setMinVersionLevel(kraftVersion)
                    .setMaxVersionLevel(kraftVersion));
        }
        this.finalizedFeatures = List.copyOf(finalized);
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
                .setApiKeys(versions)
                .setSupportedFeatures(SUPPORTED_FEATURES)
                .setFinalizedFeaturesEpoch(FINALIZED_FEATURES_EPOCH)
                .setFinalizedFeatures(finalizedFeatures()));
    }

    /** The finalized features, with group.version 1 when the consumer group protocol is served. */
    private List<FinalizedFeatureKey> finalizedFeatures() {
        if (registry.get(ApiKey.CONSUMER_GROUP_HEARTBEAT) == null) {
            return finalizedFeatures;
        }
        List<FinalizedFeatureKey> features = new ArrayList<>(finalizedFeatures);
        features.add(new FinalizedFeatureKey().setName(GROUP_VERSION).setMinVersionLevel(GROUP_VERSION_LEVEL)
                .setMaxVersionLevel(GROUP_VERSION_LEVEL));
        return features;
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

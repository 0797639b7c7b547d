package dev.spool.broker.api;

import dev.spool.broker.metadata.ElectionRules;
import dev.spool.broker.metadata.LeaderElections;
import dev.spool.broker.metadata.MetadataManager;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.ElectLeadersRequestData;
import dev.spool.protocol.message.ElectLeadersResponseData;
import dev.spool.protocol.types.Message;
import java.util.concurrent.CompletableFuture;

/**
 * ElectLeaders (43, {@code kafka-leader-election}): preferred or unclean elections decided by the active controller
 * ({@link LeaderElections}) and answered once committed; other nodes forward it there. v0 has no election type and
 * elects preferred leaders. Thread-safe.
 */
public final class ElectLeadersHandler {

    private final MetadataManager metadata;
    private final ElectionRules rules;

    public ElectLeadersHandler(MetadataManager metadata, ElectionRules rules) {
        this.metadata = metadata;
        this.rules = rules;
    }

    public void registerIn(ApiRegistry registry) {
        registry.register(ApiKey.ELECT_LEADERS, 0, ApiKey.ELECT_LEADERS.highestVersion,
                ElectLeadersRequestData.class, (context, request) -> elect(request));
    }

    private CompletableFuture<Message> elect(ElectLeadersRequestData request) {
        return metadata.submit(image -> LeaderElections.elect(image, request, rules)).<Message>thenApply(answer -> answer)
                .exceptionally(failure -> new ElectLeadersResponseData()
                        .setErrorCode(ControllerErrors.codeOf(failure)));
    }
}

package dev.spool.broker.api;

import dev.spool.broker.metadata.ElectionRules;
import dev.spool.broker.metadata.IsrChanges;
import dev.spool.broker.metadata.MetadataManager;
import dev.spool.protocol.message.AlterPartitionRequestData;
import dev.spool.protocol.message.AlterPartitionResponseData;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.types.Message;
import java.util.concurrent.CompletableFuture;

/**
 * AlterPartition (56), what a partition's leader sends when its ISR shrinks or grows: decided by the active
 * controller ({@link IsrChanges}), answered once the change is committed; NOT_CONTROLLER elsewhere, so that the
 * leader retries at the active controller. Thread-safe.
 */
public final class AlterPartitionHandler {

    private final MetadataManager metadata;
    private final ElectionRules rules;

    public AlterPartitionHandler(MetadataManager metadata, ElectionRules rules) {
        this.metadata = metadata;
        this.rules = rules;
    }

    public void registerIn(ApiRegistry registry) {
        registry.register(ApiKey.ALTER_PARTITION, 2, ApiKey.ALTER_PARTITION.highestVersion,
                AlterPartitionRequestData.class, (context, request) -> alter(request));
    }

    private CompletableFuture<Message> alter(AlterPartitionRequestData request) {
        return metadata.submit(image -> IsrChanges.alter(image, request, rules)).<Message>thenApply(answer -> answer)
                .exceptionally(failure -> new AlterPartitionResponseData()
                        .setErrorCode(ControllerErrors.codeOf(failure)));
    }
}

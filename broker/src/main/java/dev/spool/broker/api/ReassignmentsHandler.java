package dev.spool.broker.api;

import dev.spool.broker.metadata.ElectionRules;
import dev.spool.broker.metadata.MetadataManager;
import dev.spool.broker.metadata.Reassignments;
import dev.spool.protocol.message.AlterPartitionReassignmentsRequestData;
import dev.spool.protocol.message.AlterPartitionReassignmentsResponseData;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.ListPartitionReassignmentsRequestData;
import dev.spool.protocol.types.Message;
import java.util.concurrent.CompletableFuture;

/**
 * AlterPartitionReassignments (45) and ListPartitionReassignments (46), {@code kafka-reassign-partitions}: decided
 * and answered by the active controller ({@link Reassignments}), to which other nodes forward them. Thread-safe.
 */
public final class ReassignmentsHandler {

    private final MetadataManager metadata;
    private final ElectionRules rules;

    public ReassignmentsHandler(MetadataManager metadata, ElectionRules rules) {
        this.metadata = metadata;
        this.rules = rules;
    }

    public void registerIn(ApiRegistry registry) {
        registry.register(ApiKey.ALTER_PARTITION_REASSIGNMENTS, 0, ApiKey.ALTER_PARTITION_REASSIGNMENTS.highestVersion,
                        AlterPartitionReassignmentsRequestData.class, (context, request) -> alter(request))
                .register(ApiKey.LIST_PARTITION_REASSIGNMENTS, 0, ApiKey.LIST_PARTITION_REASSIGNMENTS.highestVersion,
                        ListPartitionReassignmentsRequestData.class, (context, request) ->
                                CompletableFuture.<Message>completedFuture(Reassignments.list(metadata.image(), request)));
    }

    private CompletableFuture<Message> alter(AlterPartitionReassignmentsRequestData request) {
        return metadata.submit(image -> Reassignments.alter(image, request, rules)).<Message>thenApply(answer -> answer)
                .exceptionally(failure -> new AlterPartitionReassignmentsResponseData()
                        .setErrorCode(ControllerErrors.codeOf(failure)));
    }
}

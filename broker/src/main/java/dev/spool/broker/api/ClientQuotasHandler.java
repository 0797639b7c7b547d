package dev.spool.broker.api;

import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.MetadataManager;
import dev.spool.broker.quota.ClientQuotaChanges;
import dev.spool.broker.quota.ClientQuotaFilter;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.AlterClientQuotasRequestData;
import dev.spool.protocol.message.AlterClientQuotasResponseData;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.DescribeClientQuotasRequestData;
import dev.spool.protocol.message.DescribeClientQuotasResponseData;
import dev.spool.protocol.message.DescribeClientQuotasResponseData.EntityData;
import dev.spool.protocol.message.DescribeClientQuotasResponseData.EntryData;
import dev.spool.protocol.message.DescribeClientQuotasResponseData.ValueData;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * AlterClientQuotas (v0-1; decided by the active controller, forwarded to it from other nodes) and
 * DescribeClientQuotas (v0-1, answered from this node's metadata image): what {@code kafka-configs --entity-type
 * users|clients|ips --alter --add-config producer_byte_rate=...} and {@code --describe} send. Thread-safe.
 */
public final class ClientQuotasHandler implements ApiFamily {

    private final MetadataManager metadata;

    public ClientQuotasHandler(MetadataManager metadata) {
        this.metadata = metadata;
    }

    @Override
    public void registerIn(ApiRegistry registry) {
        registry.register(ApiKey.ALTER_CLIENT_QUOTAS, 0, ApiKey.ALTER_CLIENT_QUOTAS.highestVersion,
                        AlterClientQuotasRequestData.class, (context, request) -> metadata
                                .submit(image -> ClientQuotaChanges.alter(image, request))
                                .thenApply(entries -> new AlterClientQuotasResponseData().setEntries(entries)))
                .register(ApiKey.DESCRIBE_CLIENT_QUOTAS, 0, ApiKey.DESCRIBE_CLIENT_QUOTAS.highestVersion,
                        DescribeClientQuotasRequestData.class,
                        (context, request) -> CompletableFuture.completedFuture(describe(metadata.image(), request)));
    }

    /** Every entity the filter matches with all its quotas; a filter Kafka refuses is INVALID_REQUEST. */
    static DescribeClientQuotasResponseData describe(MetadataImage image, DescribeClientQuotasRequestData request) {
        ClientQuotaFilter filter;
        try {
            filter = ClientQuotaFilter.of(request);
        } catch (ClientQuotaFilter.InvalidFilterException e) {
            return new DescribeClientQuotasResponseData().setErrorCode(e.error.code())
                    .setErrorMessage(e.getMessage()).setEntries(null);
        }
        List<EntryData> entries = new ArrayList<>();
        image.clientQuotas().forEach((entity, quotas) -> {
            if (!filter.matches(entity)) {
                return;
            }
            List<EntityData> parts = new ArrayList<>();
            entity.parts().forEach((type, name) -> parts.add(new EntityData().setEntityType(type)
                    .setEntityName(name)));
            List<ValueData> values = new ArrayList<>();
            quotas.forEach((key, value) -> values.add(new ValueData().setKey(key).setValue(value)));
            entries.add(new EntryData().setEntity(parts).setValues(values));
        });
        return new DescribeClientQuotasResponseData().setErrorCode(Errors.NONE.code()).setEntries(entries);
    }

    /** Every entry of the request failed with {@code error}: what a forwarding failure answers. */
    static List<AlterClientQuotasResponseData.EntryData> failedEntries(AlterClientQuotasRequestData request,
                                                                       short error, String message) {
        List<AlterClientQuotasResponseData.EntryData> entries = new ArrayList<>();
        for (AlterClientQuotasRequestData.EntryData entry : request.entries()) {
            entries.add(new AlterClientQuotasResponseData.EntryData().setEntity(ClientQuotaChanges.echoed(entry))
                    .setErrorCode(error)
                    .setErrorMessage(message));
        }
        return entries;
    }
}

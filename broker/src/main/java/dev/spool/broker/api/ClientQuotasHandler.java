package dev.spool.broker.api;

import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.DescribeClientQuotasRequestData;
import dev.spool.protocol.message.DescribeClientQuotasResponseData;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;

/**
 * DescribeClientQuotas (v0-1): no entity has a quota, since none can be set yet (AlterClientQuotas is not served).
 * {@code kafka-configs --describe --entity-type users} asks it beside the user's SCRAM credentials, and would fail
 * without an answer. Stateless.
 */
public final class ClientQuotasHandler implements ApiFamily {

    @Override
    public void registerIn(ApiRegistry registry) {
        registry.register(ApiKey.DESCRIBE_CLIENT_QUOTAS, 0, ApiKey.DESCRIBE_CLIENT_QUOTAS.highestVersion,
                DescribeClientQuotasRequestData.class, (context, request) -> CompletableFuture.completedFuture(
                        new DescribeClientQuotasResponseData().setErrorCode(Errors.NONE.code())
                                .setEntries(new ArrayList<>())));
    }
}

package dev.spool.broker.produce;

import dev.spool.broker.api.ApiHandler;
import dev.spool.broker.api.ControllerErrors;
import dev.spool.broker.api.RequestContext;
import dev.spool.protocol.message.AllocateProducerIdsRequestData;
import dev.spool.protocol.message.AllocateProducerIdsResponseData;
import dev.spool.protocol.types.Message;
import java.util.concurrent.CompletableFuture;

/**
 * AllocateProducerIds (API 67), on the active controller: reserves a block of producer ids for the broker that
 * asks, which hands them to its idempotent and transactional producers. NOT_CONTROLLER elsewhere. Thread-safe.
 */
public final class AllocateProducerIdsHandler implements ApiHandler {

    private final ProducerIdBlocks blocks;

    public AllocateProducerIdsHandler(ProducerIdBlocks blocks) {
        this.blocks = blocks;
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message message) {
        AllocateProducerIdsRequestData request = (AllocateProducerIdsRequestData) message;
        return blocks.reserve(request.brokerId(), request.brokerEpoch()).handle((start, failure) -> {
            if (failure == null) {
                return new AllocateProducerIdsResponseData().setProducerIdStart(start)
                        .setProducerIdLen(ProducerIdBlocks.BLOCK_SIZE);
            }
            return new AllocateProducerIdsResponseData().setProducerIdStart(-1)
                    .setErrorCode(ControllerErrors.codeOf(failure));
        });
    }
}

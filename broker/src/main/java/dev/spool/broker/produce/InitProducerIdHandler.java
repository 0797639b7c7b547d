package dev.spool.broker.produce;

import dev.spool.broker.api.ApiHandler;
import dev.spool.broker.api.RequestContext;
import dev.spool.broker.api.UnsupportedTransactions;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.InitProducerIdRequestData;
import dev.spool.protocol.message.InitProducerIdResponseData;
import dev.spool.protocol.types.Message;
import java.util.concurrent.CompletableFuture;

/**
 * InitProducerId for idempotent producers: a new producer id with epoch 0 each time, as Kafka does
 * when there is no transactional id (the producer id and epoch a client may send, KIP-360, only
 * matter to the transaction coordinator). With a transactional id the answer is
 * {@link UnsupportedTransactions#ERROR}, fatal in the clients, until the transaction coordinator exists
 * (clients ask FindCoordinator first, which answers the same with a message). Thread-safe.
 */
public final class InitProducerIdHandler implements ApiHandler {

    private final ProducerIdManager producerIds;

    public InitProducerIdHandler(ProducerIdManager producerIds) {
        this.producerIds = producerIds;
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message message) {
        InitProducerIdRequestData request = (InitProducerIdRequestData) message;
        if (request.transactionalId() != null) {
            return CompletableFuture.completedFuture(new InitProducerIdResponseData()
                    .setErrorCode(UnsupportedTransactions.ERROR.code())
                    .setProducerId(-1)
                    .setProducerEpoch((short) -1));
        }
        // No id to hand out (this broker's block is used up and the controller cannot give another now: an election
        // under way, a lost quorum): Kafka's retriable answer, which the producer retries, rather than a closed
        // connection.
        return producerIds.nextProducerId().handle((producerId, failure) -> failure == null
                ? new InitProducerIdResponseData().setErrorCode(Errors.NONE.code()).setProducerId(producerId)
                        .setProducerEpoch((short) 0)
                : new InitProducerIdResponseData().setErrorCode(Errors.COORDINATOR_LOAD_IN_PROGRESS.code())
                        .setProducerId(-1).setProducerEpoch((short) -1));
    }
}

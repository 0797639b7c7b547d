package dev.spool.broker.txn;

import dev.spool.broker.api.ApiHandler;
import dev.spool.broker.api.RequestContext;
import dev.spool.broker.produce.ProducerIdManager;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.InitProducerIdRequestData;
import dev.spool.protocol.message.InitProducerIdResponseData;
import dev.spool.protocol.types.Message;
import java.util.concurrent.CompletableFuture;

/**
 * InitProducerId. Without a transactional id (an idempotent producer): a new producer id with epoch 0 each time, as
 * Kafka does (the producer id and epoch a client may send, KIP-360, only matter to the transaction coordinator).
 * With one: the {@link TransactionCoordinator} of that id, on the broker FindCoordinator named, gives the id's
 * producer id and its next epoch; an empty id is INVALID_REQUEST, a timeout not in (0, transaction.max.timeout.ms]
 * INVALID_TRANSACTION_TIMEOUT. Thread-safe.
 */
public final class InitProducerIdHandler implements ApiHandler {

    /** InitProducerId v4 is the first whose clients know PRODUCER_FENCED. */
    private static final short FIRST_PRODUCER_FENCED_VERSION = 4;

    private final ProducerIdManager producerIds;
    private final TransactionCoordinator transactions;

    /** {@code transactions} null: idempotent producers only (tests). */
    public InitProducerIdHandler(ProducerIdManager producerIds, TransactionCoordinator transactions) {
        this.producerIds = producerIds;
        this.transactions = transactions;
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message message) {
        InitProducerIdRequestData request = (InitProducerIdRequestData) message;
        String transactionalId = request.transactionalId();
        if (transactionalId != null) {
            return initTransactional(request, transactionalId, context.apiVersion());
        }
        // No id to hand out (this broker's block is used up and the controller cannot give another now: an election
        // under way, a lost quorum): Kafka's retriable answer, which the producer retries, rather than a closed
        // connection.
        return producerIds.nextProducerId().handle((producerId, failure) -> failure == null
                ? new InitProducerIdResponseData().setErrorCode(Errors.NONE.code()).setProducerId(producerId)
                        .setProducerEpoch((short) 0)
                : failed(Errors.COORDINATOR_LOAD_IN_PROGRESS));
    }

    private CompletableFuture<Message> initTransactional(InitProducerIdRequestData request, String transactionalId,
                                                         short version) {
        if (transactionalId.isEmpty() || transactions == null) {
            return CompletableFuture.completedFuture(failed(Errors.INVALID_REQUEST));
        }
        int timeoutMs = request.transactionTimeoutMs();
        if (timeoutMs <= 0 || timeoutMs > transactions.settings().maxTimeoutMs()) {
            return CompletableFuture.completedFuture(failed(Errors.INVALID_TRANSACTION_TIMEOUT));
        }
        return transactions.initProducerId(transactionalId, timeoutMs, request.producerId(), request.producerEpoch())
                .thenApply(session -> {
                    Errors error = session.error() == Errors.PRODUCER_FENCED && version < FIRST_PRODUCER_FENCED_VERSION
                            ? Errors.INVALID_PRODUCER_EPOCH : session.error();
                    return error != Errors.NONE ? failed(error) : new InitProducerIdResponseData()
                            .setErrorCode(Errors.NONE.code()).setProducerId(session.producerId())
                            .setProducerEpoch(session.producerEpoch());
                });
    }

    private static InitProducerIdResponseData failed(Errors error) {
        return new InitProducerIdResponseData().setErrorCode(error.code()).setProducerId(-1)
                .setProducerEpoch((short) -1);
    }
}

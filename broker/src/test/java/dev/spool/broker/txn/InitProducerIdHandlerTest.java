package dev.spool.broker.txn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.api.RequestContext;
import dev.spool.broker.produce.ProducerIdManager;
import dev.spool.broker.metadata.NotControllerException;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.InitProducerIdRequestData;
import dev.spool.protocol.message.InitProducerIdResponseData;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class InitProducerIdHandlerTest {

    private final AtomicBoolean controllerAnswers = new AtomicBoolean(true);
    private final InitProducerIdHandler handler = new InitProducerIdHandler(new ProducerIdManager(
            (brokerId, brokerEpoch) -> controllerAnswers.get() ? CompletableFuture.completedFuture(3_000L)
                    : CompletableFuture.failedFuture(new NotControllerException(brokerId)), 1), null);

    private InitProducerIdResponseData initProducerId() {
        return (InitProducerIdResponseData) handler.handle(new RequestContext(ApiKey.INIT_PRODUCER_ID,
                ApiKey.INIT_PRODUCER_ID.highestVersion, 1, "test", null),
                new InitProducerIdRequestData().setTransactionalId(null).setTransactionTimeoutMs(60_000)).join();
    }

    @Test
    void withoutABlockOfIdsTheProducerIsToldToRetryAndGetsAnIdOnceTheControllerAnswers() {
        controllerAnswers.set(false);

        InitProducerIdResponseData refused = initProducerId();

        assertThat(Errors.forCode(refused.errorCode())).isEqualTo(Errors.COORDINATOR_LOAD_IN_PROGRESS);
        assertThat(refused.producerId()).isEqualTo(-1);

        controllerAnswers.set(true);
        InitProducerIdResponseData given = initProducerId();
        assertThat(Errors.forCode(given.errorCode())).isEqualTo(Errors.NONE);
        assertThat(given.producerId()).isEqualTo(3_000L);
        assertThat(given.producerEpoch()).isZero();
    }
}

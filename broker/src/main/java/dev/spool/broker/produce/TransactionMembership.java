package dev.spool.broker.produce;

import dev.spool.log.TopicPartition;
import dev.spool.protocol.Errors;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The transaction coordinator as a partition leader asks it before the first transactional batch of a producer's
 * transaction is written (KIP-890): add the partitions to the transaction (transactions v2), or check that they are
 * in it ({@code verifyOnly}, v1). Answers NONE or the coordinator's error. Thread-safe.
 */
@FunctionalInterface
public interface TransactionMembership {

    /** For a broker without transactions (tests): every partition is in every transaction. */
    TransactionMembership ANY = (transactionalId, producerId, producerEpoch, partitions, verifyOnly) ->
            CompletableFuture.completedFuture(Errors.NONE);

    CompletableFuture<Errors> add(String transactionalId, long producerId, short producerEpoch,
                                  Set<TopicPartition> partitions, boolean verifyOnly);

    /**
     * As {@link #add(String, long, short, Set, boolean)}, running {@code beforeEachQuestion} each time just before
     * the coordinator is asked: once here; again before each repeat where the question is repeated (a busy
     * coordinator asked again), so that what it starts (a verification guard) is younger than the answer's question.
     */
    default CompletableFuture<Errors> add(String transactionalId, long producerId, short producerEpoch,
                                          Set<TopicPartition> partitions, boolean verifyOnly,
                                          Runnable beforeEachQuestion) {
        beforeEachQuestion.run();
        return add(transactionalId, producerId, producerEpoch, partitions, verifyOnly);
    }
}

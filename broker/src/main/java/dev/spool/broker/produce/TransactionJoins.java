package dev.spool.broker.produce;

import static dev.spool.log.record.RecordBatchLayout.ATTRIBUTES_OFFSET;
import static dev.spool.log.record.RecordBatchLayout.CONTROL_FLAG_MASK;
import static dev.spool.log.record.RecordBatchLayout.MAGIC_OFFSET;
import static dev.spool.log.record.RecordBatchLayout.PRODUCER_EPOCH_OFFSET;
import static dev.spool.log.record.RecordBatchLayout.PRODUCER_ID_OFFSET;
import static dev.spool.log.record.RecordBatchLayout.RECORDS_OFFSET;
import static dev.spool.log.record.RecordBatchLayout.TRANSACTIONAL_FLAG_MASK;

import dev.spool.broker.partition.Partition;
import dev.spool.log.TopicPartition;
import dev.spool.log.producer.VerificationGuard;
import dev.spool.protocol.Errors;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The partitions of one transactional Produce request whose batch is the first of its producer's transaction there:
 * they wait for one question to the coordinator ({@link TransactionMembership}), then each is appended, with the
 * {@link VerificationGuard} started before the question was last asked, or refused. Filled on the request's thread,
 * then asked once; not thread-safe until then.
 */
final class TransactionJoins {

    private static final byte MAGIC_V2 = 2;

    private final Map<TopicPartition, Partition> partitions = new HashMap<>();
    /** Written before each question (on the thread that asks it), read once the answer is in. */
    private final Map<TopicPartition, VerificationGuard> guards = new ConcurrentHashMap<>();
    private final CompletableFuture<Errors> answer = new CompletableFuture<>();
    private long producerId = -1;
    private short producerEpoch = -1;

    /**
     * Whether {@code records} (not yet validated) is a transactional batch whose producer has no transaction open in
     * {@code partition} at its epoch; if so the partition waits for the answer, and its append needs
     * {@link #guardOf}. Else the batch may only join a transaction already open there
     * ({@link VerificationGuard#NONE}). A request's batches all come from its one producer; a batch of another is
     * left to the log's checks.
     */
    boolean needs(Partition partition, ByteBuffer records) {
        int start = records.position();
        if (records.remaining() < RECORDS_OFFSET || records.get(start + MAGIC_OFFSET) != MAGIC_V2) {
            return false;
        }
        short attributes = records.getShort(start + ATTRIBUTES_OFFSET);
        if ((attributes & TRANSACTIONAL_FLAG_MASK) == 0 || (attributes & CONTROL_FLAG_MASK) != 0) {
            return false;
        }
        long batchProducerId = records.getLong(start + PRODUCER_ID_OFFSET);
        short batchEpoch = records.getShort(start + PRODUCER_EPOCH_OFFSET);
        if (producerId >= 0 && (batchProducerId != producerId || batchEpoch != producerEpoch)
                || partition.log().hasOpenTransaction(batchProducerId, batchEpoch)) {
            return false;
        }
        producerId = batchProducerId;
        producerEpoch = batchEpoch;
        partitions.put(partition.topicPartition(), partition);
        return true;
    }

    /** {@code next} with the coordinator's answer, once {@link #ask} has it. */
    <T> CompletableFuture<T> then(Function<Errors, CompletableFuture<T>> next) {
        return answer.thenCompose(next);
    }

    /** The guard a partition {@link #needs} took must be appended with, once the answer is in. */
    VerificationGuard guardOf(Partition partition) {
        return guards.get(partition.topicPartition());
    }

    /** Asks the coordinator about the partitions {@link #needs} took, if any. */
    void ask(TransactionMembership coordinator, String transactionalId, boolean verifyOnly) {
        if (partitions.isEmpty()) {
            return;
        }
        coordinator.add(transactionalId, producerId, producerEpoch, partitions.keySet(), verifyOnly,
                this::startVerifications).whenComplete(
                (error, failure) -> answer.complete(failure != null ? Errors.COORDINATOR_NOT_AVAILABLE : error));
    }

    /**
     * Before each question: a guard only proves what happened after it started, and the answer is to the last
     * question asked (the marker of the producer's previous transaction, which a busy coordinator waits for, may be
     * written between two questions, and it ends the guard started before it).
     */
    private void startVerifications() {
        partitions.forEach((topicPartition, partition) ->
                guards.put(topicPartition, partition.log().startVerification(producerId)));
    }
}

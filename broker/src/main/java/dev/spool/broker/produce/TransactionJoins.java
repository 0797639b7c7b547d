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
import dev.spool.protocol.Errors;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The partitions of one transactional Produce request whose batch is the first of its producer's transaction there:
 * they wait for one question to the coordinator ({@link TransactionMembership}), then each is appended or refused.
 * Filled on the request's thread, then asked once; not thread-safe until then.
 */
final class TransactionJoins {

    private static final byte MAGIC_V2 = 2;

    private final Set<TopicPartition> partitions = new HashSet<>();
    private final CompletableFuture<Errors> answer = new CompletableFuture<>();
    private long producerId = -1;
    private short producerEpoch = -1;

    /**
     * Whether {@code records} (not yet validated) is a transactional batch whose producer has no transaction open in
     * {@code partition} at its epoch; if so the partition waits for the answer. A request's batches all come from its
     * one producer; a batch of another is left to the log's checks.
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
        partitions.add(partition.topicPartition());
        return true;
    }

    /** {@code next} with the coordinator's answer, once {@link #ask} has it. */
    <T> CompletableFuture<T> then(Function<Errors, CompletableFuture<T>> next) {
        return answer.thenCompose(next);
    }

    /** Asks the coordinator about the partitions {@link #needs} took, if any. */
    void ask(TransactionMembership coordinator, String transactionalId, boolean verifyOnly) {
        if (partitions.isEmpty()) {
            return;
        }
        coordinator.add(transactionalId, producerId, producerEpoch, partitions, verifyOnly).whenComplete(
                (error, failure) -> answer.complete(failure != null ? Errors.COORDINATOR_NOT_AVAILABLE : error));
    }
}

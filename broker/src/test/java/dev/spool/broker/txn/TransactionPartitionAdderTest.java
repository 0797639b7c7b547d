package dev.spool.broker.txn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.VersionedRecord;
import dev.spool.log.TopicPartition;
import dev.spool.protocol.Errors;
import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.metadata.PartitionRecordData;
import dev.spool.protocol.metadata.TopicRecordData;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A leader's question to the coordinator on this broker: the answer, and CONCURRENT_TRANSACTIONS asked again. */
class TransactionPartitionAdderTest {

    private static final Set<TopicPartition> ORDERS = Set.of(new TopicPartition("orders", 0));
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void tearDown() {
        scheduler.shutdownNow();
    }

    /** An image with {@code __transaction_state}-0 led by broker 1 (this one), or none. */
    private static MetadataImage image(boolean withTopic) {
        if (!withTopic) {
            return MetadataImage.EMPTY;
        }
        Uuid id = Uuid.randomUuid();
        List<VersionedRecord> records = List.of(
                VersionedRecord.of(MetadataRecordType.TOPIC_RECORD,
                        new TopicRecordData().setName(TransactionCoordinator.TOPIC).setTopicId(id)),
                VersionedRecord.of(MetadataRecordType.PARTITION_RECORD, new PartitionRecordData().setTopicId(id)
                        .setPartitionId(0).setReplicas(List.of(1)).setIsr(List.of(1)).setLeader(1)));
        return MetadataImage.EMPTY.apply(records, records.size());
    }

    private TransactionPartitionAdder adder(boolean withTopic, Deque<Errors> answers, AtomicInteger asked) {
        MetadataImage image = image(withTopic);
        return new TransactionPartitionAdder(1, id -> 0, (id, producerId, epoch, partitions, verifyOnly) -> {
            asked.incrementAndGet();
            return CompletableFuture.completedFuture(answers.size() > 1 ? answers.poll() : answers.peek());
        }, () -> image, partition -> true, null, scheduler);
    }

    @Test
    void theCoordinatorsAnswerAfterItFinishedTheTransactionBefore() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        TransactionPartitionAdder adder = adder(true, new ArrayDeque<>(List.of(Errors.CONCURRENT_TRANSACTIONS,
                Errors.CONCURRENT_TRANSACTIONS, Errors.NONE)), asked);
        AtomicInteger started = new AtomicInteger();
        assertThat(adder.add("t", 1000, (short) 0, ORDERS, false, () -> assertThat(started.incrementAndGet())
                .as("started before each question").isEqualTo(asked.get() + 1)).get(5, TimeUnit.SECONDS))
                .isEqualTo(Errors.NONE);
        assertThat(asked).as("asked again while the previous transaction ended").hasValue(3);
        assertThat(started).hasValue(3);
    }

    @Test
    void aCoordinatorBusyForLongerIsAnsweredAsBusy() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        TransactionPartitionAdder adder = adder(true, new ArrayDeque<>(List.of(Errors.CONCURRENT_TRANSACTIONS)),
                asked);
        long start = System.nanoTime();
        assertThat(adder.add("t", 1000, (short) 0, ORDERS, false).get(5, TimeUnit.SECONDS))
                .isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
                .isGreaterThanOrEqualTo(TransactionPartitionAdder.RETRY_FOR_MS);
        assertThat(asked.get()).isGreaterThan(1);
    }

    @Test
    void withoutTheTopicThereIsNoCoordinatorAndOtherErrorsAreAnsweredAtOnce() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        assertThat(adder(false, new ArrayDeque<>(List.of(Errors.NONE)), asked)
                .add("t", 1000, (short) 0, ORDERS, true).get(5, TimeUnit.SECONDS))
                .isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);
        assertThat(adder(true, new ArrayDeque<>(List.of(Errors.INVALID_TXN_STATE)), asked)
                .add("t", 1000, (short) 0, ORDERS, true).get(5, TimeUnit.SECONDS))
                .isEqualTo(Errors.INVALID_TXN_STATE);
        assertThat(asked).hasValue(1);
    }
}

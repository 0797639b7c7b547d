package dev.spool.broker.txn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.coordinator.PartitionRecordLog;
import dev.spool.broker.partition.Partition;
import dev.spool.broker.partition.PartitionManagerFixture;
import dev.spool.log.TopicPartition;
import dev.spool.protocol.Errors;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transaction state machine of one {@code __transaction_state} partition against its real log: sessions and
 * epochs, fencing, ends, and what a new coordinator rebuilds from the records.
 */
class TransactionShardTest {

    private static final TopicPartition ORDERS = new TopicPartition("orders", 0);
    private static final TransactionSettings SETTINGS = new TransactionSettings(1, (short) 1, 1, 1 << 20, 900_000,
            604_800_000L, 10_000, 3_600_000);

    @TempDir
    Path logDir;
    private PartitionManagerFixture fixture;
    private Partition partition;
    /** The transactions whose markers a shard asked for, in order. */
    private final List<TransactionMetadata> markersAsked = new ArrayList<>();
    private TransactionShard shard;
    private long nextProducerId = 1000;

    @BeforeEach
    void setUp() throws IOException {
        fixture = new PartitionManagerFixture(logDir);
        fixture.createTopic(TransactionCoordinator.TOPIC, 1);
        partition = fixture.partitions().get(TransactionCoordinator.TOPIC, 0);
        shard = loadShard();
    }

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    /** A shard loaded from the partition, as a coordinator becoming its leader loads it. */
    private TransactionShard loadShard() throws IOException {
        TransactionShard loaded = new TransactionShard(0, new PartitionRecordLog(partition, partition.leaderEpoch(), fixture.clock()::nowMs),
                fixture.clock()::nowMs, SETTINGS, (asking, ending) -> markersAsked.add(ending));
        loaded.load();
        loaded.onLoaded();
        return loaded;
    }

    private TransactionShard.Session init(String id) {
        return shard.initProducerId(id, 60_000, -1, (short) -1, nextProducerId++);
    }

    /** AddPartitionsToTxn of a client (transactions v1) or of a leader for a v2 producer. */
    private Errors add(String id, long producerId, short epoch, Set<TopicPartition> partitions) {
        return shard.addPartitions(id, producerId, epoch, partitions, false);
    }

    /** EndTxn v0-4. */
    private Errors end(String id, long producerId, short epoch, boolean commit) {
        return shard.endTxn(id, producerId, epoch, commit, false, -1).error();
    }

    /** EndTxn v5 (transactions v2). */
    private TransactionShard.Ended endBumping(String id, long producerId, short epoch, boolean commit) {
        return shard.endTxn(id, producerId, epoch, commit, true, -1);
    }

    @Test
    void aNewTransactionalIdGetsAProducerIdAndEachNewSessionTheNextEpoch() throws IOException {
        TransactionShard.Session first = init("t");
        assertThat(first).isEqualTo(new TransactionShard.Session(Errors.NONE, 1000, (short) 0));
        assertThat(init("t")).isEqualTo(new TransactionShard.Session(Errors.NONE, 1000, (short) 1));

        shard = loadShard();
        assertThat(shard.transaction("t").producerEpoch()).as("rebuilt from the records").isEqualTo((short) 1);
        assertThat(init("t")).isEqualTo(new TransactionShard.Session(Errors.NONE, 1000, (short) 2));
    }

    @Test
    void aCommitIsPreparedAnsweredThenCompletedOnceTheMarkersAreWritten() {
        init("t");
        assertThat(add("t", 1000, (short) 0, Set.of(ORDERS))).isEqualTo(Errors.NONE);
        assertThat(shard.transaction("t").state()).isEqualTo(TransactionState.ONGOING);
        assertThat(end("t", 1000, (short) 0, true)).isEqualTo(Errors.NONE);

        assertThat(markersAsked).singleElement().satisfies(ending -> {
            assertThat(ending.state()).isEqualTo(TransactionState.PREPARE_COMMIT);
            assertThat(ending.partitions()).containsExactly(ORDERS);
        });
        assertThat(end("t", 1000, (short) 0, true)).as("a retry while the markers are written")
                .isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        shard.complete(markersAsked.get(0));
        assertThat(shard.transaction("t").state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
        assertThat(shard.transaction("t").partitions()).isEmpty();
        assertThat(end("t", 1000, (short) 0, true)).as("a retry after").isEqualTo(Errors.NONE);
        assertThat(end("t", 1000, (short) 0, false)).isEqualTo(Errors.INVALID_TXN_STATE);
    }

    @Test
    void anotherProducerOrEpochIsRefused() {
        init("t");
        assertThat(add("unknown", 1000, (short) 0, Set.of(ORDERS)))
                .isEqualTo(Errors.INVALID_PRODUCER_ID_MAPPING);
        assertThat(add("t", 999, (short) 0, Set.of(ORDERS))).isEqualTo(Errors.INVALID_PRODUCER_ID_MAPPING);
        init("t");
        assertThat(add("t", 1000, (short) 0, Set.of(ORDERS))).as("the previous session")
                .isEqualTo(Errors.PRODUCER_FENCED);
        assertThat(end("t", 1000, (short) 0, true)).isEqualTo(Errors.PRODUCER_FENCED);
    }

    @Test
    void aNewSessionAbortsTheOpenTransactionWithTheEpochBumpedToFenceItsProducer() {
        init("t");
        add("t", 1000, (short) 0, Set.of(ORDERS));

        assertThat(init("t").error()).isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        assertThat(markersAsked).singleElement().satisfies(ending -> {
            assertThat(ending.state()).isEqualTo(TransactionState.PREPARE_ABORT);
            assertThat(ending.producerEpoch()).as("the zombie's markers are refused by the new epoch").isEqualTo((short) 1);
        });
        assertThat(end("t", 1000, (short) 0, true)).isEqualTo(Errors.PRODUCER_FENCED);
        assertThat(init("t").error()).as("until the abort completes").isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        shard.complete(markersAsked.get(0));
        assertThat(init("t")).isEqualTo(new TransactionShard.Session(Errors.NONE, 1000, (short) 2));
    }

    @Test
    void aClientRetryingTheBumpOfItsEpochGetsTheSameSessionAndAnUnknownOneIsFenced() {
        init("t");
        TransactionShard.Session bumped = shard.initProducerId("t", 60_000, 1000, (short) 0, nextProducerId++);
        assertThat(bumped).isEqualTo(new TransactionShard.Session(Errors.NONE, 1000, (short) 1));
        assertThat(shard.initProducerId("t", 60_000, 1000, (short) 0, nextProducerId++)).as("the retry").isEqualTo(bumped);
        assertThat(shard.initProducerId("t", 60_000, 77, (short) 3, nextProducerId++).error())
                .isEqualTo(Errors.PRODUCER_FENCED);
    }

    @Test
    void aZombieOfAReplacedSessionCannotClaimTheNewOne() {
        init("t");                                          // the zombie's session: epoch 0
        init("t");                                          // a new instance: epoch 1
        assertThat(shard.initProducerId("t", 60_000, 1000, (short) 0, nextProducerId++).error())
                .as("the zombie bumping its own epoch").isEqualTo(Errors.PRODUCER_FENCED);
        assertThat(shard.transaction("t").producerEpoch()).isEqualTo((short) 1);
    }

    @Test
    void aTransactionOpenPastItsTimeoutIsAbortedAndItsProducerFenced() {
        shard.initProducerId("t", 5_000, -1, (short) -1, nextProducerId++);
        add("t", 1000, (short) 0, Set.of(ORDERS));
        fixture.clock().advance(4_000);
        shard.abortExpired();
        assertThat(markersAsked).isEmpty();

        fixture.clock().advance(2_000);
        shard.abortExpired();
        assertThat(markersAsked).singleElement().satisfies(ending -> {
            assertThat(ending.state()).isEqualTo(TransactionState.PREPARE_ABORT);
            assertThat(ending.producerEpoch()).isEqualTo((short) 1);
        });
        assertThat(end("t", 1000, (short) 0, true)).isEqualTo(Errors.PRODUCER_FENCED);
    }

    @Test
    void aNewCoordinatorWritesTheMarkersOfATransactionStillEnding() throws IOException {
        init("t");
        add("t", 1000, (short) 0, Set.of(ORDERS));
        end("t", 1000, (short) 0, false);
        markersAsked.clear();

        shard = loadShard();

        assertThat(markersAsked).singleElement().satisfies(ending -> {
            assertThat(ending.state()).isEqualTo(TransactionState.PREPARE_ABORT);
            assertThat(ending.partitions()).containsExactly(ORDERS);
        });
    }

    @Test
    void anIdIdleForItsExpirationIsForgottenWithATombstone() throws IOException {
        init("idle");
        fixture.clock().advance(SETTINGS.transactionalIdExpirationMs());
        init("fresh");
        shard.expireTransactionalIds();
        assertThat(shard.transaction("idle")).isNull();
        assertThat(shard.transaction("fresh")).isNotNull();

        shard = loadShard();
        assertThat(shard.transaction("idle")).isNull();
        assertThat(init("idle").producerId()).as("a new producer id").isNotEqualTo(1000);
    }

    @Test
    void anEpochThatRanOutGivesANewProducerId() {
        init("t");
        TransactionMetadata current = shard.transaction("t");
        TransactionMetadata last = new TransactionMetadata("t", current.producerId(), -1, -1,
                (short) (Short.MAX_VALUE - 1), (short) -1, 60_000, TransactionState.EMPTY, Set.of(), -1,
                current.updateTimestampMs(), (short) 0);
        assertThat(last.nextSession(5000, 60_000, 0, false).producerId()).isEqualTo(5000);
        assertThat(last.nextSession(5000, 60_000, 0, false).producerEpoch()).isZero();
        assertThat(last.nextSession(5000, 60_000, 0, false).lastProducerId()).isEqualTo(1000);
    }

    @Test
    void aTransactionsV2EndBumpsTheEpochAndItsRetryWithTheEpochBeforeGetsTheSameAnswer() throws IOException {
        init("t");
        assertThat(add("t", 1000, (short) 0, Set.of(ORDERS))).isEqualTo(Errors.NONE);
        assertThat(endBumping("t", 1000, (short) 0, true)).isEqualTo(new TransactionShard.Ended(Errors.NONE, 1000,
                (short) 1));
        assertThat(markersAsked).singleElement().satisfies(ending -> {
            assertThat(ending.state()).isEqualTo(TransactionState.PREPARE_COMMIT);
            assertThat(ending.producerEpoch()).as("the markers carry the bumped epoch").isEqualTo((short) 1);
        });
        assertThat(endBumping("t", 1000, (short) 0, true)).as("a retry while the markers are written")
                .isEqualTo(new TransactionShard.Ended(Errors.NONE, 1000, (short) 1));
        assertThat(add("t", 1000, (short) 1, Set.of(ORDERS))).as("the next transaction, before the end completed")
                .isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        shard.complete(markersAsked.get(0));
        assertThat(endBumping("t", 1000, (short) 0, true)).as("a retry after")
                .isEqualTo(new TransactionShard.Ended(Errors.NONE, 1000, (short) 1));
        assertThat(endBumping("t", 1000, (short) 0, false).error()).as("the other end of it")
                .isEqualTo(Errors.PRODUCER_FENCED);
        assertThat(add("t", 1000, (short) 0, Set.of(ORDERS))).as("a late write of the ended transaction")
                .isEqualTo(Errors.PRODUCER_FENCED);
        assertThat(add("t", 1000, (short) 1, Set.of(ORDERS))).isEqualTo(Errors.NONE);

        shard = loadShard();
        TransactionMetadata rebuilt = shard.transaction("t");
        assertThat(rebuilt.state()).isEqualTo(TransactionState.ONGOING);
        assertThat(rebuilt.producerEpoch()).isEqualTo((short) 1);
        assertThat(rebuilt.clientTransactionVersion()).isEqualTo(TransactionMetadata.TRANSACTIONS_V2);
    }

    @Test
    void aTransactionsV2AbortWithNothingOpenBumpsTheEpochAndACommitIsRefused() {
        init("t");
        assertThat(endBumping("t", 1000, (short) 0, true).error()).isEqualTo(Errors.INVALID_TXN_STATE);
        assertThat(endBumping("t", 1000, (short) 0, false)).isEqualTo(new TransactionShard.Ended(Errors.NONE, 1000,
                (short) 1));
        assertThat(markersAsked).singleElement().satisfies(ending ->
                assertThat(ending.partitions()).as("no markers to write").isEmpty());
    }

    @Test
    void aTransactionsV2EndAtTheLastEpochGoesOnWithAFreshProducerId() {
        init("t");
        add("t", 1000, (short) 0, Set.of(ORDERS));
        TransactionMetadata open = shard.transaction("t");
        TransactionMetadata atLast = new TransactionMetadata("t", 1000, -1, -1, (short) (Short.MAX_VALUE - 1),
                (short) -1, 60_000, TransactionState.ONGOING, Set.of(ORDERS), open.startTimestampMs(),
                open.updateTimestampMs(), TransactionMetadata.TRANSACTIONS_V2);
        assertThat(atLast.bumpNeedsFreshProducerId()).isTrue();
        TransactionMetadata ending = atLast.endedWithBump(TransactionState.PREPARE_COMMIT, 5000, 0);
        assertThat(ending.producerId()).as("the markers' producer").isEqualTo(1000);
        assertThat(ending.producerEpoch()).isEqualTo(Short.MAX_VALUE);
        assertThat(ending.continuingProducerId()).isEqualTo(5000);
        assertThat(ending.continuingProducerEpoch()).isZero();
        TransactionRecords.Read read = TransactionRecords.read(
                java.nio.ByteBuffer.wrap(TransactionRecords.key("t")),
                java.nio.ByteBuffer.wrap(TransactionRecords.value(ending)));
        assertThat(read.metadata().nextProducerId()).as("kept in the record").isEqualTo(5000);
        TransactionMetadata completed = ending.completed(0);
        assertThat(completed.producerId()).isEqualTo(5000);
        assertThat(completed.producerEpoch()).isZero();
        assertThat(completed.lastProducerId()).isEqualTo(1000);
        assertThat(completed.state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
    }

    @Test
    void aLeaderCheckingAPartitionFindsItOnlyInTheOpenTransaction() {
        init("t");
        assertThat(shard.addPartitions("t", 1000, (short) 0, Set.of(ORDERS), true)).as("not added")
                .isEqualTo(Errors.INVALID_TXN_STATE);
        assertThat(shard.transaction("t").state()).as("a check writes nothing").isEqualTo(TransactionState.EMPTY);
        add("t", 1000, (short) 0, Set.of(ORDERS));
        assertThat(shard.addPartitions("t", 1000, (short) 0, Set.of(ORDERS), true)).isEqualTo(Errors.NONE);
        assertThat(shard.addPartitions("t", 1000, (short) 0, Set.of(new TopicPartition("orders", 1)), true))
                .isEqualTo(Errors.INVALID_TXN_STATE);
        end("t", 1000, (short) 0, true);
        assertThat(shard.addPartitions("t", 1000, (short) 0, Set.of(ORDERS), true))
                .as("a late batch of the ended transaction").isEqualTo(Errors.INVALID_TXN_STATE);
    }

    @Test
    void aProducerFencedByANewSessionCannotTakeTheFencingEpochAsItsOwnEnd() {
        init("t");
        add("t", 1000, (short) 0, Set.of(ORDERS));
        endBumping("t", 1000, (short) 0, true);
        shard.complete(markersAsked.get(0));
        add("t", 1000, (short) 1, Set.of(ORDERS));
        assertThat(init("t").error()).as("a new instance: the open transaction is aborted, the epoch bumped")
                .isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        assertThat(shard.transaction("t").producerEpoch()).as("a v2 producer is fenced two epochs up")
                .isEqualTo((short) 3);
        assertThat(endBumping("t", 1000, (short) 1, false).error()).as("the zombie's abort")
                .isEqualTo(Errors.PRODUCER_FENCED);
    }

    @Test
    void aTransactionsV2EndRetriedAtANewCoordinatorGetsTheSameAnswer() throws IOException {
        init("t");
        add("t", 1000, (short) 0, Set.of(ORDERS));
        endBumping("t", 1000, (short) 0, true);

        shard = loadShard(); // the coordinator moved before it answered; the new one writes the markers again
        assertThat(endBumping("t", 1000, (short) 0, true)).isEqualTo(new TransactionShard.Ended(Errors.NONE, 1000,
                (short) 1));
        shard.complete(markersAsked.get(markersAsked.size() - 1));
        assertThat(endBumping("t", 1000, (short) 0, true)).as("and once it completed")
                .isEqualTo(new TransactionShard.Ended(Errors.NONE, 1000, (short) 1));
    }

    @Test
    void aFenceAtTheLastEpochTakesTheReservedOneAndTheNextSessionAFreshId() {
        TransactionMetadata atLast = new TransactionMetadata("t", 1000, -1, -1, (short) (Short.MAX_VALUE - 1),
                (short) -1, 60_000, TransactionState.ONGOING, Set.of(ORDERS), 0, 0,
                TransactionMetadata.TRANSACTIONS_V2);
        TransactionMetadata fenced = atLast.fenced(0);
        assertThat(fenced.producerEpoch()).as("above the producer's: its batches and markers are refused")
                .isEqualTo(Short.MAX_VALUE);
        TransactionMetadata next = fenced.completed(0).nextSession(5000, 60_000, 0, false);
        assertThat(next.producerId()).isEqualTo(5000);
        assertThat(next.producerEpoch()).isZero();
    }
}

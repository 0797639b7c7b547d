package dev.spool.broker.produce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spool.broker.api.Access;
import dev.spool.broker.api.ConnectionCloseRequest;
import dev.spool.broker.api.RequestContext;
import dev.spool.broker.metadata.BrokerRegistration;
import dev.spool.broker.metadata.BrokerRegistrations;
import dev.spool.broker.metadata.ConfigResource;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.VersionedRecord;
import dev.spool.broker.partition.Partition;
import dev.spool.broker.partition.PartitionManager;
import dev.spool.broker.partition.PartitionManagerFixture;
import dev.spool.broker.purgatory.ManualWaitTimer;
import dev.spool.broker.security.acl.AclOperation;
import dev.spool.broker.security.acl.ResourceType;
import dev.spool.log.PartitionLog;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.RecordBatchBuilder;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.ProduceRequestData;
import dev.spool.protocol.message.ProduceRequestData.PartitionProduceData;
import dev.spool.protocol.message.ProduceRequestData.TopicProduceData;
import dev.spool.protocol.message.ProduceResponseData;
import dev.spool.protocol.message.ProduceResponseData.PartitionProduceResponse;
import dev.spool.protocol.metadata.ConfigRecordData;
import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.metadata.PartitionChangeRecordData;
import dev.spool.protocol.metadata.PartitionRecordData;
import dev.spool.protocol.metadata.TopicRecordData;
import dev.spool.protocol.types.ByteBufferRecords;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.Uuid;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Produce requests end to end below the network: partition lookup, per-partition errors, acks. */
class ProduceHandlerTest {

    @TempDir
    Path logDir;

    private final Uuid ordersId = Uuid.randomUuid();
    private PartitionManagerFixture fixture;
    private PartitionManager partitions;
    private PartitionAppenders appenders;
    private ProduceHandler handler;
    private MetadataImage image = MetadataImage.EMPTY;
    private final ManualWaitTimer waits = new ManualWaitTimer();

    @BeforeEach
    void setUp() {
        fixture = new PartitionManagerFixture(logDir);
        partitions = fixture.partitions();
        List<VersionedRecord> records = new ArrayList<>();
        records.add(topic("orders", ordersId));
        records.add(partition(ordersId, 0));
        records.add(partition(ordersId, 1));
        Uuid smallId = Uuid.randomUuid();
        records.add(topic("small", smallId));
        records.add(partition(smallId, 0));
        records.add(VersionedRecord.of(MetadataRecordType.CONFIG_RECORD, new ConfigRecordData()
                .setResourceType(ConfigResource.topic("small").type()).setResourceName("small")
                .setName("max.message.bytes").setValue("80")));
        Uuid offsetsId = Uuid.randomUuid();
        records.add(topic("__consumer_offsets", offsetsId));
        records.add(partition(offsetsId, 0));
        // The fixture's partition manager sees the same records as the image the handler reads.
        image = image.apply(records, records.size());
        fixture.apply(records.toArray(VersionedRecord[]::new));
        appenders = new PartitionAppenders(partitions, 2, System::currentTimeMillis, waits);
        handler = new ProduceHandler(() -> image, partitions, appenders);
    }

    @AfterEach
    void tearDown() {
        appenders.close();
        fixture.close();
    }

    private static VersionedRecord topic(String name, Uuid id) {
        return VersionedRecord.of(MetadataRecordType.TOPIC_RECORD, new TopicRecordData().setName(name).setTopicId(id));
    }

    private static VersionedRecord partition(Uuid topicId, int index) {
        return VersionedRecord.of(MetadataRecordType.PARTITION_RECORD, new PartitionRecordData().setTopicId(topicId)
                .setPartitionId(index).setReplicas(List.of(1)).setIsr(List.of(1)).setLeader(1));
    }

    private static PartitionProduceData data(int index, int valueBytes) {
        return new PartitionProduceData().setIndex(index).setRecords(new ByteBufferRecords(
                new RecordBatchBuilder(CompressionType.NONE).append(System.currentTimeMillis(), null,
                        new byte[valueBytes]).build()));
    }

    private ProduceResponseData produce(short version, short acks, TopicProduceData... topics) {
        ProduceRequestData request = new ProduceRequestData().setAcks(acks).setTimeoutMs(1000)
                .setTopicData(List.of(topics));
        return (ProduceResponseData) handler.handle(new RequestContext(ApiKey.PRODUCE, version, 1, "test", null),
                request).join();
    }

    private static void awaitOrFail(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    private static List<Short> errors(ProduceResponseData response, int topic) {
        return response.responses().get(topic).partitionResponses().stream()
                .map(PartitionProduceResponse::errorCode).toList();
    }

    @Test
    void aBadPartitionNeverFailsTheOthersAndAnswersKeepRequestOrder() {
        ProduceResponseData response = produce((short) 9, (short) -1,
                new TopicProduceData().setName("orders").setPartitionData(List.of(data(1, 10), data(7, 10), data(0, 10))),
                new TopicProduceData().setName("small").setPartitionData(List.of(data(0, 500))),
                new TopicProduceData().setName("missing").setPartitionData(List.of(data(0, 10))));
        assertThat(response.responses().get(0).partitionResponses()).extracting(PartitionProduceResponse::index)
                .containsExactly(1, 7, 0);
        assertThat(errors(response, 0)).containsExactly(Errors.NONE.code(), Errors.UNKNOWN_TOPIC_OR_PARTITION.code(),
                Errors.NONE.code());
        assertThat(errors(response, 1)).containsExactly(Errors.MESSAGE_TOO_LARGE.code());
        assertThat(errors(response, 2)).containsExactly(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertThat(partitions.get("orders", 0).log().logEndOffset()).isEqualTo(1);
        assertThat(partitions.get("orders", 1).log().highWatermark()).isEqualTo(1);
    }

    @Test
    void aReplicaThatDoesNotLeadRefusesWritesAsNotLeader() {
        // Leadership of orders-1 moves to broker 2 (this broker, 1, stays a replica); orders-0 loses its leader.
        List<VersionedRecord> changes = new ArrayList<>(BrokerRegistrations.register(image, 2, new Uuid(2, 2),
                List.of(new BrokerRegistration.Listener("PLAINTEXT", "broker-2", 9092, (short) 0))).records());
        changes.add(VersionedRecord.of(MetadataRecordType.PARTITION_CHANGE_RECORD, new PartitionChangeRecordData()
                .setTopicId(ordersId).setPartitionId(1).setReplicas(List.of(1, 2)).setLeader(2)));
        changes.add(VersionedRecord.of(MetadataRecordType.PARTITION_CHANGE_RECORD, new PartitionChangeRecordData()
                .setTopicId(ordersId).setPartitionId(0).setLeader(-1)));
        image = image.apply(changes, image.offset() + changes.size());
        fixture.apply(changes.toArray(VersionedRecord[]::new));
        ProduceResponseData response = produce((short) 9, (short) 1,
                new TopicProduceData().setName("orders").setPartitionData(List.of(data(0, 10), data(1, 10))));
        assertThat(errors(response, 0)).containsOnly(Errors.NOT_LEADER_OR_FOLLOWER.code());
        assertThat(partitions.get("orders", 1).log().logEndOffset()).as("nothing written").isZero();
        PartitionProduceResponse movedAway = response.responses().get(0).partitionResponses().get(1);
        assertThat(movedAway.currentLeader().leaderId()).as("where the leader is (KIP-951)").isEqualTo(2);
        assertThat(movedAway.currentLeader().leaderEpoch()).isEqualTo(partitions.get("orders", 1).leaderEpoch());
        assertThat(response.nodeEndpoints()).singleElement().satisfies(node -> {
            assertThat(node.nodeId()).isEqualTo(2);
            assertThat(node.host()).isEqualTo("broker-2");
        });
    }

    /**
     * A leader that loses its leadership with an acks=all batch parked: as a follower it truncates to the new leader's
     * log and takes the new leader's high watermark, which soon passes the batch's offsets though those offsets hold
     * other records now. The batch is answered NOT_LEADER_OR_FOLLOWER, never as written (a fault schedule found
     * acknowledged records lost this way, their offsets reused).
     */
    @Test
    void aParkedAcksAllBatchIsAnsweredNotLeaderWhenTheLeadershipMovesWhateverTheHighWatermarkThenSays() throws Exception {
        List<VersionedRecord> changes = new ArrayList<>(BrokerRegistrations.register(image, 2, new Uuid(2, 2),
                List.of(new BrokerRegistration.Listener("PLAINTEXT", "broker-2", 9092, (short) 0))).records());
        changes.add(VersionedRecord.of(MetadataRecordType.PARTITION_CHANGE_RECORD, new PartitionChangeRecordData()
                .setTopicId(ordersId).setPartitionId(1).setReplicas(List.of(1, 2)).setIsr(List.of(1, 2))));
        image = image.apply(changes, image.offset() + changes.size());
        fixture.apply(changes.toArray(VersionedRecord[]::new));
        ProduceRequestData request = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(30_000)
                .setTopicData(List.of(new TopicProduceData().setName("orders").setPartitionData(List.of(data(1, 10)))));
        CompletableFuture<Message> answer = handler.handle(new RequestContext(ApiKey.PRODUCE, (short) 9, 1, "test",
                null), request);
        Partition partition = partitions.get("orders", 1);
        awaitOrFail(() -> partition.log().logEndOffset() == 1, "the batch written (on the appenders' threads)");
        waits.runPending();
        assertThat(answer).as("parked until broker 2 has the batch").isNotDone();

        List<VersionedRecord> moved = List.of(VersionedRecord.of(MetadataRecordType.PARTITION_CHANGE_RECORD,
                new PartitionChangeRecordData().setTopicId(ordersId).setPartitionId(1).setLeader(2)));
        image = image.apply(moved, image.offset() + moved.size());
        fixture.apply(moved.toArray(VersionedRecord[]::new));
        partition.log().updateHighWatermark(partition.log().logEndOffset()); // the new leader's, passing the batch
        partition.notifyAppended();
        awaitOrFail(() -> {
            waits.runPending();
            return answer.isDone();
        }, "an answer");

        ProduceResponseData response = (ProduceResponseData) answer.join();
        assertThat(errors(response, 0)).containsExactly(Errors.NOT_LEADER_OR_FOLLOWER.code());
    }

    /**
     * A cluster's broker that restarted replays the metadata from where its copy ended: until it has caught up, the
     * images name it leader in epochs long over, and a write it took would continue its log with the old epoch where
     * the real log holds other records. It takes none until it has caught up.
     */
    @Test
    void aBrokerThatHasNotCaughtUpWithTheMetadataTakesNoWriteWhateverItsImageSays() {
        partitions.leadNothingUntilCaughtUp();

        ProduceResponseData refused = produce((short) 9, (short) -1,
                new TopicProduceData().setName("orders").setPartitionData(List.of(data(0, 10))));
        assertThat(errors(refused, 0)).containsExactly(Errors.NOT_LEADER_OR_FOLLOWER.code());
        assertThat(partitions.get("orders", 0).log().logEndOffset()).as("nothing written").isZero();

        partitions.markCaughtUp();
        ProduceResponseData taken = produce((short) 9, (short) -1,
                new TopicProduceData().setName("orders").setPartitionData(List.of(data(0, 10))));
        assertThat(errors(taken, 0)).containsExactly(Errors.NONE.code());
    }

    @Test
    void version13NamesTopicsById() {
        ProduceResponseData response = produce((short) 13, (short) 1,
                new TopicProduceData().setTopicId(ordersId).setPartitionData(List.of(data(0, 10))),
                new TopicProduceData().setTopicId(Uuid.randomUuid()).setPartitionData(List.of(data(0, 10))));
        assertThat(errors(response, 0)).containsExactly(Errors.NONE.code());
        assertThat(response.responses().get(0).topicId()).isEqualTo(ordersId);
        assertThat(errors(response, 1)).containsExactly(Errors.UNKNOWN_TOPIC_ID.code());
    }

    @Test
    void invalidAcksAndInternalTopicsAreRefused() {
        assertThat(errors(produce((short) 9, (short) 2,
                new TopicProduceData().setName("orders").setPartitionData(List.of(data(0, 10)))), 0))
                .containsExactly(Errors.INVALID_REQUIRED_ACKS.code());
        assertThat(errors(produce((short) 9, (short) 1,
                new TopicProduceData().setName("__consumer_offsets").setPartitionData(List.of(data(0, 10)))), 0))
                .containsExactly(Errors.INVALID_TOPIC_EXCEPTION.code());
        assertThat(partitions.get("orders", 0).log().logEndOffset()).isZero();
    }

    @Test
    void acksZeroAnswersNothingOrClosesTheConnectionOnAnError() {
        assertThat(handler.handle(new RequestContext(ApiKey.PRODUCE, (short) 9, 1, "test", null),
                new ProduceRequestData().setAcks((short) 0).setTopicData(List.of(new TopicProduceData()
                        .setName("orders").setPartitionData(List.of(data(0, 10)))))).join()).isNull();
        assertThat(partitions.get("orders", 0).log().logEndOffset()).isEqualTo(1);
        assertThatThrownBy(() -> handler.handle(new RequestContext(ApiKey.PRODUCE, (short) 9, 2, "test", null),
                new ProduceRequestData().setAcks((short) 0).setTopicData(List.of(new TopicProduceData()
                        .setName("missing").setPartitionData(List.of(data(0, 10)))))).join())
                .isInstanceOf(CompletionException.class).hasCauseInstanceOf(ConnectionCloseRequest.class)
                .cause().hasMessageEndingWith("with acks=0 failed on missing-0: UNKNOWN_TOPIC_OR_PARTITION");
    }

    /** What a leader asked the coordinator: the partitions and whether only to check them. */
    private record Asked(Set<dev.spool.log.TopicPartition> partitions, boolean verifyOnly) {
    }

    private static PartitionProduceData transactionalData(int index, int sequence) {
        return transactionalData(index, sequence, (short) 0);
    }

    private static PartitionProduceData transactionalData(int index, int sequence, short epoch) {
        return new PartitionProduceData().setIndex(index).setRecords(new ByteBufferRecords(
                new RecordBatchBuilder(CompressionType.NONE).producer(7, epoch, sequence).transactional(true)
                        .append(System.currentTimeMillis(), null, new byte[10]).build()));
    }

    private ProduceResponseData produceTransactional(short version, PartitionProduceData... partitions) {
        ProduceRequestData request = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(1000)
                .setTransactionalId("t").setTopicData(List.of(new TopicProduceData().setName("orders")
                        .setPartitionData(List.of(partitions))));
        return (ProduceResponseData) handler.handle(new RequestContext(ApiKey.PRODUCE, version, 1, "test", null),
                request).join();
    }

    @Test
    void transactionalRecordsNeedWriteOnTheTransactionalIdTheRequestNamesWhenAclsAreOn() {
        // An authorizer's answer: WRITE on topic orders and on transactional id "t", nothing else.
        Access aclsOn = new Access() {
            @Override
            public boolean allows(AclOperation operation, ResourceType type, String name) {
                return operation == AclOperation.WRITE && (type == ResourceType.TOPIC && name.equals("orders")
                        || type == ResourceType.TRANSACTIONAL_ID && name.equals("t"));
            }

            @Override
            public boolean allowsAny(AclOperation operation, ResourceType type) {
                return false;
            }
        };
        handler = new ProduceHandler(() -> image, partitions, appenders,
                (id, producerId, epoch, added, verifyOnly) -> CompletableFuture.completedFuture(Errors.NONE), true);
        RequestContext context = new RequestContext(ApiKey.PRODUCE, (short) 11, 1, "test", null).withAccess(aclsOn);
        ProduceRequestData withoutId = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(1000)
                .setTopicData(List.of(new TopicProduceData().setName("orders")
                        .setPartitionData(List.of(transactionalData(0, 0)))));
        assertThat(errors((ProduceResponseData) handler.handle(context, withoutId).join(), 0))
                .containsOnly(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code());
        ProduceRequestData otherId = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(1000)
                .setTransactionalId("u").setTopicData(List.of(new TopicProduceData().setName("orders")
                        .setPartitionData(List.of(transactionalData(0, 0)))));
        assertThat(errors((ProduceResponseData) handler.handle(context, otherId).join(), 0))
                .containsOnly(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code());
        assertThat(partitions.get("orders", 0).log().logEndOffset()).isZero();
        ProduceRequestData named = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(1000)
                .setTransactionalId("t").setTopicData(List.of(new TopicProduceData().setName("orders")
                        .setPartitionData(List.of(transactionalData(0, 0)))));
        assertThat(errors((ProduceResponseData) handler.handle(context, named).join(), 0))
                .containsOnly(Errors.NONE.code());
    }

    @Test
    void theFirstTransactionalBatchInAPartitionIsCheckedOrAddedWithTheCoordinatorOnce() {
        List<Asked> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
        handler = new ProduceHandler(() -> image, partitions, appenders, (id, producerId, epoch, added, verifyOnly) -> {
            asked.add(new Asked(Set.copyOf(added), verifyOnly));
            return CompletableFuture.completedFuture(Errors.NONE);
        }, true);

        assertThat(errors(produceTransactional((short) 11, transactionalData(0, 0), transactionalData(1, 0)), 0))
                .containsOnly(Errors.NONE.code());
        assertThat(asked).as("a v1 producer's partitions are checked, in one question").containsExactly(new Asked(
                Set.of(new dev.spool.log.TopicPartition("orders", 0), new dev.spool.log.TopicPartition("orders", 1)),
                true));
        assertThat(errors(produceTransactional((short) 11, transactionalData(0, 1)), 0))
                .containsOnly(Errors.NONE.code());
        assertThat(asked).as("the transaction is open there now: not asked again").hasSize(1);

        handler = new ProduceHandler(() -> image, partitions, appenders, (id, producerId, epoch, added, verifyOnly) -> {
            asked.add(new Asked(Set.copyOf(added), verifyOnly));
            return CompletableFuture.completedFuture(Errors.NONE);
        }, false);
        assertThat(errors(produceTransactional((short) 12, transactionalData(0, 2), transactionalData(1, 1)), 0))
                .containsOnly(Errors.NONE.code());
        assertThat(asked).as("open in both partitions: no question even for v12").hasSize(1);
    }

    @Test
    void aV1BatchConfirmedWhileAMarkerWasWrittenDoesNotOpenATransaction() {
        PartitionAppender orders0 = appenders.of(partitions.get("orders", 0));
        // A v1 producer's batch of its last transaction comes late: the coordinator still counts the partition in,
        // and the transaction's marker is written before the answer is back.
        handler = new ProduceHandler(() -> image, partitions, appenders, (id, producerId, epoch, added, verifyOnly) ->
                orders0.appendTxnMarker(producerId, epoch, 0, true, 1, 1000).thenApply(marker -> Errors.NONE), true);
        assertThat(errors(produceTransactional((short) 11, transactionalData(0, 0)), 0))
                .containsExactly(Errors.INVALID_TXN_STATE.code());
        PartitionLog log = partitions.get("orders", 0).log();
        assertThat(log.logEndOffset()).as("the marker alone").isEqualTo(1);
        assertThat(log.lastStableOffset()).as("no transaction left open").isEqualTo(1);

        handler = new ProduceHandler(() -> image, partitions, appenders, (id, producerId, epoch, added, verifyOnly) ->
                CompletableFuture.completedFuture(Errors.NONE), true);
        assertThat(errors(produceTransactional((short) 11, transactionalData(0, 0)), 0))
                .as("confirmed with nothing in between").containsExactly(Errors.NONE.code());
        assertThat(log.lastStableOffset()).isEqualTo(1);
    }

    @Test
    void aBatchThatWaitedForThePreviousTransactionsMarkerOpensItsTransactionOnceTheCoordinatorTakesIt() {
        PartitionAppender orders0 = appenders.of(partitions.get("orders", 0));
        assertThat(errors(produceTransactional((short) 12, transactionalData(0, 0)), 0)).containsOnly(
                Errors.NONE.code());
        // Transactions v2: ending that transaction bumped the epoch to 1, and the producer's next one starts here
        // before the coordinator has written the marker; the coordinator is busy until it has, and is asked again.
        handler = new ProduceHandler(() -> image, partitions, appenders, new TransactionMembership() {
            @Override
            public CompletableFuture<Errors> add(String id, long producerId, short epoch,
                                                 Set<dev.spool.log.TopicPartition> added, boolean verifyOnly) {
                throw new AssertionError("asked without starting the guard");
            }

            @Override
            public CompletableFuture<Errors> add(String id, long producerId, short epoch,
                                                 Set<dev.spool.log.TopicPartition> added, boolean verifyOnly,
                                                 Runnable beforeEachQuestion) {
                beforeEachQuestion.run(); // answered CONCURRENT_TRANSACTIONS
                assertThat(orders0.appendTxnMarker(producerId, epoch, 0, true, 2, 1000).join()).isEqualTo(Errors.NONE);
                beforeEachQuestion.run(); // answered NONE: the partition is in the new transaction
                return CompletableFuture.completedFuture(Errors.NONE);
            }
        }, false);
        assertThat(errors(produceTransactional((short) 12, transactionalData(0, 0, (short) 1)), 0))
                .containsOnly(Errors.NONE.code());
        PartitionLog log = partitions.get("orders", 0).log();
        assertThat(log.logEndOffset()).as("the first transaction's batch and marker, the second's batch").isEqualTo(3);
        assertThat(log.lastStableOffset()).as("the second transaction open").isEqualTo(2);
    }

    @Test
    void aPartitionTheCoordinatorRefusesIsNotWritten() {
        handler = new ProduceHandler(() -> image, partitions, appenders, (id, producerId, epoch, added, verifyOnly) ->
                CompletableFuture.completedFuture(verifyOnly ? Errors.INVALID_TXN_STATE : Errors.CONCURRENT_TRANSACTIONS),
                true);
        assertThat(errors(produceTransactional((short) 10, transactionalData(0, 0)), 0))
                .as("a batch of a transaction the partition is not part of").containsExactly(
                        Errors.INVALID_TXN_STATE.code());
        assertThat(errors(produceTransactional((short) 12, transactionalData(0, 0)), 0))
                .as("transactions v2: the previous transaction still ending, retriable")
                .containsExactly(Errors.NOT_ENOUGH_REPLICAS.code());
        assertThat(partitions.get("orders", 0).log().logEndOffset()).isZero();
        assertThat(ProduceHandler.produceError(Errors.PRODUCER_FENCED, (short) 12))
                .isEqualTo(Errors.INVALID_PRODUCER_EPOCH);
        assertThat(ProduceHandler.produceError(Errors.INVALID_TXN_STATE, (short) 12))
                .isEqualTo(Errors.TRANSACTION_ABORTABLE);
    }
}

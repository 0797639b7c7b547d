package dev.spool.broker.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.api.RequestContext;
import dev.spool.broker.network.FileRecords;
import dev.spool.broker.partition.PartitionManagerFixture;
import dev.spool.broker.produce.PartitionAppenders;
import dev.spool.broker.produce.WriteTxnMarkersHandler;
import dev.spool.broker.purgatory.ManualWaitTimer;
import dev.spool.log.PartitionLog;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchBuilder;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.FetchRequestData;
import dev.spool.protocol.message.FetchRequestData.FetchPartition;
import dev.spool.protocol.message.FetchRequestData.FetchTopic;
import dev.spool.protocol.message.FetchResponseData;
import dev.spool.protocol.message.FetchResponseData.AbortedTransaction;
import dev.spool.protocol.message.FetchResponseData.PartitionData;
import dev.spool.protocol.message.ListOffsetsRequestData;
import dev.spool.protocol.message.ListOffsetsRequestData.ListOffsetsPartition;
import dev.spool.protocol.message.ListOffsetsRequestData.ListOffsetsTopic;
import dev.spool.protocol.message.ListOffsetsResponseData;
import dev.spool.protocol.message.ListOffsetsResponseData.ListOffsetsPartitionResponse;
import dev.spool.protocol.message.WriteTxnMarkersRequestData;
import dev.spool.protocol.message.WriteTxnMarkersRequestData.WritableTxnMarker;
import dev.spool.protocol.message.WriteTxnMarkersRequestData.WritableTxnMarkerTopic;
import dev.spool.protocol.message.WriteTxnMarkersResponseData;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The partition side of transactions through the handlers: WriteTxnMarkers ends transactions, a read_committed
 * Fetch stops at the last stable offset and names the aborted transactions it read, ListOffsets answers the last
 * stable offset, and a partition whose producer state is not loaded yet answers so until its load ends.
 */
class ReadCommittedTest {

    private static final byte READ_UNCOMMITTED = 0;
    private static final byte READ_COMMITTED = 1;
    private static final long P1 = 21;
    private static final long P2 = 22;

    @TempDir
    Path logDir;
    private PartitionManagerFixture fixture;
    private PartitionAppenders appenders;
    private FetchHandler fetch;
    private ListOffsetsHandler listOffsets;
    private WriteTxnMarkersHandler markers;

    @BeforeEach
    void setUp() {
        start();
        fixture.createTopic("t", 1);
    }

    private void start() {
        fixture = new PartitionManagerFixture(logDir);
        appenders = new PartitionAppenders(fixture.partitions(), 1, System::currentTimeMillis, new ManualWaitTimer());
        HostedPartitionLookup lookup = new HostedPartitionLookup(fixture.partitions(), fixture::image);
        fetch = new FetchHandler(lookup, new FetchSessionCache(10, FetchSessionCache.DEFAULT_EVICTION_MS),
                System::currentTimeMillis);
        listOffsets = new ListOffsetsHandler(lookup);
        markers = new WriteTxnMarkersHandler(fixture.partitions(), appenders);
    }

    @AfterEach
    void tearDown() {
        fetch.close();
        appenders.close();
        fixture.close();
    }

    private PartitionLog log() {
        return fixture.log("t", 0);
    }

    private void write(long producerId, int firstSequence, int records) throws IOException {
        RecordBatchBuilder batch = new RecordBatchBuilder(CompressionType.NONE).producer(producerId, (short) 0,
                firstSequence).transactional(true);
        for (int i = 0; i < records; i++) {
            batch.append(System.currentTimeMillis(), null, new byte[10]);
        }
        assertThat(log().appendAsLeader(batch.build(), 0, true).appended()).isTrue();
    }

    private short writeMarker(long producerId, short epoch, boolean commit) {
        WriteTxnMarkersRequestData request = new WriteTxnMarkersRequestData().setMarkers(List.of(
                new WritableTxnMarker().setProducerId(producerId).setProducerEpoch(epoch).setTransactionResult(commit)
                        .setCoordinatorEpoch(0).setTopics(List.of(new WritableTxnMarkerTopic().setName("t")
                                .setPartitionIndexes(List.of(0))))));
        WriteTxnMarkersResponseData response = (WriteTxnMarkersResponseData) markers.handle(
                new RequestContext(ApiKey.WRITE_TXN_MARKERS, (short) 1, 1, "coordinator", null), request).join();
        return response.markers().get(0).topics().get(0).partitions().get(0).errorCode();
    }

    private PartitionData fetch(byte isolation) {
        FetchRequestData request = new FetchRequestData().setReplicaId(-1).setMaxBytes(1 << 20).setMinBytes(0)
                .setIsolationLevel(isolation).setSessionId(0).setSessionEpoch(-1)
                .setTopics(new ArrayList<>(List.of(new FetchTopic().setTopic("t").setPartitions(new ArrayList<>(
                        List.of(new FetchPartition().setPartition(0).setFetchOffset(0).setPartitionMaxBytes(1 << 20)))))));
        FetchResponseData response = (FetchResponseData) fetch.handle(
                new RequestContext(ApiKey.FETCH, (short) 11, 2, "consumer", null), request).join();
        return response.responses().get(0).partitions().get(0);
    }

    private ListOffsetsPartitionResponse latest(byte isolation) {
        ListOffsetsRequestData request = new ListOffsetsRequestData().setReplicaId(-1).setIsolationLevel(isolation)
                .setTopics(List.of(new ListOffsetsTopic().setName("t").setPartitions(List.of(
                        new ListOffsetsPartition().setPartitionIndex(0).setTimestamp(-1)))));
        ListOffsetsResponseData response = (ListOffsetsResponseData) listOffsets.handle(
                new RequestContext(ApiKey.LIST_OFFSETS, (short) 5, 3, "consumer", null), request).join();
        return response.topics().get(0).partitions().get(0);
    }

    /** The last offsets of the batches a fetch answered. */
    private static List<Long> batchEnds(PartitionData data) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(data.records().sizeInBytes());
        if (data.records() instanceof FileRecords file) {
            file.channel().read(bytes, file.position());
            bytes.flip();
        }
        List<Long> ends = new ArrayList<>();
        RecordBatch batch = new RecordBatch();
        for (int position = bytes.position(); position < bytes.limit(); position += batch.sizeInBytes()) {
            ends.add(batch.wrap(bytes, position).lastOffset());
        }
        return ends;
    }

    @Test
    void readCommittedStopsAtTheLastStableOffsetAndNamesTheAbortedTransactions() throws IOException {
        write(P1, 0, 2);                                   // 0-1
        write(P2, 0, 3);                                   // 2-4
        assertThat(writeMarker(P1, (short) 0, false)).isEqualTo(Errors.NONE.code()); // 5, P2 still open

        PartitionData committed = fetch(READ_COMMITTED);
        assertThat(committed.lastStableOffset()).isEqualTo(2);
        assertThat(committed.highWatermark()).isEqualTo(6);
        assertThat(batchEnds(committed)).as("P1's aborted batch only, up to P2's open one").containsExactly(1L);
        assertThat(committed.abortedTransactions()).extracting(AbortedTransaction::producerId,
                AbortedTransaction::firstOffset).containsExactly(org.assertj.core.groups.Tuple.tuple(P1, 0L));
        assertThat(latest(READ_COMMITTED).offset()).isEqualTo(2);

        PartitionData uncommitted = fetch(READ_UNCOMMITTED);
        assertThat(batchEnds(uncommitted)).containsExactly(1L, 4L, 5L);
        assertThat(uncommitted.lastStableOffset()).isEqualTo(2);
        assertThat(uncommitted.abortedTransactions()).isNull();
        assertThat(latest(READ_UNCOMMITTED).offset()).isEqualTo(6);

        assertThat(writeMarker(P2, (short) 0, true)).isEqualTo(Errors.NONE.code()); // 6
        assertThat(batchEnds(fetch(READ_COMMITTED))).containsExactly(1L, 4L, 5L, 6L);
        assertThat(latest(READ_COMMITTED).offset()).isEqualTo(7);
    }

    @Test
    void aMarkerOfAZombieEpochOrForAPartitionNotLedHereIsRefused() throws IOException {
        write(P1, 0, 1);
        assertThat(writeMarker(P1, (short) 1, false)).isEqualTo(Errors.NONE.code());
        assertThat(writeMarker(P1, (short) 0, true)).isEqualTo(Errors.INVALID_PRODUCER_EPOCH.code());
        WriteTxnMarkersRequestData unknown = new WriteTxnMarkersRequestData().setMarkers(List.of(
                new WritableTxnMarker().setProducerId(P1).setProducerEpoch((short) 1).setTransactionResult(true)
                        .setTopics(List.of(new WritableTxnMarkerTopic().setName("nope").setPartitionIndexes(
                                List.of(0))))));
        WriteTxnMarkersResponseData response = (WriteTxnMarkersResponseData) markers.handle(
                new RequestContext(ApiKey.WRITE_TXN_MARKERS, (short) 1, 1, "coordinator", null), unknown).join();
        assertThat(response.markers().get(0).topics().get(0).partitions().get(0).errorCode())
                .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertThat(log().logEndOffset()).isEqualTo(2);
    }

    @Test
    void untilTheProducerStateIsLoadedNothingIsStableAndThenTheOpenTransactionBoundsTheRead() throws Exception {
        write(P1, 0, 2);                                   // 0-1, committed
        assertThat(writeMarker(P1, (short) 0, true)).isEqualTo(Errors.NONE.code()); // 2
        write(P2, 0, 2);                                   // 3-4, open across the restart
        tearDown();
        start();
        fixture.createTopic("t", 1);

        // The first ask starts the load on its thread; the answer meanwhile is "nothing stable yet" or, if the load
        // was quick, the real bound: never records past the open transaction.
        PartitionData first = fetch(READ_COMMITTED);
        assertThat(first.lastStableOffset()).isIn(-1L, 3L);
        long deadline = System.currentTimeMillis() + 10_000;
        PartitionData loaded = first;
        while (loaded.lastStableOffset() != 3 && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
            loaded = fetch(READ_COMMITTED);
        }
        assertThat(loaded.lastStableOffset()).isEqualTo(3);
        assertThat(batchEnds(loaded)).containsExactly(1L, 2L);
        assertThat(latest(READ_COMMITTED).offset()).isEqualTo(3);
    }
}

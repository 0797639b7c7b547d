package dev.spool.broker.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.network.FileRecords;
import dev.spool.broker.partition.Partition;
import dev.spool.log.record.RecordBatch;
import dev.spool.protocol.Errors;
import dev.spool.protocol.types.Uuid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FetchReaderTest {

    private static final Uuid TOPIC_ID = new Uuid(7L, 11L);
    private static final int NO_EPOCH = -1;

    @TempDir
    Path dir;

    private TestPartitions partitions;
    private FetchReader reader;
    private Partition p0;
    private Partition p1;
    private int batchBytes;

    @BeforeEach
    void setUp() throws IOException {
        partitions = new TestPartitions(dir);
        reader = new FetchReader(partitions);
        p0 = partitions.create("t", 0, TOPIC_ID, 3);
        p1 = partitions.create("t", 1, TOPIC_ID, 3);
        for (int i = 0; i < 4; i++) {
            TestPartitions.append(p0, 10, 100, 1000L * i);
            TestPartitions.append(p1, 10, 100, 1000L * i);
        }
        batchBytes = (int) (p0.log().sizeInBytes() / 4);
    }

    @AfterEach
    void tearDown() throws IOException {
        partitions.close();
    }

    @Test
    void partitionMaxBytesLimitsEachPartition() {
        FetchReader.Result result = reader.read(List.of(state("t", 0, 0, 2 * batchBytes), state("t", 1, 0,
                3 * batchBytes)), Integer.MAX_VALUE);

        assertThat(result.reads()).extracting(read -> read.records().sizeInBytes())
                .containsExactly(2 * batchBytes, 3 * batchBytes);
        assertThat(result.recordBytes()).isEqualTo(5L * batchBytes);
        assertThat(result.anyError()).isFalse();
    }

    @Test
    void responseMaxBytesIsSharedInPartitionOrder() {
        FetchReader.Result result = reader.read(List.of(state("t", 0, 0, Integer.MAX_VALUE),
                state("t", 1, 0, Integer.MAX_VALUE)), 3 * batchBytes);

        assertThat(result.reads()).extracting(read -> read.records().sizeInBytes())
                .containsExactly(3 * batchBytes, 0);
    }

    @Test
    void firstPartitionWithDataReturnsOneWholeBatchAboveBothLimits() {
        FetchReader.Result result = reader.read(List.of(state("t", 0, 40, 100), state("t", 1, 0, 100),
                state("t", 0, 0, 100)), 10);

        assertThat(result.reads().get(0).records().sizeInBytes()).as("at the log end: nothing").isZero();
        PartitionRead first = result.reads().get(1);
        assertThat(first.records().sizeInBytes()).as("one whole batch (KIP-74)").isEqualTo(batchBytes);
        assertThat(firstBatch(first).lastOffset()).isEqualTo(9);
        assertThat(result.reads().get(2).records().sizeInBytes()).as("no byte left for later partitions").isZero();
    }

    @Test
    void readsStartAtTheBatchHoldingTheFetchOffsetAndReportTheOffsets() {
        PartitionRead read = reader.read(List.of(state("t", 0, 15, batchBytes)), Integer.MAX_VALUE).reads().get(0);

        assertThat(read.error()).isEqualTo(Errors.NONE);
        assertThat(firstBatch(read).baseOffset()).isEqualTo(10);
        assertThat(read.highWatermark()).isEqualTo(40);
        assertThat(read.lastStableOffset()).isEqualTo(40);
        assertThat(read.logStartOffset()).isZero();
        assertThat(read.records()).isInstanceOf(FileRecords.class);
    }

    @Test
    void readsStopAtTheHighWatermark() throws IOException {
        p0.log().updateHighWatermark(20);

        PartitionRead read = reader.read(List.of(state("t", 0, 0, Integer.MAX_VALUE)), Integer.MAX_VALUE).reads()
                .get(0);

        assertThat(read.records().sizeInBytes()).isEqualTo(2 * batchBytes);
        assertThat(read.highWatermark()).isEqualTo(20);
    }

    @Test
    void offsetsOutsideTheLogAreOutOfRangeAndTheLogEndIsEmpty() throws IOException {
        p0.log().deleteRecordsBefore(10);

        FetchReader.Result result = reader.read(List.of(state("t", 0, 5, 1000), state("t", 0, 41, 1000),
                state("t", 0, 40, 1000)), Integer.MAX_VALUE);

        assertThat(result.reads()).extracting(PartitionRead::error)
                .containsExactly(Errors.OFFSET_OUT_OF_RANGE, Errors.OFFSET_OUT_OF_RANGE, Errors.NONE);
        assertThat(result.reads().get(0).highWatermark()).isEqualTo(-1);
        assertThat(result.reads().get(2).records().sizeInBytes()).isZero();
        assertThat(result.reads().get(2).logStartOffset()).isEqualTo(10);
        assertThat(result.anyError()).isTrue();
    }

    @Test
    void unknownPartitionsAndTopicIds() {
        FetchReader.Result result = reader.read(List.of(
                state("t", 9, 0, 1000),
                new FetchPartitionState(FetchPartitionKey.byId(TOPIC_ID, 9), 0, 1000, NO_EPOCH),
                new FetchPartitionState(FetchPartitionKey.byId(new Uuid(1L, 2L), 0), 0, 1000, NO_EPOCH),
                new FetchPartitionState(FetchPartitionKey.byId(TOPIC_ID, 1), 0, 1000, NO_EPOCH)), Integer.MAX_VALUE);

        assertThat(result.reads()).extracting(PartitionRead::error).containsExactly(Errors.UNKNOWN_TOPIC_OR_PARTITION,
                Errors.UNKNOWN_TOPIC_OR_PARTITION, Errors.UNKNOWN_TOPIC_ID, Errors.NONE);
    }

    @Test
    void aReplicaThatDoesNotLeadIsNotReadFrom() throws IOException {
        partitions.create("followed", 0, new Uuid(8L, 8L), 3, 2);
        FetchReader.Result result = reader.read(List.of(state("followed", 0, 0, Integer.MAX_VALUE)), Integer.MAX_VALUE);
        assertThat(result.reads().get(0).error()).isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER);
    }

    @Test
    void currentLeaderEpochIsChecked() {
        FetchReader.Result result = reader.read(List.of(
                new FetchPartitionState(FetchPartitionKey.byName("t", 0), 0, 1000, 2),
                new FetchPartitionState(FetchPartitionKey.byName("t", 0), 0, 1000, 4),
                new FetchPartitionState(FetchPartitionKey.byName("t", 0), 0, 1000, 3)), Integer.MAX_VALUE);

        assertThat(result.reads()).extracting(PartitionRead::error).containsExactly(Errors.FENCED_LEADER_EPOCH,
                Errors.UNKNOWN_LEADER_EPOCH, Errors.NONE);
    }

    private static FetchPartitionState state(String topic, int partition, long fetchOffset, int maxBytes) {
        return new FetchPartitionState(FetchPartitionKey.byName(topic, partition), fetchOffset, maxBytes, NO_EPOCH);
    }

    private static RecordBatch firstBatch(PartitionRead read) {
        FileRecords records = (FileRecords) read.records();
        ByteBuffer bytes = ByteBuffer.allocate(records.sizeInBytes());
        try {
            records.channel().read(bytes, records.position());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        RecordBatch batch = new RecordBatch();
        batch.wrap(bytes.flip(), 0);
        return batch;
    }
}

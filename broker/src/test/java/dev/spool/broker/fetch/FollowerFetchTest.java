package dev.spool.broker.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.partition.Partition;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.RecordBatchBuilder;
import dev.spool.protocol.Errors;
import dev.spool.protocol.types.Uuid;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The leader's side of replication in a fetch: followers read to the log end and move the high watermark. */
class FollowerFetchTest {

    private static final Uuid TOPIC_ID = new Uuid(3L, 5L);
    private static final int EPOCH = 3;

    @TempDir
    Path dir;

    private TestPartitions partitions;
    private FetchReader reader;
    private Partition partition;

    @BeforeEach
    void setUp() throws IOException {
        partitions = new TestPartitions(dir);
        reader = new FetchReader(partitions);
        partition = partitions.createReplicated("r", 0, TOPIC_ID, EPOCH, List.of(1, 2, 3));
        for (int i = 0; i < 4; i++) {
            appendUncommitted(10);
        }
    }

    @AfterEach
    void tearDown() throws IOException {
        partitions.close();
    }

    /** As the produce path appends while followers are in sync: the high watermark does not move. */
    private void appendUncommitted(int records) throws IOException {
        RecordBatchBuilder builder = new RecordBatchBuilder(CompressionType.NONE);
        for (int i = 0; i < records; i++) {
            builder.append(1000L + i, ("key-" + i).getBytes(StandardCharsets.UTF_8), new byte[100]);
        }
        partition.log().appendAsLeader(builder.build(), EPOCH);
    }

    private PartitionRead followerRead(int replicaId, long fetchOffset, int lastFetchedEpoch) {
        FetchPartitionState state = new FetchPartitionState(FetchPartitionKey.byName("r", 0), fetchOffset,
                Integer.MAX_VALUE, EPOCH, lastFetchedEpoch, 0);
        return reader.read(List.of(state), Integer.MAX_VALUE, replicaId, -1, 1_000L, false).reads().get(0);
    }

    @Test
    void followersReadToTheLogEndAndTheHighWatermarkIsTheLowestLogEndOfTheIsr() {
        AtomicInteger told = new AtomicInteger();
        partition.addAppendListener(moved -> told.incrementAndGet());
        FetchPartitionState consumer = new FetchPartitionState(FetchPartitionKey.byName("r", 0), 0, Integer.MAX_VALUE,
                EPOCH);
        assertThat(reader.read(List.of(consumer), Integer.MAX_VALUE).reads().get(0).records().sizeInBytes())
                .as("a consumer reads nothing above the high watermark").isZero();

        PartitionRead first = followerRead(2, 0, -1);
        assertThat(first.error()).isEqualTo(Errors.NONE);
        assertThat(first.records().sizeInBytes()).as("a follower reads up to the log end")
                .isEqualTo((int) partition.log().sizeInBytes());
        assertThat(followerRead(2, 40, EPOCH).highWatermark())
                .as("replica 3 of the ISR has not fetched: nothing is committed").isZero();
        assertThat(told.get()).as("only replica 2's log start, first learnt (DeleteRecords waits on it)").isEqualTo(1);

        PartitionRead third = followerRead(3, 20, EPOCH);
        assertThat(third.highWatermark()).as("the lowest log end of the ISR").isEqualTo(20);
        assertThat(partition.log().highWatermark()).isEqualTo(20);
        assertThat(told.get()).as("whoever waits on the partition is told, once").isEqualTo(2);
        assertThat(partition.lowWatermark(replica -> true)).as("every replica's log starts at 0").isZero();
        assertThat(partition.follower(3).logEndOffset()).isEqualTo(20);
        assertThat(followerRead(3, 40, EPOCH).highWatermark()).isEqualTo(40);
    }

    @Test
    void aFollowerWhoseLogDivergedIsToldWhereItsLastEpochEndsInTheLeadersLog() {
        PartitionRead ahead = followerRead(2, 50, EPOCH);
        assertThat(ahead.divergingEpoch()).as("records past where epoch 3 ends here").isNotNull();
        assertThat(ahead.divergingEpoch().epoch()).isEqualTo(EPOCH);
        assertThat(ahead.divergingEpoch().endOffset()).isEqualTo(40);
        assertThat(ahead.records().sizeInBytes()).isZero();
        assertThat(partition.follower(2).logEndOffset()).as("not taken as its progress").isEqualTo(-1);

        PartitionRead older = followerRead(2, 10, EPOCH - 1);
        assertThat(older.divergingEpoch()).as("epoch 2 never had records here: it ends where epoch 3 starts")
                .isNotNull();
        assertThat(older.divergingEpoch().endOffset()).isZero();

        assertThat(followerRead(2, 40, EPOCH).divergingEpoch()).as("a follower in step").isNull();
    }

    @Test
    void progressReadInALeadershipThatHasEndedIsNotCounted() throws IOException {
        for (int follower : List.of(2, 3)) {
            partition.onFollowerFetch(1, EPOCH - 1, follower, -1, 40, 0, 1_000L);
        }
        assertThat(partition.follower(2).logEndOffset()).as("read in epoch 2, which is over").isEqualTo(-1);
        assertThat(partition.log().highWatermark()).isZero();

        for (int follower : List.of(2, 3)) {
            partition.onFollowerFetch(1, EPOCH, follower, -1, 40, 0, 1_000L);
        }
        assertThat(partition.log().highWatermark()).isEqualTo(40);
    }
}
